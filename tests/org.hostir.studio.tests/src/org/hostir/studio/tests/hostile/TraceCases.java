package org.hostir.studio.tests.hostile;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * Hostile trace files for {@code trace FILE}, {@code trace diff A B} and {@code trace diff A B --fusion F} (issue 36's
 * importers): every hostile text of
 * {@link HostileText} in an event's name, a thread's and a process's name and an argument (kept, escaped on the
 * terminal), and broken files (truncated, not JSON, wrong types, times out of range, deep nesting, garbage in a
 * {@code .gz}). A name is accepted; a broken file may be read or refused, by a rule naming the file, never with an
 * internal error or raw bytes.
 */
final class TraceCases {
    private TraceCases() {}

    static final String TRACE = "in.json";

    /** A Chrome trace (Kineto's layout) with the four places a profiler writes names into marked. */
    private static final String TEMPLATE = """
            {"traceEvents": [
              {"ph": "M", "name": "process_name", "pid": 0, "args": {"name": "%2$s"}},
              {"ph": "M", "name": "thread_name", "pid": 0, "tid": 7, "args": {"name": "%3$s"}},
              {"ph": "X", "cat": "kernel", "name": "%1$s", "pid": 0, "tid": 7, "ts": 10, "dur": 5,
               "args": {"correlation": 1, "note": "%4$s"}},
              {"ph": "X", "cat": "kernel", "name": "gemm", "pid": 0, "tid": 7, "ts": 20, "dur": 8}
            ]}
            """;

    /** The name an Nsight Systems SQLite export is read by (issue 36). */
    static final String NSIGHT = "in.sqlite";

    private record Variant(String label, Expect expect, byte[] bytes) {}

    static List<HostileCase> all() {
        List<HostileCase> cases = new ArrayList<>();
        for (Variant v : variants()) {
            cases.add(traceCase(v, dir -> List.of("trace", dir.resolve(TRACE).toString())));
            cases.add(traceCase(v, dir -> List.of("trace", "diff", dir.resolve(TRACE).toString(),
                    dir.resolve(Layout.OURS).toString())));
            // aligned by the Host IR nodes of a fusion's program (issue 36): the same refusals, no other
            cases.add(traceCase(v, dir -> List.of("trace", "diff", dir.resolve(TRACE).toString(),
                    dir.resolve(Layout.OURS).toString(), "--fusion", dir.resolve(Fixtures.FUSION).toString())));
        }
        // an .sqlite is opened by the SQLite driver: its failures must read as the others do
        for (Variant v : List.of(new Variant("empty", Expect.EITHER, new byte[0]),
                new Variant("garbage", Expect.EITHER, Bytes.utf8("hello\nworld\n")),
                new Variant("a JSON trace", Expect.EITHER, trace("gemm", "p", "t", "x")),
                new Variant("an SQLite header, then nothing", Expect.EITHER, Bytes.utf8("SQLite format 3\u0000")),
                new Variant("an SQLite header, then garbage", Expect.EITHER,
                        Bytes.utf8("SQLite format 3\u0000" + "\u0010\u0000\u0001\u0001".repeat(64))))) {
            cases.add(HostileCase.of("traces", "nsight: " + v.label(), v.expect(), dir -> {
                Layout.standard(dir);
                Fixtures.write(dir, NSIGHT, v.bytes());
            }, dir -> List.of("trace", dir.resolve(NSIGHT).toString()))
                    .naming(dir -> List.of(dir.resolve(NSIGHT).toString())).withRule());
        }
        return cases;
    }

    private static List<Variant> variants() {
        List<Variant> out = new ArrayList<>();
        out.add(new Variant("a plain trace (control)", Expect.ACCEPT, trace("gemm", "rank 0", "stream 7", "x")));
        for (HostileText t : HostileText.ALL) {
            String body = Fixtures.escaped(t.text());
            out.add(new Variant("kernel name: " + t.label(), Expect.ACCEPT, trace(body, "p", "t", "x")));
            out.add(new Variant("process and thread names: " + t.label(), Expect.ACCEPT, trace("k", body, body, "x")));
            out.add(new Variant("argument: " + t.label(), Expect.ACCEPT, trace("k", "p", "t", body)));
        }
        String plain = new String(trace("gemm", "p", "t", "x"), StandardCharsets.UTF_8);
        out.add(new Variant("truncated", Expect.EITHER, Bytes.utf8(plain.substring(0, plain.length() / 2))));
        out.add(new Variant("empty", Expect.EITHER, new byte[0]));
        out.add(new Variant("not JSON", Expect.EITHER, Bytes.utf8("hello\nworld\n")));
        out.add(new Variant("traceEvents a string", Expect.EITHER, Bytes.utf8("{\"traceEvents\": \"x\"}")));
        out.add(new Variant("a time that is a string", Expect.EITHER, Bytes.utf8(plain.replace("\"ts\": 10",
                "\"ts\": \"10\""))));
        out.add(new Variant("a negative duration", Expect.EITHER, Bytes.utf8(plain.replace("\"dur\": 5",
                "\"dur\": -5"))));
        out.add(new Variant("a time of 1e308", Expect.EITHER, Bytes.utf8(plain.replace("\"ts\": 10", "\"ts\": 1e308"))));
        out.add(new Variant("NaN as a time", Expect.EITHER, Bytes.utf8(plain.replace("\"ts\": 10", "\"ts\": NaN"))));
        out.add(new Variant("10,000 nested arrays", Expect.EITHER, Bytes.utf8("{\"traceEvents\": ["
                + "[".repeat(10_000) + "]".repeat(10_000) + "]}")));
        out.add(new Variant("a byte 0xff in a name", Expect.EITHER, Bytes.insert(plain, "\"gemm", Bytes.of(0xff))));
        out.add(new Variant("ESC raw in a name", Expect.EITHER, Bytes.insert(plain, "\"gemm", Bytes.of(0x1b, '[', '2', 'J'))));
        return out;
    }

    private static byte[] trace(String kernel, String process, String thread, String argument) {
        return Bytes.utf8(TEMPLATE.formatted(kernel, process, thread, argument));
    }

    private static HostileCase traceCase(Variant v, HostileCase.Args args) {
        return HostileCase.of("traces", v.label(), v.expect(), dir -> {
            Layout.standard(dir);
            Fixtures.write(dir, TRACE, v.bytes());
        }, args).naming(dir -> List.of(dir.resolve(TRACE).toString())).withRule();
    }
}
