package org.hostir.studio.ui.editor;

import org.eclipse.jface.preference.IPreferenceStore;
import org.eclipse.jface.text.IDocument;
import org.eclipse.jface.text.IRegion;
import org.eclipse.jface.text.TextAttribute;
import org.eclipse.jface.text.TextPresentation;
import org.eclipse.jface.text.presentation.IPresentationReconciler;
import org.eclipse.jface.text.quickassist.IQuickAssistAssistant;
import org.eclipse.jface.text.presentation.PresentationReconciler;
import org.eclipse.jface.text.rules.DefaultDamagerRepairer;
import org.eclipse.jface.text.rules.ICharacterScanner;
import org.eclipse.jface.text.rules.IRule;
import org.eclipse.jface.text.rules.IToken;
import org.eclipse.jface.text.rules.RuleBasedScanner;
import org.eclipse.jface.text.rules.Token;
import org.eclipse.jface.text.source.ISourceViewer;
import org.eclipse.swt.SWT;
import org.eclipse.ui.editors.text.TextSourceViewerConfiguration;
import org.hostir.studio.ui.ThemeColors;

/**
 * The Source page's JSON colouring: member names, strings, numbers and true/false/null, in colours from the
 * theme (colorDefinitions {@code org.hostir.studio.ui.json.*} in plugin.xml, lighter ones in css/dark.css). The
 * tokens take the new theme's colours when it changes and the text is coloured again (issue 35: after a switch to
 * Dark without a restart, names and strings stayed dark magenta and blue on near-black). Nothing is coloured until
 * the page is first shown ({@link #shown}): colouring a 1,000-op fusion's whole text held the opening's UI thread
 * (issue 35), for a page that an opening does not show.
 */
final class JsonColoring extends TextSourceViewerConfiguration {
    static final String KEY = "org.hostir.studio.ui.json.key";
    static final String STRING = "org.hostir.studio.ui.json.string";
    static final String NUMBER = "org.hostir.studio.ui.json.number";
    static final String KEYWORD = "org.hostir.studio.ui.json.keyword";

    private boolean shown;
    private ISourceViewer viewer;

    private final SourceQuickAssist assist;

    /** {@code assist}: what Ctrl+1 offers on the page. */
    JsonColoring(IPreferenceStore store, SourceQuickAssist assist) {
        super(store);
        this.assist = assist;
    }

    @Override
    public IQuickAssistAssistant getQuickAssistAssistant(ISourceViewer sourceViewer) {
        return assist.assistant(getInformationControlCreator(sourceViewer));
    }

    /** The Source page is shown: its text is coloured from now on, the whole of it now. */
    void shown() {
        if (shown) return;
        shown = true;
        if (viewer != null && viewer.getTextWidget() != null && !viewer.getTextWidget().isDisposed()) {
            viewer.invalidateTextPresentation();
        }
    }

    @Override
    public IPresentationReconciler getPresentationReconciler(ISourceViewer viewer) {
        this.viewer = viewer;
        PresentationReconciler reconciler = new PresentationReconciler() {
            @Override
            protected TextPresentation createPresentation(IRegion damage, IDocument document) {
                return shown ? super.createPresentation(damage, document) : null;   // null: nothing to apply
            }
        };
        Tokens tokens = new Tokens();
        if (viewer.getTextWidget() != null) {
            var widget = viewer.getTextWidget();
            ThemeColors.follow(widget, () -> {
                // the page's own colours: a switch back to Light leaves the text editors' preferences dark
                widget.setBackground(ThemeColors.get(ThemeColors.TEXT_BACKGROUND, SWT.COLOR_LIST_BACKGROUND));
                widget.setForeground(ThemeColors.get(ThemeColors.TEXT, SWT.COLOR_LIST_FOREGROUND));
                tokens.recolour();
                viewer.invalidateTextPresentation();
            });
        }
        DefaultDamagerRepairer dr = new DefaultDamagerRepairer(tokens.scanner());
        reconciler.setDamager(dr, IDocument.DEFAULT_CONTENT_TYPE);
        reconciler.setRepairer(dr, IDocument.DEFAULT_CONTENT_TYPE);
        return reconciler;
    }

    /** The four tokens, whose colours follow the theme (a token's attribute is replaced in place). */
    private record Tokens(Token key, Token string, Token number, Token keyword) {
        Tokens() { this(new Token(null), new Token(null), new Token(null), new Token(null)); recolour(); }

        void recolour() {
            key.setData(attribute(KEY, SWT.BOLD));
            string.setData(attribute(STRING, SWT.NORMAL));
            number.setData(attribute(NUMBER, SWT.NORMAL));
            keyword.setData(attribute(KEYWORD, SWT.BOLD));
        }

        RuleBasedScanner scanner() {
            RuleBasedScanner s = new RuleBasedScanner();
            s.setRules(new IRule[] { new StringRule(key, string), new ValueRule(number, keyword) });
            return s;
        }
    }

    private static TextAttribute attribute(String colorId, int style) {
        return new TextAttribute(ThemeColors.get(colorId, SWT.COLOR_LIST_FOREGROUND), null, style);
    }

    /** A JSON string: a member name when a colon follows it, else a string value. */
    private record StringRule(IToken key, IToken string) implements IRule {
        @Override
        public IToken evaluate(ICharacterScanner in) {
            if (in.read() != '"') {
                in.unread();
                return Token.UNDEFINED;
            }
            int c;
            while ((c = in.read()) != ICharacterScanner.EOF && c != '"' && c != '\n') {
                if (c == '\\') in.read();
            }
            int ahead = 0;
            while ((c = in.read()) == ' ' || c == '\t') ahead++;
            boolean isKey = c == ':';
            for (int i = 0; i <= ahead; i++) in.unread();
            return isKey ? key : string;
        }
    }

    /** A number (with sign, fraction and exponent) or one of true, false, null. */
    private record ValueRule(IToken number, IToken keyword) implements IRule {
        @Override
        public IToken evaluate(ICharacterScanner in) {
            int c = in.read();
            if (c == '-' || Character.isDigit(c)) {
                int n = 1;
                while ((c = in.read()) != ICharacterScanner.EOF && (Character.isDigit(c) || "+-.eE".indexOf(c) >= 0)) n++;
                in.unread();
                return number;
            }
            if (Character.isLetter(c)) {
                StringBuilder word = new StringBuilder().append((char) c);
                while ((c = in.read()) != ICharacterScanner.EOF && Character.isLetter(c)) word.append((char) c);
                in.unread();
                String w = word.toString();
                if (w.equals("true") || w.equals("false") || w.equals("null")) return keyword;
                for (int i = 0; i < w.length(); i++) in.unread();
                return Token.UNDEFINED;
            }
            in.unread();
            return Token.UNDEFINED;
        }
    }
}
