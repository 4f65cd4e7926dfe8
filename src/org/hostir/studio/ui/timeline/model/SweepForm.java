package org.hostir.studio.ui.timeline.model;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.hostir.studio.engine.RoutingFiles;
import org.hostir.studio.engine.RunCommandLine;
import org.hostir.studio.engine.ScheduleSweep;
import org.hostir.studio.rules.FusionBindings;

/**
 * What the Schedule Sweep dialog's fields say, read into the engine's {@link ScheduleSweep}: device counts
 * ({@code 2,8,64}), varied lowering options ({@code offsetStreamIndexingByRank=false,true backend=nccl,cuda}) and
 * symbol bindings ({@code M=4096 K=8192}), and the simulation's MoE routing and capacity factor for every point
 * ({@code zipf:1.2}, {@code 1.25}; the engine checks them before the first point). A field that does not read is an
 * IllegalArgumentException whose message is one line for the dialog. Free of SWT.
 */
public final class SweepForm {
    private SweepForm() {}

    public static ScheduleSweep read(String devices, String vary, String symbols, String profile) {
        return read(devices, vary, symbols, profile, "", "");
    }

    /** As above, every point routed by {@code routing} with {@code capacity} (blank: the simulation's defaults). */
    public static ScheduleSweep read(String devices, String vary, String symbols, String profile, String routing,
                                     String capacity) {
        List<Integer> counts = new ArrayList<>();
        for (String d : words(devices)) {
            try {
                int n = Integer.parseInt(d);
                if (n < 1 || n > FusionBindings.MAX_DEVICES) {
                    throw new IllegalArgumentException("devices: " + d + " is not in 1.." + FusionBindings.MAX_DEVICES);
                }
                counts.add(n);
            } catch (NumberFormatException e) {
                throw new IllegalArgumentException("devices: '" + d + "' is not a whole number");
            }
        }
        if (counts.isEmpty()) throw new IllegalArgumentException("devices: give at least one count, e.g. 2,8,64");
        Map<String, List<String>> varied = new LinkedHashMap<>();
        for (String w : vary.trim().split("\\s+")) {
            if (w.isEmpty()) continue;
            int eq = w.indexOf('=');
            if (eq <= 0 || eq == w.length() - 1) throw new IllegalArgumentException("vary: '" + w + "' is not KEY=V1,V2");
            varied.put(w.substring(0, eq), List.of(w.substring(eq + 1).split(",")));
        }
        Map<String, Long> bound = new LinkedHashMap<>();
        for (String w : words(symbols)) {
            int eq = w.indexOf('=');
            try {
                bound.put(w.substring(0, eq), Long.parseLong(w.substring(eq + 1)));
            } catch (RuntimeException e) {
                throw new IllegalArgumentException("symbols: '" + w + "' is not NAME=INTEGER");
            }
        }
        if (profile.isBlank()) throw new IllegalArgumentException("profile: choose a machine");
        Map<String, String> fixed = new LinkedHashMap<>();
        if (!routing.isBlank()) fixed.put(RoutingFiles.ROUTING_KEY, routing.strip());
        if (!capacity.isBlank()) fixed.put(RoutingFiles.CAPACITY_KEY, capacity.strip());
        // a refused value is named by its flag (--routing), as the launched run's command line and `sweep` name it,
        // not as a lowering option (--option routing), which it is not
        return new ScheduleSweep(counts, varied, fixed, bound, profile.strip(), Map.of(RoutingFiles.ROUTING_KEY,
                RunCommandLine.ROUTING, RoutingFiles.CAPACITY_KEY, RunCommandLine.CAPACITY_FACTOR));
    }

    private static List<String> words(String text) {
        return List.of(text.trim().split("[\\s,]+")).stream().filter(w -> !w.isEmpty()).toList();
    }
}
