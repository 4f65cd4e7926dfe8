package org.hostir.studio.file;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

import org.hostir.studio.ir.ParallelType;

/**
 * A tensor's loop steps as one line of nvFuser-like calls, what the editor's Properties view shows and reads:
 * {@code outer_split(0, D); parallelize(0, DIDx); allocation(loop)} for {@code tv->outer_split(0, D);
 * tv->axis(0)->parallelize(ParallelType::DIDx); tv->setAllocationDomain(tv->getLoopDomain(), true)}. Also
 * {@code split(axis, factor)} (inner, nvFuser's default), {@code merge(axis)}, {@code reorder(1, 0)} (new
 * position i holds old position {@code order[i]}, as the file's {@code reorder}) and {@code swizzle1d(axis, DIDx)}.
 * Parsing checks the notation only; whether the steps fit the tensor is the validator's (rules loop.*), so a
 * wrong position is marked on the file's line like any other problem.
 */
public final class LoopText {
    private LoopText() {}

    /** The steps and whether the allocation domain is the loop domain. */
    public record Parsed(List<LoopStep> steps, boolean allocationIsLoop) {
        public Parsed {
            steps = List.copyOf(steps);
        }
    }

    /** Thrown with a one-line message for the user: the text is not loop steps. */
    public static final class SyntaxException extends Exception {
        private static final long serialVersionUID = 1L;

        SyntaxException(String message) { super(message); }
    }

    public static String format(TensorSpec t) { return format(t.loop(), t.allocationIsLoop()); }

    public static String format(List<LoopStep> steps, boolean allocationIsLoop) {
        List<String> calls = new ArrayList<>();
        for (LoopStep s : steps) calls.add(call(s));
        if (allocationIsLoop) calls.add("allocation(loop)");
        return String.join("; ", calls);
    }

    private static String call(LoopStep s) {
        return switch (s) {
            case LoopStep.Split x -> (x.innerSplit() ? "split(" : "outer_split(") + x.axis() + ", " + x.factor() + ")";
            case LoopStep.Merge m -> "merge(" + m.axis() + ")";
            case LoopStep.Reorder r -> "reorder(" + String.join(", ", r.order().stream().map(String::valueOf).toList())
                    + ")";
            case LoopStep.Parallelize p -> "parallelize(" + p.axis() + ", " + p.type().fileName() + ")";
            case LoopStep.Swizzle1D z -> "swizzle1d(" + z.axis() + ", " + z.type().fileName() + ")";
        };
    }

    /** Reads calls separated by {@code ;}; empty text is no steps. */
    public static Parsed parse(String text) throws SyntaxException {
        List<LoopStep> steps = new ArrayList<>();
        boolean allocation = false;
        String[] calls = text.split("[;\\n]");
        int n = 0;
        for (String raw : calls) {
            String c = raw.trim();
            if (c.isEmpty()) continue;
            n++;
            if (n > Limits.MAX_AXES * 4) throw new SyntaxException("at most " + Limits.MAX_AXES * 4 + " loop steps");
            int open = c.indexOf('(');
            if (open < 0 || !c.endsWith(")")) {
                throw new SyntaxException("step " + n + " '" + c + "': write a call such as outer_split(0, D)");
            }
            String name = c.substring(0, open).trim().toLowerCase(Locale.ROOT);
            List<String> args = args(c.substring(open + 1, c.length() - 1));
            if (name.equals("allocation")) {
                if (args.size() != 1 || !args.get(0).equals("loop")) {
                    throw new SyntaxException("step " + n + ": allocation takes 'loop', as allocation(loop)");
                }
                allocation = true;
                continue;
            }
            steps.add(step(name, args, n));
        }
        return new Parsed(steps, allocation);
    }

    private static LoopStep step(String name, List<String> args, int n) throws SyntaxException {
        return switch (name) {
            case "split", "outer_split" -> {
                boolean inner = name.equals("split");
                // nvFuser's split(axis, factor, inner_split) is accepted too: split(0, D, false) is outer_split
                if (inner && args.size() == 3 && (args.get(2).equals("true") || args.get(2).equals("false"))) {
                    inner = Boolean.parseBoolean(args.get(2));
                    args = args.subList(0, 2);
                }
                expect(name, args, 2, "(0, D)", n);
                yield new LoopStep.Split(position(args.get(0), n), factor(args.get(1), n), inner);
            }
            case "merge" -> {
                expect(name, args, 1, "(0)", n);
                yield new LoopStep.Merge(position(args.get(0), n));
            }
            case "reorder" -> {
                if (args.isEmpty()) throw new SyntaxException("step " + n + ": reorder lists loop positions, as reorder(1, 0)");
                List<Integer> order = new ArrayList<>();
                for (String a : args) order.add(position(a, n));
                yield new LoopStep.Reorder(order);
            }
            case "parallelize", "swizzle1d" -> {
                expect(name, args, 2, "(0, DIDx)", n);
                ParallelType type = parallel(args.get(1), n);
                int axis = position(args.get(0), n);
                yield name.equals("parallelize") ? new LoopStep.Parallelize(axis, type) : new LoopStep.Swizzle1D(axis, type);
            }
            default -> throw new SyntaxException("step " + n + ": '" + name + "' is not a loop step (split, outer_split,"
                    + " merge, reorder, parallelize, swizzle1d, allocation)");
        };
    }

    private static List<String> args(String inside) {
        List<String> out = new ArrayList<>();
        if (inside.isBlank()) return out;
        for (String a : inside.split(",")) out.add(a.trim());
        return out;
    }

    private static void expect(String name, List<String> args, int count, String example, int n) throws SyntaxException {
        if (args.size() != count) {
            throw new SyntaxException("step " + n + ": " + name + " takes " + count + " argument" + (count == 1 ? "" : "s")
                    + ", as " + name + example + ", given " + args.size());
        }
    }

    private static int position(String a, int n) throws SyntaxException {
        if (a.matches("[0-9]{1,4}")) return Integer.parseInt(a);
        throw new SyntaxException("step " + n + ": '" + a + "' is not a loop position (0, 1, ...)");
    }

    private static ExtentSpec factor(String a, int n) throws SyntaxException {
        if (a.matches("[0-9]{1,13}")) {
            long v = Long.parseLong(a);
            if (v >= 1 && v <= (1L << 40)) return ExtentSpec.size(v);
        } else if (a.matches("[A-Za-z_][A-Za-z0-9_]{0,127}")) {
            return ExtentSpec.symbol(a);
        }
        throw new SyntaxException("step " + n + ": a split factor is a positive integer or a symbol such as D, not '"
                + a + "'");
    }

    private static ParallelType parallel(String a, int n) throws SyntaxException {
        String w = a.startsWith("ParallelType::") ? a.substring("ParallelType::".length()) : a;
        for (ParallelType p : ParallelType.values()) if (p.fileName().equalsIgnoreCase(w)) return p;
        List<String> names = new ArrayList<>();
        for (ParallelType p : ParallelType.values()) names.add(p.fileName());
        throw new SyntaxException("step " + n + ": '" + a + "' is not a parallel type (" + String.join(", ", names) + ")");
    }
}
