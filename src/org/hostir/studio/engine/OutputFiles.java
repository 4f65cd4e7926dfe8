package org.hostir.studio.engine;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.function.Predicate;

import org.hostir.studio.diag.Diagnostic;
import org.hostir.studio.diag.Subject;
import org.hostir.studio.file.AtomicFiles;

/**
 * The output policy of every command that writes files ({@code run}, {@code demo}, {@code calibrate},
 * {@code bench agmm --diagnose}): the files a command reads and the files it will write, all named before anything
 * is written, then {@link #check}ed at once. An output is refused when it is one of the inputs (the fusion, a
 * profile: real paths compared, so a link, {@code ./} or {@code x/../} does not hide it; not even {@code --force}
 * allows that), when two outputs share a path, when it is read-only (even with {@code --force}), when it names no
 * file (empty, a folder, a device or FIFO, a folder the user cannot write in), or when it exists and is not a file
 * this tool wrote (the caller recognises its own by content) unless {@code --force}. The writing itself is
 * {@link AtomicFiles#write}.
 *
 * @param file   the file diagnostics begin with: the fusion as the user named it, or the command
 * @param reads  what the command reads
 * @param writes what it will write, in the order it reports them
 */
public record OutputFiles(String file, List<Input> reads, List<Output> writes) {
    /** The rule id of every refusal here. */
    public static final String RULE = "run.output";

    /**
     * A file the command reads, or with {@code folder} every file under a folder it reads from.
     *
     * @param what what it is, for the message ({@code "the fusion file being run"})
     */
    public record Input(Path path, String what, boolean folder) {}

    /**
     * A file the command writes ({@code folder}: a folder it writes files into).
     *
     * @param flag the flag that names it, the "where" of a refusal
     * @param what what this tool writes there ({@code "a trace"})
     * @param ours whether an existing file is one this tool wrote (then it may be replaced without --force)
     */
    public record Output(String flag, Path path, String what, Predicate<Path> ours, boolean folder) {}

    /** For an output this tool cannot recognise as its own: an existing file needs --force. */
    public static final Predicate<Path> NEVER_OURS = p -> false;

    public OutputFiles {
        reads = List.copyOf(reads);
        writes = List.copyOf(writes);
    }

    /** A command that reads and writes nothing yet; {@code file} begins its diagnostics. */
    public static OutputFiles of(String file) { return new OutputFiles(file, List.of(), List.of()); }

    public OutputFiles reads(Path path, String what) { return withRead(new Input(path, what, false)); }

    /** Every existing file under {@code folder} is read (the examples a benchmark loads). */
    public OutputFiles readsUnder(Path folder, String what) { return withRead(new Input(folder, what, true)); }

    public OutputFiles writes(String flag, Path path, String what, Predicate<Path> ours) {
        return withWrite(new Output(flag, path, what, ours, false));
    }

    /** {@code folder} is a folder the command writes files into (each file of it named with {@link #writes}). */
    public OutputFiles writesInto(String flag, Path folder, String what) {
        return withWrite(new Output(flag, folder, what, NEVER_OURS, true));
    }

    /** Refuses the first output that breaks the policy (see the class comment), before anything runs. */
    public void check(boolean force) throws EngineFailure {
        for (int i = 0; i < writes.size(); i++) {
            Output o = writes.get(i);
            Optional<String> problem = input(o);
            if (problem.isEmpty()) problem = o.folder() ? OutputChecks.folder(o.path()) : OutputChecks.file(o.path());
            if (problem.isEmpty()) problem = shared(o, writes.subList(0, i));
            if (problem.isEmpty() && !o.folder()) problem = OutputChecks.replaceable(o, force);
            if (problem.isPresent()) throw refusal(o.flag(), problem.get());
        }
    }

    /** The input that {@code o} would overwrite, if any. */
    private Optional<String> input(Output o) {
        String name = OutputChecks.quoted(o.path());
        for (Input in : reads) {
            boolean hit = in.folder() ? !o.folder() && Files.isRegularFile(o.path()) && OutputChecks.under(o.path(),
                    in.path()) : OutputChecks.sameFile(o.path(), in.path());
            if (!hit) continue;
            if (in.folder()) return Optional.of(name + " is one of " + in.what() + "; writing there would destroy it");
            return Optional.of(name + " is " + in.what() + (o.folder() ? "; name a folder"
                    : "; writing " + o.what() + " there would destroy it"));
        }
        return Optional.empty();
    }

    /** An earlier output on the same path (or the folder another output writes into). */
    private static Optional<String> shared(Output o, List<Output> earlier) {
        for (Output e : earlier) {
            if (!OutputChecks.sameFile(o.path(), e.path())) continue;
            return Optional.of(OutputChecks.quoted(o.path()) + " is also " + (e.folder() ? "the folder " + e.flag() + " writes into"
                    : "where " + e.flag() + " writes " + e.what()) + "; two outputs of one run cannot share a path");
        }
        return Optional.empty();
    }

    private EngineFailure refusal(String flag, String message) {
        return new EngineFailure(EngineFailure.Kind.BAD_INPUT, List.of(new Diagnostic(file, 0, flag, RULE, message,
                new Subject.Setting(flag))));
    }

    private OutputFiles withRead(Input in) {
        List<Input> all = new ArrayList<>(reads);
        all.add(in);
        return new OutputFiles(file, all, writes);
    }

    private OutputFiles withWrite(Output out) {
        List<Output> all = new ArrayList<>(writes);
        all.add(out);
        return new OutputFiles(file, reads, all);
    }
}
