package org.hostir.studio.ui;

import java.util.Map;

/**
 * What the lowering view lowers now: the fusion file (its workspace path), the device count and the lowering
 * options as {@code --option} pairs. The view answers it as an adapter ({@code getAdapter}), so a command that
 * runs the same file with the same settings asks the workbench for it instead of calling into the view.
 */
public record LoweringContext(String file, int devices, Map<String, String> options) {
    public LoweringContext {
        options = Map.copyOf(options);
    }
}
