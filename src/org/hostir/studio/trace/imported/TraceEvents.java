package org.hostir.studio.trace.imported;

import java.io.EOFException;
import java.io.IOException;
import java.io.Reader;
import java.math.BigDecimal;
import java.util.function.BiConsumer;
import java.util.function.Consumer;

import org.hostir.studio.trace.ChromeTraceConventions;

import com.google.gson.JsonObject;
import com.google.gson.JsonParseException;
import com.google.gson.JsonParser;
import com.google.gson.JsonPrimitive;
import com.google.gson.Strictness;
import com.google.gson.stream.JsonReader;
import com.google.gson.stream.JsonToken;
import com.google.gson.stream.MalformedJsonException;

/**
 * Streams the events of a Chrome-format trace from elsewhere (object or array form), and reads their fields.
 * {@link #read} hands each event object to a consumer and the top-level fields to another; a file cut off
 * mid-way (a profiled process that was killed) ends the events where it breaks, and says so.
 */
final class TraceEvents {
    /** The result of a pass: whether the file was cut off. */
    record Pass(boolean truncated, int events) {
    }

    private TraceEvents() {
    }

    static Pass read(Reader text, Consumer<JsonObject> events, BiConsumer<String, JsonReader> top)
            throws IOException {
        JsonReader in = new JsonReader(text);
        in.setStrictness(Strictness.LENIENT);
        int[] count = {0};
        try {
            if (in.peek() == JsonToken.BEGIN_ARRAY) {
                array(in, events, count);
            } else {
                in.beginObject();
                boolean sawEvents = false;
                while (in.hasNext()) {
                    String name = in.nextName();
                    if (name.equals("traceEvents") && in.peek() == JsonToken.BEGIN_ARRAY) {
                        array(in, events, count);
                        sawEvents = true;
                    } else {
                        top.accept(name, in);
                    }
                }
                if (!sawEvents) throw new IOException("no traceEvents array");
            }
        } catch (EOFException | MalformedJsonException e) {
            if (count[0] == 0) throw new IOException("not JSON: " + e.getMessage(), e);
            return new Pass(true, count[0]);
        } catch (JsonParseException | IllegalStateException e) {
            if (count[0] == 0) throw new IOException("not a Chrome trace: " + e.getMessage(), e);
            return new Pass(true, count[0]);
        }
        return new Pass(false, count[0]);
    }

    private static void array(JsonReader in, Consumer<JsonObject> events, int[] count) throws IOException {
        in.beginArray();
        while (in.hasNext()) {
            if (JsonParser.parseReader(in) instanceof JsonObject e) {
                events.accept(e);
                count[0]++;
            }
        }
        in.endArray();
    }

    static String string(JsonObject o, String key) {
        return o.get(key) instanceof JsonPrimitive p && p.isString() ? p.getAsString() : null;
    }

    static JsonObject args(JsonObject e) {
        return e.get("args") instanceof JsonObject a ? a : new JsonObject();
    }

    /** An integer field (numbers and numeric strings, as profilers write ids either way), or {@code absent}. */
    static long integer(JsonObject o, String key, long absent) {
        if (o.get(key) instanceof JsonPrimitive p) {
            try {
                return p.isNumber() ? p.getAsBigDecimal().longValue() : Long.parseLong(p.getAsString().trim());
            } catch (NumberFormatException e) {
                return absent;
            }
        }
        return absent;
    }

    /** A time field in microseconds as nanoseconds, or null when it is missing or not a number. */
    static Long nanos(JsonObject o, String key) {
        if (!(o.get(key) instanceof JsonPrimitive p) || !p.isNumber()) return null;
        try {
            BigDecimal micros = p.getAsBigDecimal();
            return ChromeTraceConventions.nanos(micros);
        } catch (NumberFormatException | ArithmeticException e) {
            return null;
        }
    }
}
