package org.hostir.studio.cli;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.Set;

import org.hostir.studio.bench.cuda.Calibration;
import org.hostir.studio.diag.TerminalText;
import org.hostir.studio.engine.EngineFailure;
import org.hostir.studio.engine.OutputFiles;
import org.hostir.studio.engine.ProfileFiles;
import org.hostir.studio.exec.cuda.CudaBackend;
import org.hostir.studio.exec.sim.HardwareProfile;
import org.hostir.studio.exec.sim.ProfileJson;
import org.hostir.studio.file.AtomicFiles;
import org.hostir.studio.file.FileErrors;

/**
 * {@code hirstudio calibrate --out FILE.json [--devices N] [--base PROFILE] [--name NAME] [--force]}: measures a
 * simulation profile's constants on this machine's GPUs ({@link Calibration}) and writes the profile, headless, in
 * one command. Without a GPU it says so and exits 2. An existing file is kept unless {@code --force}.
 */
public final class CalibrateCommand implements Command {
    private static final ArgumentParser PARSER = new ArgumentParser(Set.of("--out", "--devices", "--base", "--name",
            "--examples"), Set.of(), Set.of("--force"));

    @Override
    public String name() { return "calibrate"; }

    @Override
    public String usage() {
        return "calibrate --out PROFILE.json [--devices N] [--base NAME|FILE] [--name NAME] [--force]";
    }

    @Override
    public String summary() { return "measure a simulation profile on this machine's GPUs and write it"; }

    @Override
    public int run(List<String> args, PrintStream out, PrintStream err) throws UsageException {
        Arguments a = PARSER.parse(args);
        if (!a.positionals().isEmpty()) throw new UsageException("calibrate takes no file; name the output with --out");
        Path target = Arguments.path("--out", a.value("--out").orElseThrow(
                () -> new UsageException("calibrate needs --out FILE.json")));
        Path examples = examples(a);
        try {
            plan(a, examples, target).check(a.flag("--force"));
        } catch (EngineFailure e) {
            return Failures.report(e, err);
        }
        int gpus = CudaBackend.localDeviceCount();
        int devices = a.value("--devices").isPresent() ? a.devices() : Math.max(1, gpus);
        if (gpus == 0) {
            err.println("error: calibrate: no CUDA device found: calibration measures GPUs (run it on the GPU machine;"
                    + " the built-in profiles need none) [calibrate.gpu]");
            return ExitCode.BAD_INPUT;
        }
        if (gpus < devices) {
            err.println("error: calibrate: --devices " + devices + " but this machine has " + gpus + " GPU"
                    + (gpus == 1 ? "" : "s") + " [calibrate.gpu]");
            return ExitCode.BAD_INPUT;
        }
        HardwareProfile base;
        try {
            base = ProfileFiles.resolve(a.value("--base").orElse(devices == 1 ? "h100x1-measured" : "h200x8-nvlink"),
                    "calibrate --base");
        } catch (EngineFailure e) {
            return Failures.report(e, err);
        }
        return measureAndWrite(a, base, devices, examples, target, out, err);
    }

    /** What calibration reads (a {@code --base} file, the examples it runs) and writes ({@code --out}). */
    private static OutputFiles plan(Arguments a, Path examples, Path target) throws UsageException {
        OutputFiles plan = OutputFiles.of("calibrate").readsUnder(examples, "the examples calibration runs");
        Optional<String> base = a.value("--base").filter(b -> !ProfileJson.BUILT_IN.contains(b));
        if (base.isPresent()) plan = plan.reads(Arguments.path("--base", base.get()), "the base profile (--base)");
        return plan.writes("--out", target, "a profile", OutputFiles.NEVER_OURS);
    }

    private static Path examples(Arguments a) throws UsageException {
        Path home = Path.of(System.getProperty("hirstudio.home", "."));
        return Arguments.path("--examples", a.value("--examples").orElse(home.resolve("examples").toString()));
    }

    private static int measureAndWrite(Arguments a, HardwareProfile base, int devices, Path examples, Path target,
                                       PrintStream out, PrintStream err) {
        String name = a.value("--name").orElse(target.getFileName().toString().replaceFirst("\\.json$", ""));
        HardwareProfile measured;
        try {
            measured = Calibration.run(examples, devices, base, name, out);
        } catch (Exception e) {
            err.println("error: calibrate: the measurement failed: " + TerminalText.escape(e.getMessage())
                    + " [calibrate.run]");
            return ExitCode.FAILED;
        }
        try {
            AtomicFiles.write(target, stream -> stream.write(ProfileJson.write(measured).getBytes(
                    StandardCharsets.UTF_8)));
        } catch (IOException e) {
            err.println("error: calibrate: --out: cannot write " + target + ": " + FileErrors.reason(e)
                    + " [run.output]");
            return ExitCode.FAILED;
        }
        out.println("profile: " + target + " (use it with run --backend sim --profile " + target + ")");
        return ExitCode.OK;
    }
}
