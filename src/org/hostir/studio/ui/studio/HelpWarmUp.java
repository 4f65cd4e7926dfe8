package org.hostir.studio.ui.studio;

import java.io.IOException;
import java.io.InputStream;
import java.net.HttpURLConnection;
import java.net.URI;
import java.net.URL;
import java.nio.charset.StandardCharsets;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.HashSet;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.eclipse.core.runtime.IProgressMonitor;
import org.eclipse.core.runtime.IStatus;
import org.eclipse.core.runtime.Status;
import org.eclipse.core.runtime.jobs.Job;
import org.eclipse.ui.IWorkbench;
import org.eclipse.ui.IWorkbenchListener;
import org.eclipse.ui.PlatformUI;

/**
 * The help system made ready in the background after the Studio starts (issue 35, round 18: the first Help > Help
 * Contents showed a blank window for about 14 s). Eclipse starts the embedded help server (Jetty and the help web
 * application) only when help is first asked for, and the web application compiles each of its JSP pages on its
 * first request; the help window's frames need a dozen of them. This job starts the server through the workbench's
 * help system and requests the help window's pages, frame by frame, and the table of contents, so that the first
 * open is served from a running, compiled application. Nothing is shown; a failure only leaves the help as it was.
 */
import org.hostir.studio.ui.WarmUpJob;

public final class HelpWarmUp {
    /** The family of the warm-up job, for callers (and tests) that wait for it. */
    public static final Object FAMILY = new Object();
    /** A page of the plugin's help; resolving it starts the help server and gives its address. */
    static final String GUIDE = "/org.hostir.studio/docs/user-guide.html";
    /** The help window's start page and its table of contents' data, below the web application's root. */
    static final String[] PAGES = { "index.jsp", "advanced/tocfragment" };
    /** The most pages requested: the help window's frame set is about twenty. */
    static final int MOST_PAGES = 40;
    /** WebKitGTK's way of naming itself, as the help window's SWT Browser does. */
    static final String USER_AGENT = "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/605.1.15 (KHTML, like Gecko)"
            + " Version/17.0 Safari/605.1.15";
    private static final Pattern FRAME = Pattern.compile("<i?frame\\b[^>]*?\\bsrc=[\"']([^\"']+)[\"']",
            Pattern.CASE_INSENSITIVE);

    private static final Pattern ENTITY = Pattern.compile("&#(\\d{1,7});|&amp;");

    private HelpWarmUp() {}

    /** Schedules the warm-up {@code delayMillis} from now, at the lowest priority, out of the Progress view. */
    public static void later(long delayMillis) {
        WarmUpJob.later("Help warm-up", FAMILY, monitor -> warm(monitor), delayMillis);
    }

    /** Starts the help server and requests the help window's pages; the pages reached, or 0 without a server. */
    static int warm(IProgressMonitor monitor) {
        URL guide = PlatformUI.getWorkbench().getHelpSystem().resolve(GUIDE, false);
        if (guide == null || !guide.getProtocol().startsWith("http")) return 0;
        URI root = URI.create(guide.toString()).resolve("/help/");
        Deque<URI> pending = new ArrayDeque<>();
        for (String page : PAGES) pending.add(root.resolve(page));
        Set<URI> seen = new HashSet<>(pending);
        int read = 0;
        while (!pending.isEmpty() && read < MOST_PAGES && !monitor.isCanceled()) {
            URI page = pending.removeFirst();
            String html = fetch(page);
            read++;
            Matcher m = FRAME.matcher(html);
            while (m.find()) {
                URI frame = frameOf(page, m.group(1));
                if (frame != null && root.getHost().equals(frame.getHost()) && seen.add(frame)) pending.add(frame);
            }
        }
        return read;
    }

    /** A frame's address on {@code page}, or null for one that is not an address (about:blank, script). */
    private static URI frameOf(URI page, String src) {
        try {
            return page.resolve(unescaped(src));
        } catch (IllegalArgumentException e) {
            return null;
        }
    }

    /** An attribute's value as the browser reads it: the pages write characters such as '.', '/' and '=' as {@code &#46;}. */
    static String unescaped(String attribute) {
        Matcher m = ENTITY.matcher(attribute);
        StringBuilder out = new StringBuilder();
        while (m.find()) {
            String c = m.group(1) != null ? Character.toString(Integer.parseInt(m.group(1))) : "&";
            m.appendReplacement(out, Matcher.quoteReplacement(c));
        }
        return m.appendTail(out).toString();
    }

    /**
     * The text of a page of the help server, empty if it cannot be read. Asked as the help window's browser asks
     * (WebKit): the web application chooses its pages by the browser, and serves plain pages to unknown ones.
     */
    private static String fetch(URI page) {
        try {
            HttpURLConnection c = (HttpURLConnection) page.toURL().openConnection();
            c.setRequestProperty("User-Agent", USER_AGENT);
            c.setConnectTimeout(5_000);
            c.setReadTimeout(20_000);   // a JSP compiled on a loaded machine; the shutdown waits no longer
            try {
                if (c.getResponseCode() >= 400) return "";
                try (InputStream in = c.getInputStream()) {
                    return new String(in.readAllBytes(), StandardCharsets.UTF_8);
                }
            } finally {
                c.disconnect();
            }
        } catch (IOException e) {
            return "";
        }
    }
}
