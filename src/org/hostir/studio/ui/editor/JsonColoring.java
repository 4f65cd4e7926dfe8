package org.hostir.studio.ui.editor;

import org.eclipse.jface.preference.IPreferenceStore;
import org.eclipse.jface.text.IDocument;
import org.eclipse.jface.text.TextAttribute;
import org.eclipse.jface.text.presentation.IPresentationReconciler;
import org.eclipse.jface.text.presentation.PresentationReconciler;
import org.eclipse.jface.text.rules.DefaultDamagerRepairer;
import org.eclipse.jface.text.rules.ICharacterScanner;
import org.eclipse.jface.text.rules.IRule;
import org.eclipse.jface.text.rules.IToken;
import org.eclipse.jface.text.rules.RuleBasedScanner;
import org.eclipse.jface.text.rules.Token;
import org.eclipse.jface.text.source.ISourceViewer;
import org.eclipse.swt.SWT;
import org.eclipse.swt.graphics.Color;
import org.eclipse.ui.PlatformUI;
import org.eclipse.ui.editors.text.TextSourceViewerConfiguration;

/**
 * The Source page's JSON colouring: member names, strings, numbers and true/false/null, in colours from the
 * theme (colorDefinitions {@code org.hostir.studio.ui.json.*} in plugin.xml, darker ones in css/dark.css).
 */
final class JsonColoring extends TextSourceViewerConfiguration {
    static final String KEY = "org.hostir.studio.ui.json.key";
    static final String STRING = "org.hostir.studio.ui.json.string";
    static final String NUMBER = "org.hostir.studio.ui.json.number";
    static final String KEYWORD = "org.hostir.studio.ui.json.keyword";

    JsonColoring(IPreferenceStore store) { super(store); }

    @Override
    public IPresentationReconciler getPresentationReconciler(ISourceViewer viewer) {
        PresentationReconciler reconciler = new PresentationReconciler();
        DefaultDamagerRepairer dr = new DefaultDamagerRepairer(scanner());
        reconciler.setDamager(dr, IDocument.DEFAULT_CONTENT_TYPE);
        reconciler.setRepairer(dr, IDocument.DEFAULT_CONTENT_TYPE);
        return reconciler;
    }

    static RuleBasedScanner scanner() {
        RuleBasedScanner s = new RuleBasedScanner();
        s.setRules(new IRule[] { new StringRule(token(KEY, SWT.BOLD), token(STRING, SWT.NORMAL)),
                new ValueRule(token(NUMBER, SWT.NORMAL), token(KEYWORD, SWT.BOLD)) });
        return s;
    }

    private static IToken token(String colorId, int style) {
        Color c = PlatformUI.isWorkbenchRunning()
                ? PlatformUI.getWorkbench().getThemeManager().getCurrentTheme().getColorRegistry().get(colorId) : null;
        return new Token(new TextAttribute(c, null, style));
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
