package org.hostir.studio.file;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;

import org.hostir.studio.diag.Diagnostic;
import org.hostir.studio.diag.FusionFileException;
import org.hostir.studio.diag.Rule;

/**
 * Reads {@code hostir-fusion/1} files. Whatever the input, the result is a document or a
 * {@link FusionFileException} with diagnostics carrying the file, line and JSON path: sizes are capped before
 * anything is allocated for them, and every exception the JSON layer can throw is turned into a diagnostic.
 */
public final class FusionReader {
    private FusionReader() {}

    /** Reads a file; diagnostics name it as {@code file.toString()}. */
    public static ParsedFusion read(Path file) throws FusionFileException {
        return read(file, file.toString());
    }

    /** Reads a file; diagnostics name it {@code label} (the path as the user typed it). */
    public static ParsedFusion read(Path file, String label) throws FusionFileException {
        return read(text(file, label, "fusion file"), label);
    }

    /**
     * The text of a JSON input ({@code what}: a fusion file, a profile): a regular file within the size limit, in
     * strict UTF-8; anything else is a diagnostic that names {@code label}.
     */
    public static String text(Path file, String label, String what) throws FusionFileException {
        try {
            // a FIFO or a device would block or never end: only regular files are inputs
            if (Files.exists(file) && !Files.isRegularFile(file)) {
                throw new FusionFileException(new Diagnostic(label, 0, "$", Rule.FILE_READ, Files.isDirectory(file)
                        ? "is a folder, not a " + what : "is not a regular file (a pipe or a device?)"));
            }
            long size = Files.size(file);
            if (size > Limits.MAX_FILE_BYTES) throw tooLarge(label, size);
            // read at most one byte more than allowed, in case the file grows while we read it
            byte[] bytes;
            try (InputStream in = Files.newInputStream(file)) {
                bytes = in.readNBytes((int) Limits.MAX_FILE_BYTES + 1);
            }
            if (bytes.length > Limits.MAX_FILE_BYTES) throw tooLarge(label, bytes.length);
            return decode(bytes, label);
        } catch (NoSuchFileException e) {
            throw new FusionFileException(new Diagnostic(label, 0, "$", Rule.FILE_READ, "no such file"));
        } catch (IOException e) {
            throw new FusionFileException(new Diagnostic(label, 0, "$", Rule.FILE_READ,
                    "cannot read the file: " + FileErrors.describe(e)));
        }
    }

    public static ParsedFusion read(byte[] bytes, String file) throws FusionFileException {
        if (bytes.length > Limits.MAX_FILE_BYTES) throw tooLarge(file, bytes.length);
        return read(decode(bytes, file), file);
    }

    public static ParsedFusion read(String text, String file) throws FusionFileException {
        if (text.length() > Limits.MAX_FILE_BYTES) throw tooLarge(file, text.length());
        JsonNode root = JsonTreeReader.parse(text, file);
        FusionDocument doc = DocumentParser.parse(root, file);
        return new ParsedFusion(file, doc, new SourceMap(root));
    }

    private static FusionFileException tooLarge(String file, long size) {
        return new FusionFileException(new Diagnostic(file, 0, "$", Rule.JSON_LIMIT, "the file has " + size
                + " bytes; a fusion file has at most " + Limits.MAX_FILE_BYTES));
    }

    /** Strict UTF-8: a bad byte is a diagnostic on its line, not a replacement character in a name. */
    private static String decode(byte[] bytes, String file) throws FusionFileException {
        try {
            return Utf8Text.decode(bytes);
        } catch (Utf8Text.NotUtf8Exception e) {
            throw new FusionFileException(new Diagnostic(file, e.line(), "$", Rule.JSON_ENCODING,
                    "the file is not valid UTF-8 (byte offset " + e.offset() + ")"));
        }
    }
}
