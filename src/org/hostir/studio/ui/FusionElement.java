package org.hostir.studio.ui;

/**
 * A tensor or an op of a fusion file, as the fusion editor, the lowering view and the timeline view select it:
 * they publish and follow {@code IStructuredSelection}s of these through the workbench selection service, which
 * is how a Host IR node reveals the fusion element it came from and the reverse. {@code file} is the workspace
 * path of the {@code .fusion} file; {@code tensor} the tensor's name in the file (null for an op);
 * {@code op} the op's index in the file's {@code ops} (-1 for a tensor).
 */
public record FusionElement(String file, String tensor, int op) {
    public static FusionElement tensor(String file, String name) { return new FusionElement(file, name, -1); }

    public static FusionElement op(String file, int index) { return new FusionElement(file, null, index); }

    public boolean isTensor() { return tensor != null; }
}
