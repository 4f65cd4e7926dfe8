package org.hostir.studio.tests.reliability;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import org.hostir.studio.tests.RepoPaths;
import org.junit.jupiter.api.Test;

/**
 * The launcher gives the engine's commands a heap that is a share of the memory (the JVM's default quarter ran a
 * 4,096-rank simulation out of heap), and an {@code -Xmx} in {@code HIRSTUDIO_JAVA_OPTS} replaces it. The options
 * are those {@code ./hirstudio jvm-options} prints, the ones {@code run} and every engine command start with; a JVM
 * started with them says which heap it got.
 */
class EngineHeapTest {
    @Test
    void theEngineGetsThreeQuartersOfTheMemory() throws Exception {
        long memory = ((com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean())
                .getTotalMemorySize();
        long heap = maxHeap(null);
        assertTrue(heap >= memory * 70 / 100 && heap <= memory * 76 / 100, heap + " of " + memory + " bytes");
    }

    @Test
    void anXmxInTheJavaOptionsWins() throws Exception {
        assertEquals(300L << 20, maxHeap("-Xmx300m"));
        assertEquals(300L << 20, maxHeap("-Dsome.property=1 -Xmx300m"));
    }

    /** The MaxHeapSize of a JVM started with the launcher's options, given {@code javaOpts} (null: unset). */
    private static long maxHeap(String javaOpts) throws IOException, InterruptedException {
        List<String> command = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java")
                .toString()));
        command.addAll(run(javaOpts, "bash", RepoPaths.repo().resolve("hirstudio").toString(), "jvm-options"));
        command.addAll(List.of("-XX:+PrintFlagsFinal", "-version"));
        for (String line : run(null, command.toArray(String[]::new))) {
            String[] words = line.trim().split("\\s+");
            if (words.length >= 4 && words[1].equals("MaxHeapSize")) return Long.parseLong(words[3]);
        }
        throw new AssertionError("no MaxHeapSize from " + command);
    }

    private static List<String> run(String javaOpts, String... command) throws IOException, InterruptedException {
        ProcessBuilder b = new ProcessBuilder(command).redirectErrorStream(true);
        b.environment().remove("HIRSTUDIO_JAVA_OPTS");
        if (javaOpts != null) b.environment().put("HIRSTUDIO_JAVA_OPTS", javaOpts);
        Process p = b.start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(p.waitFor(60, TimeUnit.SECONDS), "ends: " + List.of(command));
        assertEquals(0, p.exitValue(), List.of(command) + ": " + out);
        return out.lines().toList();
    }
}
