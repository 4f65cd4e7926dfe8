package org.hostir.studio.trace;

import java.util.Locale;

/**
 * What a timeline bar is, declared once: the kind's role in the overlap figures (compute and communication time
 * are HTA's unions of those bars) and how the timeline view draws it. Each kind's bars take the theme colour
 * {@link #colorId()}, which plugin.xml defines and css/dark.css sets for the dark theme (EventKindColorsTest
 * checks both), so a new kind is this constant plus those two colour lines.
 */
public enum EventKind {
    MATMUL(Role.COMPUTE, Bar.FULL),
    LINEAR(Role.COMPUTE, Bar.FULL),
    KERNEL(Role.COMPUTE, Bar.FULL),
    COMMUNICATION(Role.COMMUNICATION, Bar.FULL),
    P2P(Role.COMMUNICATION, Bar.FULL),
    COPY(Role.OTHER, Bar.FULL),
    /** The host's dispatch of a Host IR node (its own row per rank). */
    HOST(Role.OTHER, Bar.THIN);

    /** Where a kind's bars count in the overlap figures. */
    public enum Role { COMPUTE, COMMUNICATION, OTHER }

    /** How tall the timeline view draws a kind's bars: device work fills its row, host dispatch is a thin line. */
    public enum Bar { FULL, THIN }

    /** The prefix of the bar colours' ids in the workbench theme's colour registry. */
    public static final String COLOR_ID_PREFIX = "org.hostir.studio.ui.timeline.";

    private final Role role;
    private final Bar bar;

    EventKind(Role role, Bar bar) {
        this.role = role;
        this.bar = bar;
    }

    public Role role() { return role; }

    public Bar bar() { return bar; }

    public boolean isCompute() { return role == Role.COMPUTE; }

    public boolean isCommunication() { return role == Role.COMMUNICATION; }

    /** The kind's lower-case name, as legends, summaries and colour ids write it: {@code matmul}, {@code p2p}. */
    public String key() { return name().toLowerCase(Locale.ROOT); }

    /** The theme colour of this kind's bars: {@code org.hostir.studio.ui.timeline.matmul}. */
    public String colorId() { return COLOR_ID_PREFIX + key(); }
}
