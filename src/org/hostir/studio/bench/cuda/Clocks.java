package org.hostir.studio.bench.cuda;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * Each GPU's SM clock, power draw and temperature as {@code nvidia-smi} reports them, for the like-with-like bench's
 * record of the power state around a block ({@link GemmLikeWithLike}): {@code 0: 1980 MHz 412 W 51 C; 1: ...}, or
 * {@code n/a (why)} where nvidia-smi cannot be run. Read between blocks, never inside a timed one.
 */
final class Clocks {
    private Clocks() {}

    static String read() {
        ProcessBuilder pb = new ProcessBuilder("nvidia-smi", "--query-gpu=index,clocks.sm,power.draw,temperature.gpu",
                "--format=csv,noheader,nounits").redirectErrorStream(true);
        try {
            Process p = pb.start();
            String text = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            if (!p.waitFor(10, TimeUnit.SECONDS) || p.exitValue() != 0) return "n/a (nvidia-smi failed)";
            return format(text);
        } catch (IOException e) {
            return "n/a (no nvidia-smi)";
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return "n/a (interrupted)";
        }
    }

    /** {@code index, sm MHz, W, C} lines as one cell. */
    static String format(String csv) {
        List<String> gpus = new ArrayList<>();
        for (String line : csv.strip().split("\n")) {
            String[] f = line.split(",");
            if (f.length != 4) return "n/a (unexpected: " + line.strip() + ")";
            gpus.add(f[0].strip() + ": " + f[1].strip() + " MHz " + f[2].strip() + " W " + f[3].strip() + " C");
        }
        return String.join("; ", gpus);
    }
}
