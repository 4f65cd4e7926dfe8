package org.hostir.studio.cli;

import java.io.PrintStream;

import org.hostir.studio.diag.TerminalText;

/**
 * What every command prints, on its way to the terminal: each line's text through {@link TerminalText#escape}, so
 * that no control character, escape sequence, bidi override or line separator from a file or an argument reaches
 * the terminal raw, whichever message or listing carried it. Line breaks ({@code \n}, {@code \r\n}) and tabs are
 * the output's own layout and pass.
 */
final class TerminalStream extends PrintStream {
    TerminalStream(PrintStream target) {
        super(target, true, target.charset());
    }

    /** {@code out} as it reaches the terminal; a stream that already escapes is kept. */
    static PrintStream of(PrintStream out) {
        return out instanceof TerminalStream ? out : new TerminalStream(out);
    }

    /** {@code text} escaped line by line, its line breaks and tabs kept. */
    static String escaped(String text) {
        StringBuilder b = new StringBuilder(text.length());
        int from = 0;
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            boolean crlf = c == '\r' && i + 1 < text.length() && text.charAt(i + 1) == '\n';
            if (c == '\n' || c == '\t' || crlf) {
                b.append(TerminalText.escape(text.substring(from, i))).append(c);
                from = i + 1;
            }
        }
        return b.append(TerminalText.escape(text.substring(from))).toString();
    }

    @Override
    public void print(String s) { super.print(escaped(String.valueOf(s))); }

    @Override
    public void print(Object o) { print(String.valueOf(o)); }

    @Override
    public void print(char[] s) { print(new String(s)); }

    @Override
    public void print(char c) { print(String.valueOf(c)); }
}
