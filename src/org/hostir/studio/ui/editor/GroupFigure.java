package org.hostir.studio.ui.editor;

import java.util.function.Consumer;

import org.eclipse.draw2d.Figure;
import org.eclipse.draw2d.Graphics;
import org.eclipse.draw2d.Label;
import org.eclipse.draw2d.MouseEvent;
import org.eclipse.draw2d.MouseListener;
import org.eclipse.draw2d.PositionConstants;
import org.eclipse.draw2d.geometry.Rectangle;
import org.hostir.studio.ui.editor.model.Groups;

/**
 * A compound node: a group's frame around its nodes, or, collapsed, one box that the arrows to its nodes meet. Only
 * its header takes clicks (a click toggles collapsed and expanded), so a click on an expanded group's empty inside
 * still reaches the canvas (clearing the selection, starting a marquee).
 */
final class GroupFigure extends Figure {
    static final int HEADER = 20;
    static final int PADDING = 12;
    static final int COLLAPSED_WIDTH = 170, COLLAPSED_HEIGHT = 44;

    final String key;
    final Label header = new Label();
    private Groups.Group group;

    GroupFigure(Groups.Group group, Consumer<Groups.Group> toggle) {
        this.key = group.key();
        header.setLabelAlignment(PositionConstants.LEFT);
        header.addMouseListener(new MouseListener.Stub() {
            @Override
            public void mousePressed(MouseEvent me) {
                me.consume();
                toggle.accept(GroupFigure.this.group);
            }
        });
        add(header);
        show(group);
    }

    void show(Groups.Group g) {
        group = g;
        header.setText(g.collapsed() ? "\u25B8 " + g.name() + " \u00B7 " + g.nodes().size() + " nodes"
                : "\u25BE " + g.name());
        header.setToolTip(new Label(g.collapsed() ? "Click to expand " + g.name() : "Click to collapse " + g.name()));
        if (g.collapsed()) setSize(COLLAPSED_WIDTH, COLLAPSED_HEIGHT);
        repaint();
    }

    Groups.Group group() { return group; }

    /** The frame around {@code members} (their union), with room for the header. */
    void frame(Rectangle members) {
        setBounds(new Rectangle(members.x - PADDING, members.y - PADDING - HEADER, members.width + 2 * PADDING,
                members.height + 2 * PADDING + HEADER));
    }

    @Override
    public void setBounds(Rectangle r) {
        super.setBounds(r);
        header.setBounds(new Rectangle(r.x + 6, r.y + 2, Math.max(0, r.width - 12), HEADER - 2));
    }

    @Override
    protected void paintFigure(Graphics g) {
        Rectangle r = getBounds().getCopy().resize(-1, -1);
        g.setForegroundColor(EditorColors.edge());
        g.setLineDash(group.collapsed() ? null : new int[] { 4, 3 });
        g.drawRoundRectangle(r, 10, 10);
        g.setLineDash((int[]) null);
        g.drawLine(r.x, r.y + HEADER, r.right(), r.y + HEADER);
    }
}
