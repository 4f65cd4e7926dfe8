package org.hostir.studio.ui.passes;

import java.util.List;

import org.eclipse.jface.resource.JFaceResources;
import org.eclipse.jface.viewers.ColumnLabelProvider;
import org.eclipse.jface.viewers.ColumnViewerToolTipSupport;
import org.eclipse.jface.viewers.ITreeContentProvider;
import org.eclipse.jface.viewers.TreeViewer;
import org.eclipse.swt.SWT;
import org.eclipse.swt.graphics.Color;
import org.eclipse.swt.graphics.Font;
import org.eclipse.swt.widgets.Composite;
import org.hostir.studio.ui.passes.model.PassRow;

/** The before/after tree: rows coloured by what the pass did, in the text font so it reads like the dump. */
final class PassTree {
    private PassTree() {}

    static TreeViewer create(Composite parent) {
        TreeViewer viewer = new TreeViewer(parent, SWT.BORDER | SWT.MULTI | SWT.FULL_SELECTION | SWT.H_SCROLL
                | SWT.V_SCROLL);
        viewer.setUseHashlookup(true);
        viewer.setContentProvider(new ITreeContentProvider() {
            @Override
            public Object[] getElements(Object input) { return ((List<?>) input).toArray(); }

            @Override
            public Object[] getChildren(Object o) { return ((PassRow) o).children().toArray(); }

            @Override
            public Object getParent(Object o) { return ((PassRow) o).parent(); }

            @Override
            public boolean hasChildren(Object o) { return !((PassRow) o).children().isEmpty(); }
        });
        viewer.setLabelProvider(new ColumnLabelProvider() {
            @Override
            public String getText(Object o) {
                PassRow r = (PassRow) o;
                String mark = switch (r.kind()) {
                    case ADDED -> "+ ";
                    case REMOVED -> "- ";
                    case CHANGED -> "~ ";
                    case UNCHANGED -> "  ";
                };
                return mark + r.text();
            }

            @Override
            public Color getBackground(Object o) {
                var d = viewer.getControl().getDisplay();
                return switch (((PassRow) o).kind()) {
                    case ADDED -> Colors.get(Colors.ADDED, d, SWT.COLOR_GREEN);
                    case REMOVED -> Colors.get(Colors.REMOVED, d, SWT.COLOR_RED);
                    case CHANGED -> Colors.get(Colors.CHANGED, d, SWT.COLOR_YELLOW);
                    case UNCHANGED -> null;
                };
            }

            @Override
            public Font getFont(Object o) { return JFaceResources.getTextFont(); }

            @Override
            public String getToolTipText(Object o) {
                PassRow r = (PassRow) o;
                return r.kind().name().toLowerCase(java.util.Locale.ROOT)
                        + (r.node() == null ? "" : ", node " + r.node().id() + " ("
                        + r.node().getClass().getSimpleName() + ")");
            }
        });
        ColumnViewerToolTipSupport.enableFor(viewer);
        return viewer;
    }
}
