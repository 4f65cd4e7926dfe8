package org.hostir.studio.ui.editor;

import org.eclipse.draw2d.SWTEventDispatcher;
import org.eclipse.swt.SWT;
import org.eclipse.swt.events.MouseEvent;

/**
 * The Outline overview's mouse events, where a drag always begins with a press. Draw2d's thumbnail moves the graph's
 * view by the drag's distance from the press it recorded; a drag whose press it never got read a null press point,
 * and each drag step logged a NullPointerException (issue 35; found driving the Studio by hand with xdotool: the
 * pointer moved onto the overview and pressed at once, with the editor the active part). Such a drag's first step
 * now counts as its press, so the drag moves the view as a person expects.
 */
final class OverviewDispatcher extends SWTEventDispatcher {
    /** Whether the press of the button now held reached the overview, and whether a figure took it. */
    private boolean pressSeen, pressTaken;

    @Override
    public void dispatchMousePressed(MouseEvent me) {
        super.dispatchMousePressed(me);
        pressSeen = true;
        pressTaken = isCaptured();   // the selector or the thumbnail consumed it and holds the mouse
    }

    @Override
    public void dispatchMouseReleased(MouseEvent me) {
        super.dispatchMouseReleased(me);
        pressSeen = pressTaken = false;
    }

    @Override
    public void dispatchMouseMoved(MouseEvent me) {
        if ((me.stateMask & SWT.BUTTON_MASK) == 0) {
            pressSeen = pressTaken = false;   // a release the overview did not see (it went elsewhere) is past
            super.dispatchMouseMoved(me);
            return;
        }
        if (!pressSeen) {   // the drag's first step stands for the press it missed
            int button = me.button;
            me.button = 1;
            dispatchMousePressed(me);
            me.button = button;
        }
        if (pressTaken) {
            super.dispatchMouseMoved(me);
            return;
        }
        // a press no figure took (beside the thumbnail): the drag moves over the overview as a hover, so the
        // selector never gets a drag without its press
        int state = me.stateMask;
        me.stateMask &= ~SWT.BUTTON_MASK;
        super.dispatchMouseMoved(me);
        me.stateMask = state;
    }
}
