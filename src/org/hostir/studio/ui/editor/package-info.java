/**
 * The graphical fusion editor (issue 6): a multi-page editor, Graph | Source, for {@code *.fusion} files. The
 * graph is drawn with Draw2d; the thin editing layer over it is ours (GEF MVC is not obtainable), modelled on
 * GEF Classic's Shapes example: the model is the engine's immutable document, figures are rebuilt from it,
 * and every edit is one {@link org.eclipse.core.commands.operations.IUndoableOperation} in the workbench
 * operation history.
 */
package org.hostir.studio.ui.editor;
