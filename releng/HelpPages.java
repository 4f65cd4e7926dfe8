import java.io.IOException;
import java.io.Reader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.commonmark.Extension;
import org.commonmark.ext.gfm.tables.TablesExtension;
import org.commonmark.ext.heading.anchor.HeadingAnchorExtension;
import org.commonmark.node.AbstractVisitor;
import org.commonmark.node.Heading;
import org.commonmark.node.Image;
import org.commonmark.node.Link;
import org.commonmark.node.Node;
import org.commonmark.parser.IncludeSourceSpans;
import org.commonmark.parser.Parser;
import org.commonmark.renderer.html.HtmlRenderer;
import org.commonmark.renderer.text.TextContentRenderer;

/**
 * The Eclipse help's pages, made from the Markdown documents at build time so that the .md files stay the one
 * source: every {@code docs/NAME.html} that {@code help/toc.xml} or {@code help/contexts.xml} names is
 * {@code docs/NAME.md} rendered by commonmark-java (GFM tables, an id on every heading) into
 * {@code OUT/docs/NAME.html}, where the plugin's jar picks it up beside the {@code docs/images/} it shows; a link to
 * another {@code .md} becomes a link to its page. Then every link of the help (the pages' links and images, the
 * table of contents' and context help's topics) must reach a page made here or a file the plugin ships
 * ({@code build.properties}' {@code bin.includes}), and its {@code #fragment} a heading of that page: a broken one
 * fails the build with {@code error: FILE:LINE: link: what [help.link]}.
 *
 * <p>Run by the plugin's build (tycho-pom.xml, phase generate-resources):
 * {@code java -cp 'LIB/*' releng/HelpPages.java REPOSITORY OUT}.
 */
public final class HelpPages {
    private static final List<String> HELP_FILES = List.of("help/toc.xml", "help/contexts.xml",
            "help/contexts-workbench.xml", "help/contexts-console.xml", "help/contexts-debug.xml");
    private static final Pattern TOPIC = Pattern.compile("\\b(?:href|topic)=\"([^\"]*)\"");
    private static final Pattern PAGE = Pattern.compile("docs/[^/#]+\\.html");
    private static final Pattern ID = Pattern.compile("\\bid=\"([^\"]*)\"");
    private static final Pattern EXTERNAL = Pattern.compile("^[a-zA-Z][a-zA-Z0-9+.-]*:");
    private static final String STYLE = "help/help.css";

    /** A link met in a file: where (a repository-relative file and 1-based line), what it says, relative to which folder. */
    private record Reference(String file, int line, String target, String base) {}

    private final Path repo;
    private final Path out;
    private final List<Extension> extensions = List.of(TablesExtension.create(), HeadingAnchorExtension.create());
    private final Map<String, Set<String>> pageIds = new LinkedHashMap<>();
    private final List<Reference> references = new ArrayList<>();
    private final List<String> errors = new ArrayList<>();

    private HelpPages(Path repo, Path out) {
        this.repo = repo;
        this.out = out;
    }

    public static void main(String[] args) {
        if (args.length != 2) {
            System.err.println("usage: java -cp 'COMMONMARK-JARS/*' releng/HelpPages.java REPOSITORY OUT");
            System.exit(2);
        }
        HelpPages pages = new HelpPages(Path.of(args[0]).toAbsolutePath(), Path.of(args[1]).toAbsolutePath());
        try {
            for (String page : pages.namedPages()) pages.render(page);
            pages.check(pages.shipped());
        } catch (IOException e) {
            System.err.println("error: help pages: cannot read or write " + e.getMessage());
            System.exit(1);
        }
        pages.errors.forEach(System.err::println);
        if (!pages.errors.isEmpty()) {
            System.err.println("help pages: " + pages.errors.size() + " broken link(s)");
            System.exit(1);
        }
        System.out.println("help pages: " + pages.pageIds.size() + " pages from Markdown into " + pages.out.resolve("docs")
                + ", " + pages.references.size() + " links checked");
    }

    /** The pages the table of contents and the context help name (docs/NAME.html), in order of appearance. */
    private Set<String> namedPages() throws IOException {
        Set<String> pages = new LinkedHashSet<>();
        for (String file : HELP_FILES) {
            List<String> lines = Files.readAllLines(repo.resolve(file));
            for (int i = 0; i < lines.size(); i++) {
                Matcher m = TOPIC.matcher(lines.get(i));
                while (m.find()) {
                    references.add(new Reference(file, i + 1, m.group(1), ""));
                    Matcher page = PAGE.matcher(m.group(1));
                    if (page.lookingAt()) pages.add(page.group());
                }
            }
        }
        return pages;
    }

    /** Renders docs/NAME.md into OUT/docs/NAME.html, noting its ids and its links. */
    private void render(String page) throws IOException {
        String source = page.replaceFirst("\\.html$", ".md");
        Path md = repo.resolve(source);
        if (!Files.isRegularFile(md)) {
            errors.add("error: " + source + ":1: page " + page + ": no such Markdown document, named by "
                    + String.join(" or ", HELP_FILES) + " [help.link]");
            return;
        }
        Parser parser = Parser.builder().extensions(extensions).includeSourceSpans(IncludeSourceSpans.BLOCKS_AND_INLINES).build();
        Node document = parser.parse(Files.readString(md));
        String folder = source.substring(0, source.lastIndexOf('/') + 1);
        document.accept(new AbstractVisitor() {
            @Override
            public void visit(Link link) {
                references.add(new Reference(source, line(link), link.getDestination(), folder));
                link.setDestination(pageOf(link.getDestination()));
                visitChildren(link);
            }

            @Override
            public void visit(Image image) {
                references.add(new Reference(source, line(image), image.getDestination(), folder));
            }
        });
        String body = HtmlRenderer.builder().extensions(extensions).build().render(document);
        Path target = out.resolve(page);
        Files.createDirectories(target.getParent());
        Files.writeString(target, html(title(document, page), relative(folder, STYLE), body));
        Set<String> ids = new LinkedHashSet<>();
        Matcher m = ID.matcher(body);
        while (m.find()) ids.add(m.group(1));
        pageIds.put(page, ids);
    }

    private static int line(Node node) {
        return node.getSourceSpans().isEmpty() ? 1 : node.getSourceSpans().getFirst().getLineIndex() + 1;
    }

    /** A relative link to a Markdown document goes to its page. */
    private static String pageOf(String destination) {
        if (EXTERNAL.matcher(destination).find()) return destination;
        return destination.replaceFirst("\\.md(#|$)", ".html$1");
    }

    private static String title(Node document, String page) {
        for (Node n = document.getFirstChild(); n != null; n = n.getNext()) {
            if (n instanceof Heading h && h.getLevel() == 1) return TextContentRenderer.builder().build().render(h).strip();
        }
        return page;
    }

    /** {@code path} (from the repository root) as seen from {@code folder}. */
    private static String relative(String folder, String path) {
        return "../".repeat((int) folder.chars().filter(c -> c == '/').count()) + path;
    }

    private static String html(String title, String style, String body) {
        String escaped = title.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;");
        return "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"UTF-8\">\n<title>" + escaped + "</title>\n"
                + "<link rel=\"stylesheet\" href=\"" + style + "\">\n</head>\n<body>\n" + body + "</body>\n</html>\n";
    }

    /** The plugin's shipped paths: build.properties' bin.includes (a folder ends with '/'). */
    private List<String> shipped() throws IOException {
        Properties build = new Properties();
        try (Reader r = Files.newBufferedReader(repo.resolve("build.properties"))) {
            build.load(r);
        }
        List<String> paths = new ArrayList<>();
        for (String p : build.getProperty("bin.includes", "").split(",")) if (!p.isBlank()) paths.add(p.strip());
        return paths;
    }

    /** Every link reaches a page made here or a shipped file, and its fragment a heading of that page. */
    private void check(List<String> shipped) {
        for (Reference r : references) {
            if (r.target().isEmpty() || EXTERNAL.matcher(r.target()).find()) continue;
            String[] parts = pageOf(r.target()).split("#", 2);
            String path = parts[0].isEmpty() ? pageOf(r.file())   // #fragment: a heading of the page itself
                    : Path.of(r.base() + parts[0]).normalize().toString().replace('\\', '/');
            boolean page = pageIds.containsKey(path);
            if (!page && !(isShipped(path, shipped) && Files.exists(repo.resolve(path)))) {
                errors.add(error(r, path.endsWith(".html") ? "no page: add " + path.replaceFirst("\\.html$", ".md")
                        + " to help/toc.xml" : "no such file in the plugin (build.properties' bin.includes)"));
            } else if (parts.length == 2 && page && !pageIds.get(path).contains(parts[1])) {
                errors.add(error(r, "no heading with the id \"" + parts[1] + "\" in " + path + " (ids: "
                        + String.join(", ", pageIds.get(path)) + ")"));
            }
        }
    }

    private static boolean isShipped(String path, List<String> shipped) {
        for (String s : shipped) if (path.equals(s) || s.endsWith("/") && path.startsWith(s)) return true;
        return false;
    }

    private static String error(Reference r, String what) {
        return "error: " + r.file() + ":" + r.line() + ": link " + r.target() + ": " + what + " [help.link]";
    }
}
