package org.hostir.studio.exec.tensor;

/**
 * The error function in double (Java has none): the series for |x| < 2.5 and the continued fraction of erfc
 * beyond, each accurate to about 1e-15, well below float32's resolution.
 */
final class Erf {
    private Erf() {}

    static double erf(double x) {
        if (Double.isNaN(x)) return x;
        double a = Math.abs(x);
        double r = a < 2.5 ? series(a) : 1 - erfcFraction(a);
        return Math.copySign(r, x);
    }

    /** erf(x) = 2/sqrt(pi) * sum_n (-1)^n x^(2n+1) / (n! (2n+1)). */
    private static double series(double x) {
        double term = x;
        double sum = x;
        double x2 = x * x;
        for (int n = 1; n < 200; n++) {
            term *= -x2 / n;
            double add = term / (2 * n + 1);
            sum += add;
            if (Math.abs(add) < 1e-17 * Math.abs(sum)) break;
        }
        return 2 / Math.sqrt(Math.PI) * sum;
    }

    /** erfc(x) for x >= 2.5 by Lentz's evaluation of the continued fraction. */
    private static double erfcFraction(double x) {
        if (x > 27) return 0;
        double tiny = 1e-300;
        double f = x;
        double c = x;
        double d = 0;
        for (int n = 1; n < 500; n++) {
            double an = n / 2.0;
            d = x + an * d;
            d = Math.abs(d) < tiny ? tiny : d;
            c = x + an / c;
            c = Math.abs(c) < tiny ? tiny : c;
            d = 1 / d;
            double delta = c * d;
            f *= delta;
            if (Math.abs(delta - 1) < 1e-16) break;
        }
        return Math.exp(-x * x) / (f * Math.sqrt(Math.PI));
    }
}
