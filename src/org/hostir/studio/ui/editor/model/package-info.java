/**
 * The fusion editor's model: pure functions over the engine's immutable {@code FusionDocument} (shape
 * derivation of op outputs, the edits the graph and the properties make, the axes text notation, node
 * positions in the file's {@code layout} section). No Eclipse imports, so it is testable anywhere.
 */
package org.hostir.studio.ui.editor.model;
