package org.hostir.studio.tests.trace;

/**
 * The CIEDE2000 colour difference of two sRGB colours (D65 white): about 2 is just noticeable, 10 to 20 reads as
 * "similar", above 20 as another colour. From the formulas of Sharma, Wu and Dalal (2005), written for these tests.
 */
final class Ciede2000 {
    private Ciede2000() {}

    /** {@code {L, a, b}} of an sRGB colour {@code {r, g, b}} (0..255). */
    static double[] lab(int[] rgb) {
        double[] lin = new double[3];
        for (int i = 0; i < 3; i++) {
            double c = rgb[i] / 255.0;
            lin[i] = c <= 0.04045 ? c / 12.92 : Math.pow((c + 0.055) / 1.055, 2.4);
        }
        double x = (0.4124 * lin[0] + 0.3576 * lin[1] + 0.1805 * lin[2]) / 0.95047;
        double y = 0.2126 * lin[0] + 0.7152 * lin[1] + 0.0722 * lin[2];
        double z = (0.0193 * lin[0] + 0.1192 * lin[1] + 0.9505 * lin[2]) / 1.08883;
        double fx = f(x), fy = f(y), fz = f(z);
        return new double[] {116 * fy - 16, 500 * (fx - fy), 200 * (fy - fz)};
    }

    private static double f(double t) {
        return t > 216.0 / 24389 ? Math.cbrt(t) : (24389.0 / 27 * t + 16) / 116;
    }

    /** ΔE00 between two sRGB colours. */
    static double distance(int[] rgb1, int[] rgb2) { return distance(lab(rgb1), lab(rgb2)); }

    /** ΔE00 between two CIELAB colours {@code {L, a, b}}. */
    static double distance(double[] p, double[] q) {
        double cBar = (Math.hypot(p[1], p[2]) + Math.hypot(q[1], q[2])) / 2;
        double g = 0.5 * (1 - Math.sqrt(Math.pow(cBar, 7) / (Math.pow(cBar, 7) + Math.pow(25, 7))));
        double a1 = (1 + g) * p[1], a2 = (1 + g) * q[1];
        double c1 = Math.hypot(a1, p[2]), c2 = Math.hypot(a2, q[2]);
        double h1 = hue(a1, p[2]), h2 = hue(a2, q[2]);
        double dh = c1 * c2 == 0 ? 0 : h2 - h1 > 180 ? h2 - h1 - 360 : h2 - h1 < -180 ? h2 - h1 + 360 : h2 - h1;
        double dL = q[0] - p[0], dC = c2 - c1;
        double dH = 2 * Math.sqrt(c1 * c2) * Math.sin(Math.toRadians(dh / 2));
        double lBar = (p[0] + q[0]) / 2, cBarP = (c1 + c2) / 2;
        double hBar = c1 * c2 == 0 ? h1 + h2 : Math.abs(h1 - h2) <= 180 ? (h1 + h2) / 2
                : h1 + h2 < 360 ? (h1 + h2 + 360) / 2 : (h1 + h2 - 360) / 2;
        double t = 1 - 0.17 * cos(hBar - 30) + 0.24 * cos(2 * hBar) + 0.32 * cos(3 * hBar + 6) - 0.20 * cos(4 * hBar - 63);
        double dTheta = 30 * Math.exp(-Math.pow((hBar - 275) / 25, 2));
        double rC = 2 * Math.sqrt(Math.pow(cBarP, 7) / (Math.pow(cBarP, 7) + Math.pow(25, 7)));
        double sL = 1 + 0.015 * Math.pow(lBar - 50, 2) / Math.sqrt(20 + Math.pow(lBar - 50, 2));
        double sC = 1 + 0.045 * cBarP, sH = 1 + 0.015 * cBarP * t;
        double rT = -Math.sin(Math.toRadians(2 * dTheta)) * rC;
        return Math.sqrt(Math.pow(dL / sL, 2) + Math.pow(dC / sC, 2) + Math.pow(dH / sH, 2) + rT * (dC / sC) * (dH / sH));
    }

    private static double hue(double a, double b) {
        double h = Math.toDegrees(Math.atan2(b, a));
        return h < 0 ? h + 360 : h;
    }

    private static double cos(double degrees) { return Math.cos(Math.toRadians(degrees)); }
}
