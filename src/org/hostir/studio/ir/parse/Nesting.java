package org.hostir.studio.ir.parse;

import java.util.ArrayList;
import java.util.List;

import org.hostir.studio.ir.host.ForLoop;
import org.hostir.studio.ir.host.HirAliasSelect;
import org.hostir.studio.ir.host.HostNode;
import org.hostir.studio.ir.host.HostOp;
import org.hostir.studio.ir.host.IfThenElse;
import org.hostir.studio.ir.host.SetCurrentStream;
import org.hostir.studio.ir.host.Synchronize;
import org.hostir.studio.ir.host.Wait;

/**
 * Puts a container's statements into the tree: a FOR owns the statements indented deeper than it, an IF those up
 * to its ELSE and those after it. A dump that lost its line breaks (seed 001) has no indentation, so there the
 * nesting is inferred from the shape nvFuser's stream lowering gives its loops (the caller warns that it did):
 * a loop body ends after a {@code Synchronize} that follows a {@code SetCurrentStream} unless slices or ops
 * follow (the sync loop, and the main loop's closing pair); an IF's then-body ends at ELSE or at the next
 * {@code SetCurrentStream}, its else-body after the first {@code Wait}.
 */
final class Nesting {
    private final List<Statement> statements;
    private int next;
    /** How many FOR and IF bodies enclose the statement being placed. */
    private int depth;

    private Nesting(List<Statement> statements) { this.statements = statements; }

    /** The top-level nodes of {@code statements} (nodes and ELSE markers only), nested. */
    static List<HostNode> build(List<Statement> statements, boolean layoutKept) {
        Nesting n = new Nesting(statements);
        List<HostNode> top = layoutKept ? n.indented(-1) : n.inferred(Scope.TOP);
        if (n.next < statements.size()) {
            Statement stray = statements.get(n.next);
            throw new DumpFormatException("ELSE without its IF", stray.start());
        }
        return top;
    }

    private List<HostNode> indented(int parentColumn) {
        List<HostNode> body = new ArrayList<>();
        while (next < statements.size() && statements.get(next).column() > parentColumn
                && statements.get(next).kind() != Statement.Kind.ELSE) {
            Statement s = statements.get(next++);
            HostNode node = s.node();
            // FOR and IF open bodies; every other kind is a leaf here
            if (!node.bodies().isEmpty()) enter(s);
            if (node instanceof ForLoop f) {
                node = f.withBody(indented(s.column()));
            } else if (node instanceof IfThenElse i) {
                List<HostNode> then = indented(s.column());
                List<HostNode> otherwise = List.of();
                if (next < statements.size() && statements.get(next).kind() == Statement.Kind.ELSE
                        && statements.get(next).column() == s.column()) {
                    next++;
                    otherwise = indented(s.column());
                }
                node = new IfThenElse(i.id(), i.predicate(), then, otherwise);
            }
            if (!node.bodies().isEmpty()) depth--;
            body.add(node);
        }
        return body;
    }

    private enum Scope { TOP, LOOP, THEN, ELSE }

    private List<HostNode> inferred(Scope scope) {
        List<HostNode> body = new ArrayList<>();
        while (next < statements.size()) {
            Statement s = statements.get(next);
            if (s.kind() == Statement.Kind.ELSE) return body;
            if (scope == Scope.THEN && s.node() instanceof SetCurrentStream) return body;
            next++;
            HostNode node = s.node();
            if (!node.bodies().isEmpty()) enter(s);
            if (node instanceof ForLoop f) {
                node = f.withBody(inferred(Scope.LOOP));
            } else if (node instanceof IfThenElse i) {
                List<HostNode> then = inferred(Scope.THEN);
                List<HostNode> otherwise = List.of();
                if (next < statements.size() && statements.get(next).kind() == Statement.Kind.ELSE) {
                    next++;
                    otherwise = inferred(Scope.ELSE);
                }
                node = new IfThenElse(i.id(), i.predicate(), then, otherwise);
            }
            if (!node.bodies().isEmpty()) depth--;
            body.add(node);
            if (scope == Scope.ELSE && node instanceof Wait) return body;
            if (scope == Scope.LOOP && closesLoop(body)) return body;
        }
        return body;
    }

    /**
     * A FOR or IF opens a body one level deeper; past {@link HostIrDumpReader#MAX_NESTING} the dump is refused, so
     * that this reader and every walker of the tree it gives (printer, diff, hashing, the evaluator) recurse a
     * bounded depth rather than overflow the stack.
     */
    private void enter(Statement s) {
        if (++depth > HostIrDumpReader.MAX_NESTING) {
            throw new DumpFormatException("FOR and IF bodies nest " + HostIrDumpReader.MAX_NESTING + " deep at most"
                    + " (nvFuser's Host IR nests a few); this one opens level " + depth, s.start(),
                    DumpFormatException.LIMIT);
        }
    }

    private boolean closesLoop(List<HostNode> body) {
        int n = body.size();
        if (n < 2 || !(body.get(n - 1) instanceof Synchronize) || !(body.get(n - 2) instanceof SetCurrentStream)) {
            return false;
        }
        if (next >= statements.size() || statements.get(next).kind() != Statement.Kind.NODE) return true;
        HostNode following = statements.get(next).node();
        return !(following instanceof HirAliasSelect || following instanceof HostOp);
    }
}
