package org.hostir.studio.ui.debug;

import java.util.OptionalInt;

import org.eclipse.core.runtime.Adapters;
import org.eclipse.core.runtime.CoreException;
import org.eclipse.swt.SWT;
import org.eclipse.swt.layout.GridData;
import org.eclipse.swt.widgets.Button;
import org.eclipse.swt.layout.GridLayout;
import org.eclipse.swt.widgets.Composite;
import org.eclipse.swt.widgets.Control;
import org.eclipse.swt.widgets.Label;
import org.eclipse.swt.widgets.Text;
import org.eclipse.ui.dialogs.PropertyPage;

/**
 * A node breakpoint's conditions (its Properties, Alt+Enter in the Breakpoints view): the rank it holds on and the
 * iteration of the node's innermost loop, each empty for every one, and whether a communication's whole team stops
 * with that rank, as {@code hirstudio debug --break NODE@RANK:ITER+team} takes them. A value that is not a number is
 * refused on the page with why.
 */
public final class NodeBreakpointPage extends PropertyPage {
    public static final String ID = "org.hostir.studio.ui.debug.nodeBreakpointPage";
    /** The option that holds a communication's whole team with the rank (the breakpoint's {@code team}). */
    public static final String TEAM_LABEL = "Stop the whole &team of this communication with that rank";
    private Text rank;
    private Text iteration;
    private Button team;

    @Override
    protected Control createContents(Composite parent) {
        NodeBreakpoint b = breakpoint();
        Composite c = new Composite(parent, SWT.NONE);
        c.setLayout(new GridLayout(2, false));
        Label node = new Label(c, SWT.WRAP);
        node.setText("Holds before " + b.label() + " when:");
        node.setLayoutData(new GridData(SWT.FILL, SWT.TOP, true, false, 2, 1));
        rank = field(c, "&Rank (empty: every rank):", b.rank());
        iteration = field(c, "&Iteration of its innermost loop (empty: every iteration):", b.iteration());
        team = new Button(c, SWT.CHECK);
        team.setText(TEAM_LABEL);
        team.setToolTipText("On a communication: every rank of the team the rank's communication names is held at it"
                + " too, in the same iteration");
        team.setSelection(b.team());
        team.setLayoutData(new GridData(SWT.FILL, SWT.CENTER, true, false, 2, 1));
        return c;
    }

    private Text field(Composite c, String label, int value) {
        new Label(c, SWT.NONE).setText(label);
        Text t = new Text(c, SWT.BORDER);
        t.setText(value < 0 ? "" : Integer.toString(value));
        t.setLayoutData(new GridData(SWT.FILL, SWT.CENTER, true, false));
        t.addModifyListener(e -> check());
        return t;
    }

    private void check() {
        String problem = problem("rank", rank.getText());
        if (problem == null) problem = problem("iteration", iteration.getText());
        setErrorMessage(problem);
        setValid(problem == null);
    }

    /** Why {@code text} is not a condition (null when it is: empty, or a number from 0). */
    static String problem(String what, String text) {
        if (parse(text) != null) return null;
        return "the " + what + " '" + text.strip() + "' is not a number from 0 (empty: every " + what + ")";
    }

    /** Empty: every one; a number from 0; null when it is neither. */
    static OptionalInt parse(String text) {
        String t = text.strip();
        if (t.isEmpty()) return OptionalInt.empty();
        try {
            int v = Integer.parseInt(t);
            return v < 0 ? null : OptionalInt.of(v);
        } catch (NumberFormatException e) {
            return null;
        }
    }

    @Override
    public boolean performOk() {
        OptionalInt r = parse(rank.getText());
        OptionalInt i = parse(iteration.getText());
        if (r == null || i == null) return false;
        try {
            breakpoint().setRank(r.orElse(-1));
            breakpoint().setIteration(i.orElse(-1));
            breakpoint().setTeam(team.getSelection());
        } catch (CoreException e) {
            setErrorMessage("cannot save the conditions: " + e.getMessage());
            return false;
        }
        return true;
    }

    private NodeBreakpoint breakpoint() { return Adapters.adapt(getElement(), NodeBreakpoint.class); }
}
