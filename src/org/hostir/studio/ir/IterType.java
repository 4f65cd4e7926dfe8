package org.hostir.studio.ir;

/** The kind of an IterDomain; the letter opens its printed name ({@code iS0}, {@code rS4}, {@code bS8}). */
public enum IterType {
    ITERATION("i", "iteration"),
    REDUCTION("r", "reduction"),
    BROADCAST("b", "broadcast");

    private final String letter;
    private final String fileName;

    IterType(String letter, String fileName) {
        this.letter = letter;
        this.fileName = fileName;
    }

    public String letter() { return letter; }

    public String fileName() { return fileName; }

    public static IterType fromFileName(String name) {
        for (IterType t : values()) {
            if (t.fileName.equals(name)) return t;
        }
        throw new IllegalArgumentException("unknown iter type '" + name + "'");
    }
}
