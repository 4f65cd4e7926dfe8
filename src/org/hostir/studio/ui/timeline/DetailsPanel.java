package org.hostir.studio.ui.timeline;

import org.eclipse.jface.resource.JFaceResources;
import org.eclipse.swt.SWT;
import org.eclipse.swt.layout.GridData;
import org.eclipse.swt.layout.GridLayout;
import org.eclipse.swt.widgets.Composite;
import org.eclipse.swt.widgets.Link;
import org.eclipse.swt.widgets.Text;
import org.hostir.studio.trace.TimelineEvent;
import org.hostir.studio.ui.timeline.model.EventDetails;

/**
 * The selected bar's details beside the summary, as Perfetto's and Nsight Systems' details panels show them:
 * node, rank, stream, iteration, bytes, flops, times on the ruler's origin, and a link to its Host IR node.
 */
final class DetailsPanel {
    private final Composite root;
    private final Text text;
    private final Link node;
    private TimelineEvent shown;

    /** {@code reveal} shows the event's Host IR node in the Lowering view. */
    DetailsPanel(Composite parent, java.util.function.Consumer<TimelineEvent> reveal) {
        root = new Composite(parent, SWT.NONE);
        GridLayout layout = new GridLayout(1, false);
        layout.marginWidth = layout.marginHeight = 2;
        root.setLayout(layout);
        text = new Text(root, SWT.MULTI | SWT.READ_ONLY | SWT.V_SCROLL | SWT.WRAP);
        text.setFont(JFaceResources.getTextFont());
        text.setLayoutData(new GridData(SWT.FILL, SWT.FILL, true, true));
        node = new Link(root, SWT.NONE);
        node.setLayoutData(new GridData(SWT.FILL, SWT.BOTTOM, true, false));
        node.addListener(SWT.Selection, e -> { if (shown != null) reveal.accept(shown); });
        show(null, 0);
    }

    Composite control() { return root; }

    /** Shows {@code e} (or a hint when null), its start counted from {@code originNs}. */
    void show(TimelineEvent e, long originNs) {
        shown = e;
        text.setText(e == null ? "Click a bar to see its details here; Shift+drag a range for its figures."
                : EventDetails.of(e, originNs));
        // short enough for the panel at 1280 px (the long form was cut off on the right); the tooltip says it all
        node.setText(e == null || e.nodeId() < 0 ? "" : "<a>Node " + e.nodeId() + " of rank " + e.rank()
                + " in Lowering</a>");
        node.setToolTipText(e == null || e.nodeId() < 0 ? null : "Show Host IR node " + e.nodeId() + " of rank "
                + e.rank() + " in the Lowering view");
        root.layout(true);
    }

    /** Shows a text of its own (a range's figures), without a node link. */
    void showText(String figures) {
        shown = null;
        text.setText(figures);
        node.setText("");
        root.layout(true);
    }

    String text() { return text.getText(); }
}
