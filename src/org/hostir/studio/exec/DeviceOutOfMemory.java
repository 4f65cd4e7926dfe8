package org.hostir.studio.exec;

/**
 * A device allocation that failed for lack of memory. The device's message gives the request and the device's
 * free and total memory; the evaluator, which knows the tensor, puts the TensorView's name in front.
 */
public final class DeviceOutOfMemory extends ExecutionException {
    private static final long serialVersionUID = 1L;

    public DeviceOutOfMemory(String message) { super(message); }

    /** The same failure with the tensor named: {@code T3 (out): ...}. */
    public DeviceOutOfMemory naming(String tensor) { return new DeviceOutOfMemory(tensor + ": " + getMessage()); }
}
