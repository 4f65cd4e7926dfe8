package org.hostir.studio.exec.sim;

import java.util.Arrays;
import java.util.Locale;

/**
 * How the simulator assigns tokens to experts, since it holds no router data (docs/simulation.md, "Mixture of
 * experts"): every expert alike, a Zipf law over the experts' popularity ranks (expert of rank i gets a share
 * proportional to {@code 1 / i^s}; s = 0 is uniform), or a measured histogram of per-expert token counts (written
 * by a CPU or CUDA run, {@code run --write-routing FILE}). Spelled {@code uniform}, {@code zipf:S} and
 * {@code histogram:FILE} on the command line; the file is read above {@code exec} and handed over as counts.
 */
public sealed interface Routing {
    /** The {@code --routing} values, for usage texts and one-line refusals. */
    String SPELLINGS = "uniform, zipf:S (S >= 0) or histogram:FILE";

    /** Each expert's share of the tokens, in expert order, summing to 1. */
    double[] shares(int experts);

    /** As {@code --routing} spells it. */
    String spelling();

    record Uniform() implements Routing {
        @Override
        public double[] shares(int experts) {
            double[] s = new double[experts];
            Arrays.fill(s, 1.0 / experts);
            return s;
        }

        @Override
        public String spelling() { return "uniform"; }
    }

    /** Popularity rank i (from 1) gets {@code i^-s}; which expert holds which rank is the model's seeded choice. */
    record Zipf(double exponent) implements Routing {
        public Zipf {
            if (!(exponent >= 0) || Double.isInfinite(exponent)) {
                throw new IllegalArgumentException("zipf:" + exponent + ": the exponent must be a number >= 0");
            }
        }

        @Override
        public double[] shares(int experts) {
            double[] s = new double[experts];
            double sum = 0;
            for (int i = 0; i < experts; i++) sum += s[i] = Math.pow(i + 1, -exponent);
            for (int i = 0; i < experts; i++) s[i] /= sum;
            return s;
        }

        @Override
        public String spelling() { return String.format(Locale.ROOT, "zipf:%s", exponent); }
    }

    /**
     * Measured per-expert token counts; a run with as many experts uses their proportions as they are (no seeded
     * placement: the histogram says which expert is hot). {@code source}: the file, for messages.
     */
    record Histogram(long[] counts, String source) implements Routing {
        public Histogram {
            counts = counts.clone();
            long total = 0;
            for (long c : counts) {
                if (c < 0) throw new IllegalArgumentException(source + ": a negative count " + c);
                total += c;
            }
            if (counts.length == 0 || total == 0) {
                throw new IllegalArgumentException(source + ": the histogram has no tokens");
            }
        }

        @Override
        public double[] shares(int experts) {
            if (experts != counts.length) {
                throw new IllegalArgumentException(source + " counts " + counts.length + " experts, the program routes"
                        + " to " + experts);
            }
            double total = Arrays.stream(counts).sum();
            return Arrays.stream(counts).mapToDouble(c -> c / total).toArray();
        }

        @Override
        public String spelling() { return "histogram:" + source; }

        @Override
        public long[] counts() { return counts.clone(); }

        @Override
        public boolean equals(Object o) {
            return o instanceof Histogram h && Arrays.equals(counts, h.counts) && source.equals(h.source);
        }

        @Override
        public int hashCode() { return 31 * Arrays.hashCode(counts) + source.hashCode(); }

        @Override
        public String toString() { return spelling(); }
    }

    /**
     * {@code uniform} or {@code zipf:S}; {@code histogram:FILE} through {@code histogram}, which reads the file's
     * counts (the caller's, above {@code exec}). A bad spelling is an IllegalArgumentException whose message is
     * the one-line reason.
     */
    static Routing parse(String text, HistogramReader histogram) {
        if (text.equals("uniform")) return new Uniform();
        if (text.startsWith("zipf:")) {
            String s = text.substring("zipf:".length());
            try {
                return new Zipf(Double.parseDouble(s));
            } catch (NumberFormatException e) {
                throw new IllegalArgumentException("'" + text + "': the Zipf exponent '" + s + "' is not a number");
            }
        }
        if (text.startsWith("histogram:") && text.length() > "histogram:".length()) {
            String file = text.substring("histogram:".length());
            return new Histogram(histogram.counts(file), file);
        }
        throw new IllegalArgumentException("'" + text + "' is not a routing: expected " + SPELLINGS);
    }

    /** Reads a histogram file's per-expert counts; an unreadable or malformed file is an IllegalArgumentException. */
    @FunctionalInterface
    interface HistogramReader {
        long[] counts(String file);
    }
}
