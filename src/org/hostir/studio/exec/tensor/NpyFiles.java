package org.hostir.studio.exec.tensor;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.function.DoubleConsumer;
import java.util.stream.Collectors;

import org.hostir.studio.ir.DataType;

/**
 * Tensors as NumPy {@code .npy} files (format version 1.0, little-endian, C order), for checks outside the
 * engine. float is {@code <f4}, half {@code <f2} and int64 {@code <i8}; NumPy has no bfloat16, so a bfloat16
 * tensor is written as {@code <f4}, which holds its values exactly (the reader rounds it back to bfloat16); fp8
 * likewise. double is {@code <f8} (every bit of the float64 storage), int32 {@code <i4}, bool {@code |b1}.
 * {@link NpyReader} reads them back.
 */
public final class NpyFiles {
    private NpyFiles() {}

    public static String descr(DataType dtype) {
        return switch (dtype) {
            case FLOAT, BFLOAT16, FLOAT8_E4M3FN, FLOAT8_E5M2 -> "<f4";
            case HALF -> "<f2";
            case INT64 -> "<i8";
            case DOUBLE -> "<f8";
            case INT32 -> "<i4";
            case BOOL -> "|b1";
        };
    }

    public static void write(DenseTensor t, Path file) throws IOException {
        Files.write(file, bytes(t));
    }

    /** The whole {@code .npy} file of {@code t}: for a caller that writes it its own way (atomically, say). */
    public static byte[] bytes(DenseTensor t) {
        String shape = Arrays.stream(t.shape()).mapToObj(Long::toString).collect(Collectors.joining(", "));
        if (t.rank() == 1) shape += ",";
        String dict = "{'descr': '" + descr(t.dtype()) + "', 'fortran_order': False, 'shape': (" + shape + "), }";
        // magic (6) + version (2) + header length (2) + header, padded with spaces to a multiple of 64, ending in \n
        int unpadded = 10 + dict.length() + 1;
        int padded = (unpadded + 63) / 64 * 64;
        String header = dict + " ".repeat(padded - unpadded) + "\n";
        int count = (int) t.numel();
        ByteBuffer b = ByteBuffer.allocate(padded + count * width(t.dtype())).order(ByteOrder.LITTLE_ENDIAN);
        b.put((byte) 0x93).put("NUMPY".getBytes(StandardCharsets.US_ASCII)).put((byte) 1).put((byte) 0);
        b.putShort((short) header.length()).put(header.getBytes(StandardCharsets.US_ASCII));
        // each value as its dtype holds it: a double from the float64 storage, an integer from the int64 one
        DoubleConsumer put = switch (t.dtype()) {
            case FLOAT, BFLOAT16, FLOAT8_E4M3FN, FLOAT8_E5M2 -> v -> b.putFloat((float) v);
            case HALF -> v -> b.putShort(Float.floatToFloat16((float) v));
            case INT64 -> v -> b.putLong((long) v);
            case DOUBLE -> b::putDouble;
            case INT32 -> v -> b.putInt((int) v);
            case BOOL -> v -> b.put((byte) (v != 0 ? 1 : 0));
        };
        if (t.isIntegral()) {
            // each integer exactly: an int64 past 2^53 would not survive a double
            for (long v : t.toLongArray()) {
                if (t.dtype() == DataType.INT32) b.putInt((int) v);
                else b.putLong(v);
            }
        } else if (t.isWide()) {
            for (double v : t.toDoubleArray()) put.accept(v);
        } else {
            for (float v : t.toArray()) put.accept(v);
        }
        return b.array();
    }

    /** Bytes per element in the file. */
    static int width(DataType dtype) {
        return switch (dtype) {
            case FLOAT, BFLOAT16, FLOAT8_E4M3FN, FLOAT8_E5M2, INT32 -> 4;
            case HALF -> 2;
            case INT64, DOUBLE -> 8;
            case BOOL -> 1;
        };
    }
}
