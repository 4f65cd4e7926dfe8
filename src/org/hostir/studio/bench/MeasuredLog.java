package org.hostir.studio.bench;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.Collections;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.hostir.studio.diag.Diagnostic;
import org.hostir.studio.diag.Subject;
import org.hostir.studio.engine.EngineFailure;
import org.hostir.studio.file.FileErrors;

/**
 * Where a run of {@code bench agmm} was logged (under docs/data) and the profile fitted to its GPUs. {@code bench
 * sim-check} reads the measured spans from the log itself, their one record: each {@code shape DTYPE M K N
 * (schedules: ...)} block that {@code bench agmm} prints (AgMatmulReport) gives every schedule's longest rank's
 * device span, under the name the bench gives the schedule ({@link SimulationCheck.Schedule#logged()}).
 *
 * @param log the log's path relative to the Studio's home, as the tables print it
 */
public record MeasuredLog(int devices, String defaultProfile, String log) {
    private static final String RULE = "bench.log", WHERE = "sim-check";
    private static final Pattern DEVICES = Pattern.compile("devices: ([0-9]+) x .*");
    private static final Pattern SHAPE = Pattern.compile("shape (\\S+) ([0-9]+) ([0-9]+) ([0-9]+) \\(schedules:.*");
    private static final Pattern SPAN = Pattern.compile("  (\\S.*?) +([0-9]+\\.[0-9]+) ms(?: .*)?");

    /**
     * The spans of every shape the log holds, each in {@link SimulationCheck#SCHEDULES}' order. A log that is
     * missing, of another device count, without a shape block, or whose block lacks a schedule (or has it twice)
     * is refused in one line at the place ({@code bench.log}).
     */
    public SimulationCheck.Measured read(Path home) throws EngineFailure {
        List<String> lines;
        try {
            lines = Files.readAllLines(home.resolve(log));
        } catch (NoSuchFileException e) {
            throw refused(0, "no such file: the spans measured on " + devices + " GPUs that sim-check compares with");
        } catch (IOException e) {
            throw refused(0, "cannot read the log: " + FileErrors.reason(e));
        }
        checkDevices(lines);
        Map<SimulationCheck.Shape, double[]> spans = new LinkedHashMap<>();
        for (int i = 0; i < lines.size(); i++) {
            Matcher shape = SHAPE.matcher(lines.get(i));
            if (!shape.matches()) continue;
            SimulationCheck.Shape s = new SimulationCheck.Shape(shape.group(1), Long.parseLong(shape.group(2)),
                    Long.parseLong(shape.group(3)), Long.parseLong(shape.group(4)));
            if (spans.put(s, block(lines, i)) != null) throw refused(i + 1, "shape " + s.label() + " given twice");
        }
        if (spans.isEmpty()) {
            throw refused(0, "no 'shape DTYPE M K N (schedules: ...)' block: not a log of bench agmm");
        }
        return new SimulationCheck.Measured(devices, defaultProfile, log, Collections.unmodifiableMap(spans));
    }

    /** The log's {@code devices: N x GPU} line must name this run's device count. */
    private void checkDevices(List<String> lines) throws EngineFailure {
        for (int i = 0; i < lines.size(); i++) {
            Matcher m = DEVICES.matcher(lines.get(i));
            if (!m.matches()) continue;
            if (m.group(1).equals(Integer.toString(devices))) return;
            throw refused(i + 1, "the log is of " + m.group(1) + " devices, the table of " + devices);
        }
        throw refused(0, "no 'devices: N x GPU' line: not a log of bench agmm");
    }

    /** The spans of the block whose header is line {@code at}: its indented lines up to the next unindented one. */
    private double[] block(List<String> lines, int at) throws EngineFailure {
        Map<String, Double> byName = new HashMap<>();
        for (int i = at + 1; i < lines.size() && lines.get(i).startsWith("  "); i++) {
            Matcher m = SPAN.matcher(lines.get(i));
            if (m.matches() && byName.put(m.group(1), Double.parseDouble(m.group(2))) != null) {
                throw refused(i + 1, "'" + m.group(1) + "' given twice in " + lines.get(at));
            }
        }
        double[] out = new double[SimulationCheck.SCHEDULES.size()];
        for (int k = 0; k < out.length; k++) {
            String name = SimulationCheck.SCHEDULES.get(k).logged();
            Double span = byName.get(name);
            if (span == null) throw refused(at + 1, "no span of schedule '" + name + "' in this shape's block");
            out[k] = span;
        }
        return out;
    }

    private EngineFailure refused(int line, String message) {
        return new EngineFailure(EngineFailure.Kind.BAD_INPUT, List.of(new Diagnostic(log, line, WHERE, RULE, message,
                new Subject.Setting("bench sim-check"))));
    }
}
