package org.hostir.studio.exec.tensor;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.hostir.studio.ir.DataType;

/**
 * Reads the {@code .npy} files {@link NpyFiles} writes (version 1.0, little-endian, C order) into a tensor of a
 * given dtype: the file's descr must be the one {@link NpyFiles#descr} gives that dtype, and each value is stored
 * rounded to the dtype (exact for every file {@link NpyFiles} wrote: a double comes back bit for bit).
 */
public final class NpyReader {
    private static final Pattern DESCR = Pattern.compile("'descr':\\s*'([^']+)'");
    private static final Pattern FORTRAN = Pattern.compile("'fortran_order':\\s*(True|False)");
    private static final Pattern SHAPE = Pattern.compile("'shape':\\s*\\(([^)]*)\\)");

    private NpyReader() {}

    public static DenseTensor read(Path file, DataType dtype) throws IOException {
        return parse(Files.readAllBytes(file), dtype);
    }

    /** The tensor in {@code file}; an {@link IllegalArgumentException} says what is wrong with it. */
    public static DenseTensor parse(byte[] file, DataType dtype) {
        ByteBuffer b = ByteBuffer.wrap(file).order(ByteOrder.LITTLE_ENDIAN);
        if (file.length < 10 || (file[0] & 0xff) != 0x93
                || !new String(file, 1, 5, StandardCharsets.US_ASCII).equals("NUMPY") || file[6] != 1) {
            throw new IllegalArgumentException("not a version 1.0 .npy file");
        }
        int headerLength = b.getShort(8) & 0xffff;
        String header = new String(file, 10, Math.min(headerLength, file.length - 10), StandardCharsets.US_ASCII);
        String descr = group(DESCR, header, "descr");
        if (!descr.equals(NpyFiles.descr(dtype))) {
            throw new IllegalArgumentException("descr " + descr + " is not " + NpyFiles.descr(dtype) + " ("
                    + dtype.fileName() + ")");
        }
        if (group(FORTRAN, header, "fortran_order").equals("True")) {
            throw new IllegalArgumentException("Fortran order is not read");
        }
        long[] shape = Arrays.stream(group(SHAPE, header, "shape").split(",")).map(String::strip)
                .filter(x -> !x.isEmpty()).mapToLong(Long::parseLong).toArray();
        DenseTensor t = DenseTensor.zeros(shape, dtype);
        int count = (int) t.numel();
        if (file.length - 10 - headerLength != (long) count * NpyFiles.width(dtype)) {
            throw new IllegalArgumentException("the data is " + (file.length - 10 - headerLength) + " bytes, shape "
                    + Arrays.toString(shape) + " needs " + (long) count * NpyFiles.width(dtype));
        }
        b.position(10 + headerLength);
        for (int i = 0; i < count; i++) {
            if (dtype == DataType.INT64) t.ints[i] = b.getLong(); // exactly, past 2^53 too
            else t.write(i, Rounding.round(value(b, dtype), dtype));
        }
        return t;
    }

    private static double value(ByteBuffer b, DataType dtype) {
        return switch (dtype) {
            case FLOAT, BFLOAT16, FLOAT8_E4M3FN, FLOAT8_E5M2 -> b.getFloat();
            case HALF -> Float.float16ToFloat(b.getShort());
            case INT64 -> b.getLong();
            case DOUBLE -> b.getDouble();
            case INT32 -> b.getInt();
            case BOOL -> b.get() != 0 ? 1 : 0;
        };
    }

    private static String group(Pattern p, String header, String key) {
        Matcher m = p.matcher(header);
        if (!m.find()) throw new IllegalArgumentException("the header has no " + key + ": " + header.strip());
        return m.group(1);
    }
}
