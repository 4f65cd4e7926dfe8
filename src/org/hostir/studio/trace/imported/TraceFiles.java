package org.hostir.studio.trace.imported;

import java.io.BufferedInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.Reader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import java.util.zip.GZIPInputStream;

import org.hostir.studio.trace.ChromeTraceReader;
import org.hostir.studio.trace.ChromeTraceWriter;
import org.hostir.studio.trace.TraceRun;

/**
 * Opens traces of any origin the Studio reads as one run: the Studio's own Chrome traces (and other Chrome
 * traces, as far as they map), PyTorch profiler (Kineto) traces, one file per rank or several ranks merged in one,
 * nvFuser's {@code NVFUSER_TRACE}, and Nsight Systems' SQLite exports (one per rank or one for the run); JSON
 * compressed with gzip too ({@code .json.gz}, as the profiler's handler writes them). A directory stands for its
 * {@code .json}, {@code .json.gz} and {@code .sqlite} files in name order. The files of one run must be of one
 * format.
 */
public final class TraceFiles {
    /** Where a trace came from, recognised from its first kilobytes. */
    public enum Format {
        STUDIO("the Studio's Chrome trace"), KINETO("PyTorch profiler (Kineto) JSON"), NVFUSER("nvFuser's NVFUSER_TRACE"),
        NSIGHT("Nsight Systems SQLite export");

        private final String words;

        Format(String words) {
            this.words = words;
        }

        /** The format's name for people: "Nsight Systems SQLite export". */
        public String words() { return words; }
    }

    /** The run, and what the readers had to work around. */
    public record Opened(TraceRun run, Format format, List<String> notes) {
        public Opened {
            notes = List.copyOf(notes);
        }
    }

    private static final int HEAD = 64 * 1024;
    /** The first bytes of every SQLite database file (sqlite.org/fileformat.html, "The Database Header"). */
    private static final String SQLITE_MAGIC = "SQLite format 3\u0000";

    private TraceFiles() {
    }

    public static Opened open(List<Path> paths) throws IOException {
        List<Path> files = new ArrayList<>();
        for (Path p : paths) files.addAll(expand(p));
        if (files.isEmpty()) throw new IOException(paths.getFirst() + ": no .json, .json.gz or .sqlite trace files in it");
        Format format = null;
        for (Path f : files) {
            Format own = format(head(f));
            if (own != Format.NSIGHT && f.getFileName().toString().endsWith(".sqlite")) {
                throw new IOException(f + ": not an SQLite database (it lacks SQLite's header, 'SQLite format 3')");
            }
            if (format != null && own != format) {
                throw new IOException(f + ": a " + own.name().toLowerCase(Locale.ROOT) + " trace among "
                        + format.name().toLowerCase(Locale.ROOT)
                        + " ones: open the traces of one run together");
            }
            format = own;
        }
        String label = files.size() == 1 ? files.getFirst().toString() : files.size() + " files from " + files.getFirst();
        return switch (format) {
            case STUDIO -> studio(files, label);
            case KINETO -> kineto(files, label);
            case NVFUSER -> nvFuser(files, label);
            case NSIGHT -> nsight(files, label);
        };
    }

    private static Opened studio(List<Path> files, String label) throws IOException {
        if (files.size() != 1) throw new IOException(files.get(1) + ": the Studio's traces hold every rank in one file");
        try (Reader r = reader(files.getFirst())) {
            return new Opened(TraceRun.of(label, ChromeTraceReader.read(r)), Format.STUDIO, List.of());
        } catch (IOException e) {
            throw new IOException(files.getFirst() + ": " + reason(e), e);
        }
    }

    private static final Pattern AT = Pattern.compile("at line (\\d+) column (\\d+)");

    /** A Java class named at the head of a wrapped exception's message ({@code com.google...Exception: }). */
    private static final Pattern JAVA_CLASS = Pattern.compile("(?:[a-z]\\w*\\.)+[A-Z]\\w*(?:Exception|Error): ");

    /**
     * A reader's message without the JSON library's class names and advice to the programmer: where the text stops
     * being JSON.
     */
    static String reason(Exception e) {
        // the JSON path of a deep nesting is as long as the nesting: the line and column say where
        String m = JAVA_CLASS.matcher(String.valueOf(e.getMessage())).replaceAll("").replaceFirst(" path \\$\\S*", "");
        if (!m.contains("setStrictness") && !m.contains("Troubleshooting")) return m;
        Matcher at = AT.matcher(m);
        return "not JSON (malformed at line " + (at.find() ? at.group(1) + " column " + at.group(2) : "?") + ")";
    }

    private static Opened kineto(List<Path> files, String label) throws IOException {
        KinetoReader reader = new KinetoReader();
        each(files, reader::add);
        return new Opened(reader.run(label), Format.KINETO, reader.notes());
    }

    private static Opened nvFuser(List<Path> files, String label) throws IOException {
        NvFuserTraceReader reader = new NvFuserTraceReader();
        each(files, reader::add);
        return new Opened(reader.run(label), Format.NVFUSER, reader.notes());
    }

    private static Opened nsight(List<Path> files, String label) throws IOException {
        NsightReader reader = new NsightReader();
        for (Path f : files) {
            try {
                reader.add(f);
            } catch (IOException e) {
                throw new IOException(f + ": " + e.getMessage(), e);
            }
        }
        return new Opened(reader.run(label), Format.NSIGHT, reader.notes());
    }

    /** How a reader takes one file of a run: its name, its text, its position among the files. */
    private interface PerFile {
        void add(String name, Reader text, int position) throws IOException;
    }

    private static void each(List<Path> files, PerFile reader) throws IOException {
        for (int i = 0; i < files.size(); i++) {
            try (Reader r = reader(files.get(i))) {
                reader.add(files.get(i).toString(), r, i);
            } catch (IOException | IllegalStateException e) {
                throw new IOException(files.get(i) + ": " + reason(e), e);
            }
        }
    }

    /** The format a trace's first kilobytes show. */
    public static Format format(String head) {
        if (head.startsWith(SQLITE_MAGIC)) return Format.NSIGHT;
        if (NvFuserTraceReader.looksLike(head)) return Format.NVFUSER;
        // before Kineto's categories: the Studio's own kernel bars are "cat":"kernel" too, and Kineto's reader
        // keeps only kernels and copies, so a run whose first bar is a kernel lost its matmuls and communications
        if (ChromeTraceWriter.wroteThis(head)) return Format.STUDIO;
        if (head.contains("\"schemaVersion\"") || head.contains("\"deviceProperties\"")
                || head.matches("(?s).*\"cat\"\\s*:\\s*\"(cpu_op|cuda_runtime|kernel|ac2g)\".*")) {
            return Format.KINETO;
        }
        return Format.STUDIO;
    }

    private static List<Path> expand(Path p) throws IOException {
        if (!Files.isDirectory(p)) {
            if (!Files.isRegularFile(p)) throw new IOException(p + ": no such file");
            String name = p.getFileName().toString();
            if (name.endsWith(".nsys-rep") || name.endsWith(".qdrep")) {
                throw new IOException(p + ": an Nsight Systems report, which only nsys reads: export it with"
                        + " `nsys export --type sqlite " + name + "` and open the .sqlite file");
            }
            return List.of(p);
        }
        try (Stream<Path> s = Files.list(p)) {
            return s.filter(f -> Files.isRegularFile(f) && (f.toString().endsWith(".json")
                    || f.toString().endsWith(".json.gz") || f.toString().endsWith(".sqlite")))
                    .sorted().toList();
        }
    }

    private static String head(Path f) throws IOException {
        try (Reader r = reader(f)) {
            char[] buffer = new char[HEAD];
            int n = r.read(buffer);
            return n <= 0 ? "" : new String(buffer, 0, n);
        }
    }

    /** The file's text, through gzip when it starts with gzip's magic bytes. */
    private static Reader reader(Path f) throws IOException {
        InputStream in = new BufferedInputStream(Files.newInputStream(f));
        in.mark(2);
        int a = in.read(), b = in.read();
        in.reset();
        if (a == 0x1f && b == 0x8b) in = new GZIPInputStream(in);
        return new InputStreamReader(in, StandardCharsets.UTF_8);
    }
}
