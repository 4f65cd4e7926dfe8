package org.hostir.studio.ui;

import java.util.LinkedHashMap;
import java.util.Map;

import org.eclipse.core.runtime.ILog;
import org.eclipse.core.runtime.preferences.IEclipsePreferences;
import org.eclipse.core.runtime.preferences.InstanceScope;
import org.hostir.studio.engine.RunRequest;
import org.hostir.studio.lower.LoweringOption;
import org.hostir.studio.lower.LoweringOptions;
import org.osgi.service.prefs.BackingStoreException;

/**
 * The Host IR preferences (Window > Preferences > Host IR), kept in the workspace's instance scope: the defaults a
 * new launch and a fresh Lowering view start from (devices, lowering options as {@code --option} text, backend and
 * simulated profile), and the Lowering view's own devices and options, so that they survive a restart. The view's
 * state wins over the defaults once a person has changed it; Restore Defaults on the page clears both. The
 * nvFuser Dump view keeps here which dump file it shows.
 */
public final class HostIrPreferences {
    public static final String NODE = "org.hostir.studio";
    public static final int BUILT_IN_DEVICES = 2;
    public static final String BUILT_IN_BACKEND = "auto";
    private static final String DEVICES = "defaults.devices";
    private static final String OPTION = "defaults.option.";
    private static final String BACKEND = "defaults.backend";
    private static final String PROFILE = "defaults.profile";
    private static final String VIEW_DEVICES = "loweringView.devices";
    private static final String VIEW_OPTION = "loweringView.option.";
    private static final String DUMP_FILE = "dumpView.file";
    private static final String DUMP_PASTED = "dumpView.pasted";
    private static final String DUMP_PROGRAM = "dumpView.program";
    private static final String DUMP_PROGRAM_INDEX = "dumpView.programIndex";
    /** The longest pasted dump kept (characters): the preference file is read whole at every start. */
    public static final int MOST_PASTED = 256 * 1024;

    private HostIrPreferences() {}

    private static IEclipsePreferences node() { return InstanceScope.INSTANCE.getNode(NODE); }

    /** The defaults a run or a lowering starts from. */
    public record Defaults(int devices, Map<String, String> options, String backend, String profile) {
        public Defaults {
            options = Map.copyOf(options);
        }

        /** What the page's Restore Defaults shows: every option's declared default. */
        public static Defaults builtIn() {
            return new Defaults(BUILT_IN_DEVICES, LoweringOptions.DEFAULTS.asMap(), BUILT_IN_BACKEND,
                    RunRequest.DEFAULT_PROFILE);
        }
    }

    public static Defaults defaults() {
        IEclipsePreferences p = node();
        Map<String, String> options = new LinkedHashMap<>();
        for (LoweringOption<?> o : LoweringOptions.DECLARED) options.put(o.key(), p.get(OPTION + o.key(), o.formattedDefault()));
        return new Defaults(p.getInt(DEVICES, BUILT_IN_DEVICES), options, p.get(BACKEND, BUILT_IN_BACKEND),
                p.get(PROFILE, RunRequest.DEFAULT_PROFILE));
    }

    /** Stores the defaults and forgets the Lowering view's own state, so that the view shows them. */
    public static void setDefaults(Defaults d) {
        IEclipsePreferences p = node();
        p.putInt(DEVICES, d.devices());
        d.options().forEach((k, v) -> p.put(OPTION + k, v));
        p.put(BACKEND, d.backend());
        p.put(PROFILE, d.profile());
        clearView(p);
        flush(p);
    }

    /** The Lowering view's devices: its own, else the default. */
    public static int viewDevices() { return node().getInt(VIEW_DEVICES, defaults().devices()); }

    /** The Lowering view's options: its own, else the defaults. */
    public static Map<String, String> viewOptions() {
        IEclipsePreferences p = node();
        Map<String, String> out = new LinkedHashMap<>(defaults().options());
        out.replaceAll((k, v) -> p.get(VIEW_OPTION + k, v));
        return out;
    }

    /** Keeps what the Lowering view shows (written to disk when the workbench saves, and at once by {@link #save}). */
    public static void setView(int devices, Map<String, String> options) {
        IEclipsePreferences p = node();
        p.putInt(VIEW_DEVICES, devices);
        options.forEach((k, v) -> p.put(VIEW_OPTION + k, v));
    }

    /** The dump file the nvFuser Dump view showed last (it opens it again after a restart), or null. */
    public static String dumpFile() { return node().get(DUMP_FILE, null); }

    /** Keeps the dump file the nvFuser Dump view shows (null: none), on disk at once; a pasted dump is forgotten. */
    public static void setDumpFile(String file) {
        IEclipsePreferences p = node();
        if (file == null) p.remove(DUMP_FILE);
        else p.put(DUMP_FILE, file);
        p.remove(DUMP_PASTED);
        flush(p);
    }

    /** The dump text the nvFuser Dump view showed last when it was pasted, or null. */
    public static String dumpPasted() { return node().get(DUMP_PASTED, null); }

    /**
     * Keeps a pasted dump's text for the nvFuser Dump view (the dump file is forgotten), on disk at once; whether it
     * was kept (a text over {@link #MOST_PASTED} characters is not).
     */
    public static boolean setDumpPasted(String text) {
        IEclipsePreferences p = node();
        p.remove(DUMP_FILE);
        boolean kept = text != null && text.length() <= MOST_PASTED;
        if (kept) p.put(DUMP_PASTED, text);
        else p.remove(DUMP_PASTED);
        flush(p);
        return kept;
    }

    /** A program of a dump, by its label in the view's list and its index among the dump's programs. */
    public record DumpProgram(String label, int index) {}

    /** The program the nvFuser Dump view showed last, or null. */
    public static DumpProgram dumpProgram() {
        IEclipsePreferences p = node();
        String label = p.get(DUMP_PROGRAM, null);
        return label == null ? null : new DumpProgram(label, p.getInt(DUMP_PROGRAM_INDEX, 0));
    }

    /** Keeps the program the nvFuser Dump view shows, on disk at once (the view may be closed and not reopened). */
    public static void setDumpProgram(DumpProgram program) {
        IEclipsePreferences p = node();
        p.put(DUMP_PROGRAM, program.label());
        p.putInt(DUMP_PROGRAM_INDEX, program.index());
        flush(p);
    }

    /** Writes the preferences to disk now. */
    public static void save() { flush(node()); }

    private static void clearView(IEclipsePreferences p) {
        p.remove(VIEW_DEVICES);
        for (LoweringOption<?> o : LoweringOptions.DECLARED) p.remove(VIEW_OPTION + o.key());
    }

    private static void flush(IEclipsePreferences p) {
        try {
            p.flush();
        } catch (BackingStoreException e) {
            ILog.of(HostIrPreferences.class).error("cannot save the Host IR preferences", e);
        }
    }
}
