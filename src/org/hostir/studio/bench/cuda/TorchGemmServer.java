package org.hostir.studio.bench.cuda;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStreamWriter;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.util.Locale;
import java.util.concurrent.TimeUnit;

import com.google.gson.JsonElement;
import com.google.gson.JsonObject;
import com.google.gson.JsonParser;

/**
 * The PyTorch side of the like-with-like bench: {@code scripts/torch_gemm.py --serve D} kept running, one JSON
 * command a line, one JSON answer a line (the script's docstring lists the commands).
 */
final class TorchGemmServer implements AutoCloseable {
    private final Process process;
    private final Writer in;
    private final BufferedReader answers;

    TorchGemmServer(Process process) {
        this.process = process;
        this.in = new OutputStreamWriter(process.getOutputStream(), StandardCharsets.UTF_8);
        this.answers = new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8));
    }

    JsonObject ask(String command) throws IOException {
        in.write(command + "\n");
        in.flush();
        String line = answers.readLine();
        if (line == null) throw new IOException("the PyTorch side ended (exit " + exitCode() + ") after " + command);
        return JsonParser.parseString(line).getAsJsonObject();
    }

    /** One block: {@code warmup} untimed products, then the idle-GPU and the queued series; {idle, queued} ms. */
    double[] round(int warmup, int iterations, long spinCycles) throws IOException {
        JsonObject r = ask(String.format(Locale.ROOT, "{\"cmd\": \"round\", \"warmup\": %d, \"iters\": %d,"
                + " \"spin\": %d}", warmup, iterations, spinCycles));
        return new double[] {r.get("t_ms").getAsDouble(), r.has("q_ms") ? r.get("q_ms").getAsDouble() : Double.NaN};
    }

    /** The script's answer to {@code cmd} as {@code key=value} pairs on one line (for the log). */
    String describe(String cmd) throws IOException {
        JsonObject r = ask("{\"cmd\": \"" + cmd + "\"}");
        StringBuilder b = new StringBuilder();
        for (var e : r.entrySet()) {
            if (!b.isEmpty()) b.append("; ");
            JsonElement v = e.getValue();
            b.append(e.getKey()).append('=').append(v.isJsonPrimitive() ? v.getAsString() : v.toString());
        }
        return b.toString();
    }

    private String exitCode() {
        try {
            return process.waitFor(5, TimeUnit.SECONDS) ? Integer.toString(process.exitValue()) : "none yet";
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return "unknown";
        }
    }

    @Override
    public void close() throws IOException {
        in.close();
        try {
            if (!process.waitFor(30, TimeUnit.SECONDS)) process.destroy();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            process.destroy();
        }
    }
}
