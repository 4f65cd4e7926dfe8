package org.hostir.studio.ui.editor;

import java.util.Map;

import org.eclipse.draw2d.UpdateListener;
import org.eclipse.draw2d.UpdateManager;
import org.eclipse.draw2d.geometry.Rectangle;
import org.eclipse.draw2d.parts.Thumbnail;
import org.eclipse.swt.widgets.Display;

/**
 * Draws the Outline's overview of the graph again once the graph has stopped repainting for a moment, in place of
 * the thumbnail's own listener. Draw2d's thumbnail renders every figure of its source again at each paint of the
 * source, however small (a selection, a hover, the opening's check marking the nodes): on a 1,000-op fusion that
 * is 4,000 figures each time, and after the first picture it held the UI thread longer than the editor's opening
 * did (issue 35). Many paints in a row now render it once, {@link #DELAY_MS} after the last.
 */
final class IdleThumbnail implements UpdateListener {
    static final int DELAY_MS = 250;
    private final Thumbnail thumbnail;
    private final UpdateManager source;
    private final Display display;
    private final Runnable render = this::render, settled = this::render;
    /** After a theme switch's own asyncExecs and the repair that follows it (ThemeSwitchRepair: 400 ms). */
    static final int SETTLED_MS = 1500;
    private boolean active = true;

    /** Takes over {@code thumbnail}'s listening to {@code source} (the graph canvas's update manager). */
    IdleThumbnail(Thumbnail thumbnail, UpdateManager source, Display display) {
        this.thumbnail = thumbnail;
        this.source = source;
        this.display = display;
        source.removeUpdateListener(thumbnail);
        source.addUpdateListener(this);
    }

    @Override
    @SuppressWarnings("rawtypes")
    public void notifyPainting(Rectangle damage, Map dirtyRegions) {
        if (active) display.timerExec(DELAY_MS, render);   // the same runnable: a pending render is pushed back
    }

    @Override
    public void notifyValidating() {}

    /**
     * Draws the overview again, in the new theme's colours, at once (as the graph shows them) though the graph may
     * not repaint: after a theme switch the graph's colours change while its page may be hidden (the Source page in
     * front). Drawn whole now: queued tiles waited behind the switch's styling, and the overview showed the old
     * theme's picture for a second after the graph showed the new one (issue 35, round 16).
     */
    void themeChanged() {
        if (!active) return;
        display.timerExec(-1, render);
        ThumbnailCatchUp.drawNow(thumbnail);
        // once more when the switch has settled: switched with the Source page in front (the graph hidden, so no
        // paint of it follows), the overview kept Light's picture under Dark (issue 35, round 15, by hand)
        display.timerExec(SETTLED_MS, settled);
    }

    /**
     * Draws the overview now, in place of the pending idle render: the graph shows an edit's layout (an undo, a
     * drop), a change a person looks for in the overview at once; it showed the picture before the edit for the
     * idle delay after the graph's last paint (issue 35: after Ctrl+Z, the aligned nodes).
     */
    void renderNow() {
        if (!active) return;
        display.timerExec(-1, render);
        render();
    }

    private void render() {
        if (!active) return;
        thumbnail.setDirty(true);
        thumbnail.repaint();
    }

    /** Stops listening (the Outline page goes). */
    void stop() {
        active = false;
        display.timerExec(-1, render);
        display.timerExec(-1, settled);
        source.removeUpdateListener(this);
    }
}
