package org.hostir.studio.ui.editor;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Supplier;

import org.eclipse.core.resources.IFile;
import org.eclipse.core.resources.IMarker;
import org.eclipse.core.resources.IResource;
import org.eclipse.core.runtime.CoreException;
import org.eclipse.jface.text.BadLocationException;
import org.eclipse.jface.text.IDocument;
import org.eclipse.jface.text.IInformationControlCreator;
import org.eclipse.jface.text.contentassist.ICompletionProposal;
import org.eclipse.jface.text.contentassist.IContextInformation;
import org.eclipse.jface.text.quickassist.IQuickAssistAssistant;
import org.eclipse.jface.text.quickassist.IQuickAssistInvocationContext;
import org.eclipse.jface.text.quickassist.IQuickAssistProcessor;
import org.eclipse.jface.text.quickassist.QuickAssistAssistant;
import org.eclipse.jface.text.source.Annotation;
import org.eclipse.swt.graphics.Image;
import org.eclipse.swt.graphics.Point;
import org.eclipse.ui.IMarkerResolution;
import org.eclipse.ui.IMarkerResolution2;
import org.eclipse.ui.ide.IDE;

/**
 * Ctrl+1 on the Source page (issue 35: it showed nothing): the quick fixes of the problem markers on the caret's
 * line, the same ones the Problems view offers (registered with the workbench's marker help, such as
 * {@link MeshQuickFixes}), or "No suggestions available" as in Eclipse's Java editor.
 */
final class SourceQuickAssist implements IQuickAssistProcessor {
    static final String NONE = "No suggestions available";

    private final Supplier<IFile> file;
    private final Runnable checkNow;
    private final QuickAssistListSize listSize = new QuickAssistListSize();

    /** {@code checkNow}: brings the markers up to the text (a pause in typing is waited for otherwise). */
    SourceQuickAssist(Supplier<IFile> file, Runnable checkNow) {
        this.file = file;
        this.checkNow = checkNow;
    }

    /** The Source page's assistant for this processor. */
    IQuickAssistAssistant assistant(IInformationControlCreator info) {
        QuickAssistAssistant a = new QuickAssistAssistant();
        a.setQuickAssistProcessor(this);
        a.setInformationControlCreator(info);
        a.setRestoreCompletionProposalSize(listSize.settings());
        a.addCompletionListener(listSize);   // sizes the list's window once made: JFace restores none under 50 px
        return a;
    }

    @Override
    public ICompletionProposal[] computeQuickAssistProposals(IQuickAssistInvocationContext context) {
        checkNow.run();
        List<ICompletionProposal> fixes = new ArrayList<>();
        for (IMarker m : markersOnLine(context)) {
            for (IMarkerResolution r : IDE.getMarkerHelpRegistry().getResolutions(m)) fixes.add(new Fix(m, r));
        }
        if (fixes.isEmpty()) fixes.add(new Fix(null, null));
        // computed before JFace makes the list's window, which then opens at the stored size
        listSize.fit(context.getSourceViewer() == null ? null : context.getSourceViewer().getTextWidget(),
                fixes.stream().map(ICompletionProposal::getDisplayString).toList());
        return fixes.toArray(ICompletionProposal[]::new);
    }

    /** The fusion problems whose line is the caret's. */
    private List<IMarker> markersOnLine(IQuickAssistInvocationContext context) {
        IFile f = file.get();
        IDocument doc = context.getSourceViewer() == null ? null : context.getSourceViewer().getDocument();
        if (f == null || !f.exists() || doc == null) return List.of();
        try {
            int line = doc.getLineOfOffset(context.getOffset()) + 1;
            List<IMarker> on = new ArrayList<>();
            for (IMarker m : f.findMarkers(FusionEditor.MARKER, true, IResource.DEPTH_ZERO)) {
                if (m.getAttribute(IMarker.LINE_NUMBER, -1) == line) on.add(m);
            }
            return on;
        } catch (BadLocationException | CoreException e) {
            return List.of();   // a caret past the text or a file gone: nothing to fix
        }
    }

    @Override
    public String getErrorMessage() { return null; }

    @Override
    public boolean canFix(Annotation annotation) { return false; }

    @Override
    public boolean canAssist(IQuickAssistInvocationContext context) { return false; }

    /** One marker resolution as a proposal; with none, the "No suggestions available" line, which does nothing. */
    private record Fix(IMarker marker, IMarkerResolution resolution) implements ICompletionProposal {
        @Override
        public void apply(IDocument document) {
            if (resolution != null && marker.exists()) resolution.run(marker);
        }

        @Override
        public String getDisplayString() { return resolution == null ? NONE : resolution.getLabel(); }

        @Override
        public String getAdditionalProposalInfo() {
            return resolution instanceof IMarkerResolution2 r ? r.getDescription() : null;
        }

        @Override
        public Image getImage() { return resolution instanceof IMarkerResolution2 r ? r.getImage() : null; }

        @Override
        public Point getSelection(IDocument document) { return null; }

        @Override
        public IContextInformation getContextInformation() { return null; }
    }
}
