package org.hostir.studio.ir.parse;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.EnumMap;
import java.util.EnumSet;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.hostir.studio.ir.NvFuserGeneration;
import org.hostir.studio.ir.TensorView;
import org.hostir.studio.ir.host.HostIrContainer;
import org.hostir.studio.ir.host.HostNode;
import org.hostir.studio.ir.host.HostUnit;
import org.hostir.studio.ir.host.OpaqueNode;

/**
 * Reads one {@code %HostIrContainer { .. } // %HostIrContainer} of an {@code NVFUSER_DUMP=host_ir} dump into the
 * tree {@code HostIrPrinter} prints, so that printing it (in the dump's {@link NvFuserGeneration}) gives the dump back,
 * whitespace aside. Node ids the dump prints (Communication, P2PCommunication, EndCoalescing, Wait's target) are
 * kept; other nodes get fresh ids past them. A statement it cannot read becomes an {@link OpaqueNode} running to
 * the next statement it can, with a warning.
 */
public final class HostIrDumpReader {
    /** How deep FOR and IF bodies may nest in a dump read ({@code dump.limit}); nvFuser's programs nest 1 or 2. */
    public static final int MAX_NESTING = 100;
    static final String OPEN = "%HostIrContainer";
    private static final Pattern OPENING = Pattern.compile("%HostIrContainer\\s*\\{");
    private static final String CUT_OFF =
            "%HostIrContainer is never closed: read to the end of the text (a cut-off dump?)";
    private static final Pattern CLOSE = Pattern.compile("\\}\\s*//\\s*%HostIrContainer");
    private static final Pattern LOOP_INDEX = Pattern.compile("FOR\\s+(\\S+)\\s+(?:in|from)\\s");
    private static final Pattern PRINTED_ID =
            Pattern.compile("(?:Communication|EndCoalescing|Dispatch|Combine)\\s+(\\d{1,9})");

    private final String text;
    private final LineIndex lines;
    private final int closeStart;
    private final DumpCursor in;
    private final ReadState state;
    private final StatementReader statements;
    private boolean layoutKept;

    private HostIrDumpReader(String text, LineIndex lines, int start, int closeStart, boolean selectIsFusionOp,
                             boolean cutOff) {
        this.text = text;
        this.lines = lines;
        this.closeStart = closeStart;
        this.in = new DumpCursor(text, start, closeStart);
        String body = text.substring(start, closeStart);
        Set<String> indices = new HashSet<>();
        for (Matcher m = LOOP_INDEX.matcher(body); m.find(); ) indices.add(m.group(1));
        int maxId = -1;
        for (Matcher m = PRINTED_ID.matcher(body); m.find(); ) maxId = Math.max(maxId, Integer.parseInt(m.group(1)));
        this.state = new ReadState(indices, maxId + 1, selectIsFusionOp);
        this.statements = new StatementReader(in, state);
        if (cutOff) warn(start, CUT_OFF);
    }

    /** The first container in {@code text}. */
    public static ParsedDump read(String text) {
        int start = nextOpen(text, 0);
        if (start < 0) throw new DumpFormatException("no %HostIrContainer in the text", 0);
        return read(text, start);
    }

    /** The container that opens at {@code start} ({@code %HostIrContainer}). */
    public static ParsedDump read(String text, int start) { return read(text, start, LineIndex.of(text)); }

    static ParsedDump read(String text, int start, LineIndex lines) {
        if (!text.startsWith(OPEN, start)) throw new DumpFormatException("expected %HostIrContainer", start);
        Matcher close = CLOSE.matcher(text);
        boolean closed = close.find(start);
        int nested = nextOpen(text, start + OPEN.length());
        if (!closed && nested >= 0 || closed && nested >= 0 && nested < close.start()) {
            throw new DumpFormatException("%HostIrContainer is not closed before the next one opens", start);
        }
        // a dump cut off at the end of a log or of a quote (a PR description, a truncated paste) is read to the end
        // of the text with a warning: what it holds is still worth showing (issue 33: never refuse the whole program)
        int closeStart = closed ? close.start() : text.length();
        int end = closed ? close.end() : text.length();
        HostIrDumpReader first = new HostIrDumpReader(text, lines, start, closeStart, false, !closed);
        ParsedDump read = first.container(end);
        if (!first.state.spellings.containsKey(TensorStatements.SELECT)
                || read.generation().selectName().equals(TensorStatements.SELECT)) {
            return read;
        }
        // HirAliasSelect printed "select" before 2025 (ir.NvFuserGeneration); in a later program "select( .. )" is
        // a fusion's SelectOp (csrc/ir/internal_nodes.cpp:168-177), which the Studio does not model: read again
        return new HostIrDumpReader(text, lines, start, closeStart, true, !closed).container(end);
    }

    /** Where the next container opens ({@code %HostIrContainer {}), from {@code from} on; -1 if none does. */
    static int nextOpen(String text, int from) {
        Matcher m = OPENING.matcher(text);
        return m.find(from) ? m.start() : -1;
    }

    /** The offset just past the close of the container opening at {@code start}; the text's end when it is not closed. */
    static int containerEnd(String text, int start) {
        Matcher close = CLOSE.matcher(text);
        return close.find(start) ? close.end() : text.length();
    }

    /** The 1-based line of a character offset. */
    public static int lineOf(String text, int offset) { return LineIndex.of(text).lineOf(offset); }

    private ParsedDump container(int end) {
        int start = in.pos();
        in.expect(OPEN);
        in.expect("{");
        Signature signature = signature(start);
        List<TensorView> inputs = signature.inputs();
        List<TensorView> outputs = signature.outputs();
        layoutKept = text.substring(in.pos(), closeStart).contains("\n");
        List<Statement> body = new ArrayList<>();
        Map<Integer, HostUnit> units = new TreeMap<>();
        readBody(body, units);
        if (!layoutKept && body.stream().anyMatch(s -> s.node() != null && !s.node().bodies().isEmpty())) {
            warn(start, "the dump lost its line breaks: loop and branch bodies were inferred from nvFuser's "
                    + "stream-lowering shape");
        }
        List<HostNode> top = Units.resolve(Nesting.build(body, layoutKept), units, this::warnMissingUnit);
        HostIrContainer program = new HostIrContainer(inputs, outputs, top, List.copyOf(units.values()),
                List.copyOf(state.symbols.values()), state.counters(), Map.of());
        NvFuserGeneration generation = generation(start);
        if (generation == NvFuserGeneration.EARLY_2024) {
            warn(start, "the dump prints no dtypes (nvFuser before #2889): its tensors are read as float");
        }
        IndexDefinitions.Block indices = IndexDefinitions.read(text, end);
        for (String kept : indices.keptAsText()) {
            warn(end, "index definition kept as text: " + kept);
        }
        int last = indices.indices().isEmpty() ? end : indices.end();
        return new ParsedDump(program, generation, state.warnings, lines.lineOf(start), lines.lineOf(last - 1),
                layoutKept, indices.indices(), signature.keptAsText());
    }

    /** The container's inputs and outputs, or, when they cannot be read, their text (null when read). */
    private record Signature(List<TensorView> inputs, List<TensorView> outputs, String keptAsText) {}

    /**
     * {@code (T0_g_float[..], ..) -> (T2_g_float[..]) :}. A signature the reader cannot read (a dtype, parallel type
     * or axis spelling of a newer nvFuser) does not refuse the program: it is kept as text with a warning, the
     * program read with no inputs and outputs, and printed back with the text ({@link ParsedDump#reprint}).
     */
    private Signature signature(int start) {
        int from = in.pos();
        ReadState.Mark mark = state.mark();
        try {
            in.expect("(");
            List<TensorView> inputs = statements.values().separated(')');
            in.expect("->");
            in.expect("(");
            List<TensorView> outputs = statements.values().separated(')');
            in.expect(":");
            return new Signature(inputs, outputs, null);
        } catch (DumpFormatException | IllegalArgumentException e) {
            int end = signatureEnd(from);
            if (end < 0) throw e;
            state.reset(mark);
            in.moveTo(end);
            String kept = text.substring(from, end).strip();
            warn(start, "the signature kept as text (" + e.getMessage() + "): the program is read without its "
                    + "inputs and outputs");
            return new Signature(List.of(), List.of(), kept);
        }
    }

    /** Where a signature ends: past the {@code :} that closes the container's first line, or -1 when none does. */
    private int signatureEnd(int from) {
        int lineEnd = text.indexOf('\n', from);
        if (lineEnd < 0 || lineEnd > closeStart) return -1;
        String line = text.substring(from, lineEnd).stripTrailing();
        return line.endsWith(") :") || line.endsWith("):") ? from + line.length() : -1;
    }

    private void readBody(List<Statement> body, Map<Integer, HostUnit> units) {
        while (!in.atEnd()) {
            int start = in.pos();
            ReadState.Mark mark = state.mark();
            try {
                Statement s = statements.read(layoutKept);
                endsItsLine(s.end());
                if (s.kind() == Statement.Kind.UNIT) {
                    if (units.put(s.unit().number(), s.unit()) != null) {
                        throw new DumpFormatException("HostUnit" + s.unit().number() + " defined twice", start);
                    }
                } else if (!units.isEmpty()) {
                    throw new DumpFormatException("a statement after the HostUnit definitions", start);
                } else {
                    body.add(s);
                }
            } catch (DumpFormatException | IllegalArgumentException e) {
                // the IR's own checks (a rooted collective without its root) are unreadable statements too
                state.reset(mark);
                body.add(opaque(start, e.getMessage()));
            }
        }
    }

    /** With line breaks kept, a statement ends its line; what follows on it would be a statement we misread. */
    private void endsItsLine(int end) {
        if (!layoutKept) return;
        int lineEnd = text.indexOf('\n', end);
        String rest = text.substring(end, lineEnd < 0 || lineEnd > closeStart ? closeStart : lineEnd);
        if (!rest.isBlank()) throw new DumpFormatException("unexpected '" + rest.strip() + "'", end);
    }

    private Statement opaque(int start, String reason) {
        int end = opaqueEnd(start);
        List<String> lines = text.substring(start, end).lines().map(String::strip).filter(l -> !l.isEmpty())
                .toList();
        String first = lines.get(0);
        // the statement's first line, shortened: a hostile one can be a megabyte long
        warn(start, "kept as text (" + reason + "): "
                + (first.length() > 160 ? first.substring(0, 160) + "..." : first));
        in.moveTo(end);
        int column = layoutKept ? column(start) : -1;
        return new Statement(Statement.Kind.NODE, new OpaqueNode(state.freshNodeId(), lines, reason), null, start,
                end, column);
    }

    /**
     * Where the next statement begins: one the reader can read, or, with line breaks kept, a line no deeper than
     * this one that opens with a word or tensor (continuation lines open with {@code =}, an operator or deeper).
     */
    private int opaqueEnd(int start) {
        boolean unit = text.startsWith("HostUnit", start);
        int column = column(start);
        int p = start;
        while (true) {
            int from = p;
            p = layoutKept ? nextLineStart(p) : nextWordStart(p);
            if (p >= closeStart) return closeStart;
            if (layoutKept && endsWithComma(from, p) && !readsAt(p)) continue;
            if (unit ? text.startsWith("HostUnit", p) : readsAt(p) || opensStatement(p, column)) return p;
        }
    }

    /**
     * Whether the line ending before {@code next} ends with a comma: a statement whose outputs are listed one a line
     * (SdpaFwdOp, SdpaBwdOp, EmbeddingFwdOp::toString, csrc/ir/composite_nodes.cpp:235-240, 520-524, 669-671 at
     * 81c4b22fd) goes on, though its next line opens with a tensor at the statement's column.
     */
    private boolean endsWithComma(int from, int next) {
        int lineEnd = text.lastIndexOf('\n', next - 1);
        return lineEnd > from && text.substring(from, lineEnd).stripTrailing().endsWith(",");
    }

    private boolean opensStatement(int p, int column) {
        return layoutKept && column(p) <= column && Character.isLetter(text.charAt(p));
    }

    private int column(int offset) { return offset - (text.lastIndexOf('\n', offset - 1) + 1); }

    private int nextLineStart(int p) {
        int nl = text.indexOf('\n', p);
        if (nl < 0 || nl >= closeStart) return closeStart;
        int q = nl + 1;
        while (q < closeStart && (text.charAt(q) == ' ' || text.charAt(q) == '\t')) q++;
        return q;
    }

    private int nextWordStart(int p) {
        int q = p;
        while (q < closeStart && !Character.isWhitespace(text.charAt(q))) q++;
        while (q < closeStart && Character.isWhitespace(text.charAt(q))) q++;
        return q;
    }

    private boolean readsAt(int p) {
        ReadState.Mark mark = state.mark();
        int saved = in.pos();
        in.moveTo(p);
        try {
            endsItsLine(statements.read(layoutKept).end());
            return true;
        } catch (DumpFormatException | IllegalArgumentException e) {
            return false;
        } finally {
            state.reset(mark);
            in.moveTo(saved);
        }
    }

    /**
     * The generation every spelling seen agrees on, preferring the seeds' 2025-06 where several do (they print
     * alike then); when the spellings disagree, the one most of them tell, with a warning.
     */
    private NvFuserGeneration generation(int start) {
        Set<NvFuserGeneration> agreed = EnumSet.allOf(NvFuserGeneration.class);
        Map<NvFuserGeneration, Integer> votes = new EnumMap<>(NvFuserGeneration.class);
        for (Set<NvFuserGeneration> gs : state.spellings.values()) {
            agreed.retainAll(gs);
            gs.forEach(g -> votes.merge(g, 1, Integer::sum));
        }
        for (NvFuserGeneration g : PREFERENCE) if (agreed.contains(g)) return g;
        NvFuserGeneration most = PREFERENCE.stream().max(Comparator.comparingInt(g -> votes.getOrDefault(g, 0)))
                .orElseThrow();
        List<String> others = state.spellings.entrySet().stream().filter(e -> !e.getValue().contains(most))
                .map(Map.Entry::getKey).toList();
        List<String> own = state.spellings.entrySet().stream().filter(e -> e.getValue().contains(most))
                .map(Map.Entry::getKey).toList();
        warn(start, "the dump mixes spellings of nvFuser " + most.label() + " " + some(own) + " with others "
                + some(others) + "; it prints back in " + most.label() + "'s");
        return most;
    }

    /** Where spellings allow several generations: the seeds' first (they print alike), then main's. */
    private static final List<NvFuserGeneration> PREFERENCE = List.of(NvFuserGeneration.V2025_06,
            NvFuserGeneration.V2026_04, NvFuserGeneration.EARLY_2025, NvFuserGeneration.EARLY_2024);

    /** A few of a list's spellings (a dump of thousands of loops has thousands of loop indices). */
    private static String some(List<String> spellings) {
        List<String> first = spellings.stream().limit(4).toList();
        return first + (spellings.size() > first.size() ? " and " + (spellings.size() - first.size()) + " more" : "");
    }

    private void warnMissingUnit(int number) {
        warn(closeStart, "HostUnit" + number + " is posted but never defined: shown without its fusion");
    }

    private void warn(int offset, String message) {
        // a cut-off dump's end is the text's end, past its last line break: the warning goes on its last line
        state.warnings.add(new DumpWarning(lines.lineOf(Math.min(offset, Math.max(0, text.length() - 1))), message));
    }
}
