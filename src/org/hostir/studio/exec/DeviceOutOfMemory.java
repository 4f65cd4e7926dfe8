package org.hostir.studio.exec;

import java.util.List;

import org.hostir.studio.ir.TensorView;

/**
 * A device allocation that failed for lack of memory. The device's message gives the request and the device's
 * free and total memory; the evaluator, which knows the tensor, puts the TensorView's name in front.
 */
public final class DeviceOutOfMemory extends ExecutionException {
    private static final long serialVersionUID = 1L;

    public DeviceOutOfMemory(String message) { super(message); }

    private DeviceOutOfMemory(String message, TensorView tensor) { super(message, List.of(tensor.subject())); }

    /** The same failure about {@code tensor}, named in front as {@code text}: {@code TensorView T3 'out': ...}. */
    public DeviceOutOfMemory naming(String text, TensorView tensor) {
        return new DeviceOutOfMemory(text + ": " + getMessage(), tensor);
    }
}
