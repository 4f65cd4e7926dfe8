package org.hostir.studio.file;

import org.hostir.studio.rules.FusionBindings;

/**
 * Caps on what a fusion file may contain. A hostile or broken file must end in a diagnostic, never in an
 * OutOfMemoryError, a StackOverflowError or a hang; these bounds are far above any real fusion.
 */
public final class Limits {
    private Limits() {}

    /** Bytes in a fusion file. */
    public static final long MAX_FILE_BYTES = 16L * 1024 * 1024;
    /** Nesting of JSON arrays and objects (a fusion needs 4; the editor's layout gets the rest). */
    public static final int MAX_DEPTH = 64;
    /** JSON values of any kind in one file. */
    public static final int MAX_JSON_VALUES = 1_000_000;
    /** Tensors, and separately ops, in one fusion. */
    public static final int MAX_TENSORS = 100_000;
    public static final int MAX_OPS = 100_000;
    /** Axes of one tensor. */
    public static final int MAX_AXES = 64;
    /** Devices in one mesh, and the largest --devices. */
    public static final int MAX_DEVICES = FusionBindings.MAX_DEVICES;
    /** The largest extent (constant or symbol value): 2^40 elements along one axis. */
    public static final long MAX_EXTENT = 1L << 40;
    /** Length of tensor and symbol names. */
    public static final int MAX_NAME_LENGTH = 128;
    /** Length of the fusion's description. */
    public static final int MAX_DESCRIPTION_LENGTH = 64 * 1024;
}
