package org.hostir.studio.ui.debug;

import java.util.ArrayList;
import java.util.List;

import org.eclipse.debug.core.DebugEvent;
import org.eclipse.debug.core.DebugPlugin;
import org.eclipse.debug.core.IDebugEventSetListener;
import org.eclipse.debug.ui.DebugUITools;
import org.eclipse.debug.ui.contexts.DebugContextEvent;
import org.eclipse.debug.ui.contexts.IDebugContextListener;
import org.eclipse.swt.SWT;
import org.eclipse.swt.custom.SashForm;
import org.eclipse.swt.graphics.GC;
import org.eclipse.swt.graphics.Point;
import org.eclipse.swt.graphics.Rectangle;
import org.eclipse.swt.widgets.Canvas;
import org.eclipse.swt.widgets.Composite;
import org.eclipse.swt.widgets.Display;
import org.eclipse.ui.part.ViewPart;
import org.hostir.studio.exec.debug.DebugStop;
import org.hostir.studio.exec.debug.StopText;
import org.hostir.studio.exec.debug.WaitGraph;

/**
 * Who waits for whom (Window > Show View > Debug > Wait-for Graph): at the selected run's latest stop, each rank
 * as a box with what it is doing, an arrow from a rank whose stream is blocked to each rank it waits for, labelled
 * with the Host IR node that posted the wait; the arrows of a cycle in red, and the cycle named above the graph by
 * its nodes ({@code deadlock: rank 0 (P2PCommunication 3) -> rank 1 (P2PCommunication 3) -> rank 0}); below, the
 * same as lines. It follows the Debug view's selection and each stop of the run it shows.
 */
public final class WaitGraphView extends ViewPart implements IDebugContextListener, IDebugEventSetListener {
    public static final String ID = "org.hostir.studio.ui.debug.WaitGraphView";

    /** An arrow as drawn: from rank, to rank, its label, and whether it is on a cycle. */
    public record Arrow(int from, int to, String label, boolean onCycle) {}

    /** About half a rank box's size, where arrows start and end. */
    private static final int BOX_HALF_WIDTH = 80;
    private static final int BOX_HALF_HEIGHT = 22;

    private Canvas canvas;
    private org.eclipse.swt.widgets.List lines;
    private RunTarget run;
    private String title = "no Host IR run under the debugger";
    private List<Integer> ranks = List.of();
    private List<String> rankLabels = List.of();
    private List<Arrow> arrows = List.of();

    @Override
    public void createPartControl(Composite parent) {
        SashForm sash = new SashForm(parent, SWT.VERTICAL);
        canvas = new Canvas(sash, SWT.DOUBLE_BUFFERED);
        canvas.addPaintListener(e -> paint(e.gc, canvas.getClientArea()));
        lines = new org.eclipse.swt.widgets.List(sash, SWT.V_SCROLL | SWT.H_SCROLL);
        sash.setWeights(3, 1);
        DebugUITools.getDebugContextManager().getContextService(getSite().getWorkbenchWindow())
                .addDebugContextListener(this);
        DebugPlugin.getDefault().addDebugEventListener(this);
        follow(StepGroup.selectedRun(DebugUITools.getDebugContext()));
    }

    @Override
    public void dispose() {
        DebugPlugin.getDefault().removeDebugEventListener(this);
        DebugUITools.getDebugContextManager().getContextService(getSite().getWorkbenchWindow())
                .removeDebugContextListener(this);
        super.dispose();
    }

    @Override
    public void debugContextChanged(DebugContextEvent event) {
        RunTarget chosen = StepGroup.selectedRun(event.getContext());
        if (chosen != null && chosen != run) follow(chosen);
    }

    @Override
    public void handleDebugEvents(DebugEvent[] events) {
        for (DebugEvent e : events) {
            if (e.getSource() instanceof RunTarget t && (run == null || t == run)) {
                Display.getDefault().asyncExec(() -> follow(t));
                return;
            }
        }
    }

    private void follow(RunTarget target) {
        if (canvas == null || canvas.isDisposed()) return;
        run = target;
        DebugStop stop = target == null ? null : target.lastStop();
        List<Arrow> drawn = new ArrayList<>();
        List<Integer> shownRanks = new ArrayList<>();
        List<String> labels = new ArrayList<>();
        if (target == null) {
            title = "no Host IR run under the debugger";
        } else if (stop == null) {
            title = target.getName() + ": not stopped yet";
        } else {
            for (var t : target.getThreads()) {
                RankThread r = (RankThread) t;
                shownRanks.add(r.rank());
                labels.add(StopText.state(r.stop()));
            }
            WaitGraph graph = stop.waits();
            for (WaitGraph.Edge e : graph.edges()) {
                boolean onCycle = graph.cycles().stream().anyMatch(c -> c.edges().contains(e));
                int node = e.why().on().nodeId();
                drawn.add(new Arrow(e.from(), e.to(), node >= 0 ? StopText.node(target.program(e.from()), node)
                        : e.why().on().text(), onCycle));
            }
            title = graph.cycles().isEmpty() ? (graph.edges().isEmpty() ? "no rank waits for another at stop "
                    + stop.number() : "who waits for whom at stop " + stop.number() + "; no cycle")
                    : String.join("; ", graph.cycles().stream().map(c -> StopText.cycle(c, target.programs()))
                            .toList());
        }
        ranks = List.copyOf(shownRanks);
        rankLabels = List.copyOf(labels);
        arrows = List.copyOf(drawn);
        lines.setItems(target == null ? new String[0] : target.waits().toArray(String[]::new));
        setContentDescription(title);
        canvas.redraw();
    }

    /** The run shown, or null. */
    public RunTarget run() { return run; }

    /** The line above the graph: the cycles by their nodes, or what the graph shows. */
    public String title() { return title; }

    /** The arrows drawn, each with its label and whether it is on a cycle. */
    public List<Arrow> arrows() { return arrows; }

    /** The lines below the graph: each wait, then each cycle. */
    public List<String> lines() { return List.of(lines.getItems()); }

    private void paint(GC gc, Rectangle area) {
        gc.setAntialias(SWT.ON);
        if (ranks.isEmpty()) return; // the title (the view's description) says why
        List<Point> at = positions(area);
        for (Arrow a : arrows) {
            int fi = ranks.indexOf(a.from());
            int ti = ranks.indexOf(a.to());
            if (fi < 0 || ti < 0) continue;
            drawArrow(gc, at.get(fi), at.get(ti), a);
        }
        for (int i = 0; i < ranks.size(); i++) drawRank(gc, at.get(i), "rank " + ranks.get(i), rankLabels.get(i));
    }

    /** The ranks on an ellipse filling the canvas (two side by side), rank 0 at the left. */
    private List<Point> positions(Rectangle area) {
        int cx = area.width / 2;
        int cy = area.height / 2;
        int rx = Math.max(110, Math.min(area.width / 2 - BOX_HALF_WIDTH - 10, 360));
        int ry = Math.max(30, area.height / 2 - 40);
        List<Point> out = new ArrayList<>();
        for (int i = 0; i < ranks.size(); i++) {
            double angle = Math.PI + 2 * Math.PI * i / ranks.size();
            out.add(new Point(cx + (int) Math.round(rx * Math.cos(angle)), cy + (int) Math.round(ry * Math.sin(angle))));
        }
        return out;
    }

    private void drawRank(GC gc, Point c, String name, String state) {
        Display d = canvas.getDisplay();
        Point a = gc.textExtent(name);
        Point b = gc.textExtent(state);
        int w = Math.max(a.x, b.x) + 16;
        int h = a.y + b.y + 10;
        gc.setBackground(d.getSystemColor(SWT.COLOR_LIST_BACKGROUND));
        gc.fillRoundRectangle(c.x - w / 2, c.y - h / 2, w, h, 10, 10);
        gc.setForeground(d.getSystemColor(SWT.COLOR_WIDGET_FOREGROUND));
        gc.drawRoundRectangle(c.x - w / 2, c.y - h / 2, w, h, 10, 10);
        gc.drawText(name, c.x - a.x / 2, c.y - h / 2 + 4, true);
        gc.drawText(state, c.x - b.x / 2, c.y - h / 2 + 5 + a.y, true);
    }

    /** A line from one rank to the other, moved aside so that the two directions between a pair stay apart. */
    private void drawArrow(GC gc, Point from, Point to, Arrow a) {
        Display d = canvas.getDisplay();
        double dx = to.x - from.x;
        double dy = to.y - from.y;
        double len = Math.max(1, Math.hypot(dx, dy));
        double nx = -dy / len * 14;
        double ny = dx / len * 14;
        // from the edge of one box to the edge of the other (the boxes are drawn over the lines' ends)
        double edge = BOX_HALF_WIDTH * Math.abs(dx / len) + BOX_HALF_HEIGHT * Math.abs(dy / len) + 4;
        int x1 = (int) (from.x + nx + dx / len * edge);
        int y1 = (int) (from.y + ny + dy / len * edge);
        int x2 = (int) (to.x + nx - dx / len * edge);
        int y2 = (int) (to.y + ny - dy / len * edge);
        gc.setForeground(d.getSystemColor(a.onCycle() ? SWT.COLOR_RED : SWT.COLOR_WIDGET_FOREGROUND));
        gc.setLineWidth(a.onCycle() ? 3 : 1);
        gc.drawLine(x1, y1, x2, y2);
        double segment = Math.max(1, Math.hypot(x2 - x1, y2 - y1));
        double ux = (x2 - x1) / segment;
        double uy = (y2 - y1) / segment;
        gc.setBackground(gc.getForeground());
        gc.fillPolygon(new int[] {x2, y2, (int) (x2 - ux * 12 - uy * 6), (int) (y2 - uy * 12 + ux * 6),
                (int) (x2 - ux * 12 + uy * 6), (int) (y2 - uy * 12 - ux * 6)});
        gc.setLineWidth(1);
        String label = a.label();
        Point e = gc.textExtent(label);
        gc.drawText(label, (x1 + x2) / 2 - e.x / 2 + (int) (nx * 0.8), (y1 + y2) / 2 - e.y / 2 + (int) (ny * 1.2), true);
    }

    @Override
    public void setFocus() { canvas.setFocus(); }
}
