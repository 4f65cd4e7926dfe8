package org.hostir.studio.ui;

import java.util.Map;

/**
 * What the Lowering view shows now: the fusion file (its workspace path), the device count and the lowering
 * options as {@code --option} pairs. The view answers it as an adapter ({@code getAdapter}), so a command that
 * runs the same file with the same settings asks the workbench for it instead of calling into the view. (Not
 * {@code LoweringContext}: that is a pass's context in {@code lower}.)
 */
public record LoweringShown(String file, int devices, Map<String, String> options) {
    public LoweringShown {
        options = Map.copyOf(options);
    }
}
