package org.hostir.studio.ui.passes;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Supplier;

import org.eclipse.core.resources.IFile;
import org.eclipse.core.resources.IMarker;
import org.eclipse.core.resources.IMarkerDelta;
import org.eclipse.core.resources.IResource;
import org.eclipse.core.resources.IResourceChangeEvent;
import org.eclipse.core.resources.IResourceChangeListener;
import org.eclipse.core.resources.ResourcesPlugin;
import org.eclipse.core.runtime.CoreException;
import org.eclipse.debug.core.model.IBreakpoint;
import org.eclipse.debug.ui.DebugUITools;
import org.eclipse.debug.ui.IDebugUIConstants;
import org.eclipse.debug.ui.actions.ToggleBreakpointAction;
import org.eclipse.jface.text.BadLocationException;
import org.eclipse.jface.text.IDocument;
import org.eclipse.jface.text.ITextInputListener;
import org.eclipse.jface.text.Position;
import org.eclipse.jface.text.source.Annotation;
import org.eclipse.jface.text.source.AnnotationModel;
import org.eclipse.jface.text.source.AnnotationRulerColumn;
import org.eclipse.jface.text.source.CompositeRuler;
import org.eclipse.jface.text.source.IAnnotationAccess;
import org.eclipse.jface.text.source.IAnnotationAccessExtension;
import org.eclipse.jface.text.source.IAnnotationPresentation;
import org.eclipse.jface.text.source.ImageUtilities;
import org.eclipse.jface.text.source.SourceViewer;
import org.eclipse.swt.SWT;
import org.eclipse.swt.events.MouseAdapter;
import org.eclipse.swt.events.MouseEvent;
import org.eclipse.swt.graphics.GC;
import org.eclipse.swt.graphics.Rectangle;
import org.eclipse.swt.custom.StyledText;
import org.eclipse.swt.widgets.Canvas;
import org.eclipse.swt.widgets.Control;
import org.eclipse.ui.IWorkbenchPart;
import org.hostir.studio.ui.DumpLines;
import org.hostir.studio.ui.NodeBreakpointMarkers;

/**
 * The breakpoint ruler beside the program text of the Lowering view (the AFTER pane): a double click beside a
 * node's line toggles a node breakpoint through the debugger's toggle target, as the Host IR Dump Editor's ruler
 * does (Run > Toggle Breakpoint's {@link ToggleBreakpointAction}, which asks the view for its file and text); the
 * file's node breakpoints are drawn at the lines of their nodes, redrawn when the text or the breakpoints change.
 */
final class BreakpointRuler {
    static final String TYPE = "org.hostir.studio.ui.passes.nodeBreakpoint";
    private final SourceViewer viewer;
    private final CompositeRuler ruler;
    private final AnnotationModel model = new AnnotationModel();
    private Supplier<IFile> file = () -> null;
    private IWorkbenchPart part;
    private final IResourceChangeListener markers = this::markersChanged;

    /** A ruler column on {@code viewer}, whose vertical ruler is {@code ruler}. */
    BreakpointRuler(SourceViewer viewer, CompositeRuler ruler) {
        this.viewer = viewer;
        this.ruler = ruler;
        AnnotationRulerColumn column = new AnnotationRulerColumn(model, 14, new Access());
        column.addAnnotationType(TYPE);
        ruler.addDecorator(0, column);
        viewer.addTextInputListener(new ITextInputListener() {
            @Override
            public void inputDocumentAboutToBeChanged(IDocument oldInput, IDocument newInput) { }

            @Override
            public void inputDocumentChanged(IDocument oldInput, IDocument newInput) { refresh(); }
        });
        ruler.getControl().addMouseListener(new MouseAdapter() {
            @Override
            public void mouseDoubleClick(MouseEvent e) { toggle(); }
        });
        ResourcesPlugin.getWorkspace().addResourceChangeListener(markers, IResourceChangeEvent.POST_CHANGE);
        viewer.getControl().addDisposeListener(e -> ResourcesPlugin.getWorkspace().removeResourceChangeListener(markers));
    }

    /** Breakpoints go on {@code file}'s nodes; {@code part} (the view) answers the file and the text. */
    void attach(IWorkbenchPart view, Supplier<IFile> shownFile) {
        this.part = view;
        this.file = shownFile;
        refresh();
    }

    private void toggle() {
        IDocument document = viewer.getDocument();
        if (part == null || document == null) return;
        new ToggleBreakpointAction(part, document, ruler).run();
    }

    private void markersChanged(IResourceChangeEvent event) {
        IFile f = file.get();
        if (f == null || event.findMarkerDeltas(NodeBreakpointMarkers.TYPE, true).length == 0) return;
        for (IMarkerDelta d : event.findMarkerDeltas(NodeBreakpointMarkers.TYPE, true)) {
            if (f.equals(d.getResource())) {
                viewer.getControl().getDisplay().asyncExec(() -> { if (!viewer.getControl().isDisposed()) refresh(); });
                return;
            }
        }
    }

    /** Draws the file's node breakpoints at their nodes' lines in the text shown now. */
    void refresh() {
        model.removeAllAnnotations();
        IDocument document = viewer.getDocument();
        IFile f = file.get();
        if (document == null || f == null || !f.exists()) return;
        var lines = DumpLines.nodes(document.get());
        try {
            for (IMarker m : f.findMarkers(NodeBreakpointMarkers.TYPE, true, IResource.DEPTH_ZERO)) {
                int node = m.getAttribute(NodeBreakpointMarkers.NODE, -1);
                boolean enabled = m.getAttribute(IBreakpoint.ENABLED, true);
                for (var e : lines.entrySet()) {
                    if (e.getValue().id() != node) continue;
                    int offset = document.getLineOffset(e.getKey() - 1);
                    model.addAnnotation(new Drawn(enabled, "breakpoint on node " + node), new Position(offset, 0));
                    break;
                }
            }
        } catch (CoreException | BadLocationException e) {
            // the file or the text went away meanwhile: nothing to draw
        }
    }

    /** The ruler's control (its columns take the double click). */
    Control control() { return ruler.getControl(); }

    /** The text the ruler is beside. */
    StyledText text() { return viewer.getTextWidget(); }

    /** The document shown beside the ruler (null before a pass is shown). */
    IDocument document() { return viewer.getDocument(); }

    /** The 1-based lines the ruler draws a breakpoint beside. */
    List<Integer> lines() {
        List<Integer> out = new ArrayList<>();
        IDocument document = viewer.getDocument();
        model.getAnnotationIterator().forEachRemaining(a -> {
            try {
                out.add(document.getLineOfOffset(model.getPosition(a).getOffset()) + 1);
            } catch (BadLocationException gone) {
                // not drawn
            }
        });
        out.sort(null);
        return out;
    }

    /** A breakpoint's mark: the debugger's breakpoint image, greyed when it is disabled. */
    private static final class Drawn extends Annotation implements IAnnotationPresentation {
        private final boolean enabled;

        Drawn(boolean enabled, String text) {
            super(TYPE, false, text);
            this.enabled = enabled;
        }

        @Override
        public int getLayer() { return IAnnotationPresentation.DEFAULT_LAYER; }

        @Override
        public void paint(GC gc, Canvas canvas, Rectangle bounds) {
            ImageUtilities.drawImage(DebugUITools.getImage(enabled ? IDebugUIConstants.IMG_OBJS_BREAKPOINT
                    : IDebugUIConstants.IMG_OBJS_BREAKPOINT_DISABLED), gc, canvas, bounds, SWT.CENTER, SWT.TOP);
        }
    }

    /** Just enough annotation access for the column to paint this ruler's one type. */
    private static final class Access implements IAnnotationAccess, IAnnotationAccessExtension {
        @Override
        public Object getType(Annotation a) { return a.getType(); }

        @Override
        public boolean isMultiLine(Annotation a) { return false; }

        @Override
        public boolean isTemporary(Annotation a) { return true; }

        @Override
        public String getTypeLabel(Annotation a) { return "Host IR node breakpoint"; }

        @Override
        public int getLayer(Annotation a) { return IAnnotationPresentation.DEFAULT_LAYER; }

        @Override
        public void paint(Annotation a, GC gc, Canvas canvas, Rectangle bounds) {
            if (a instanceof IAnnotationPresentation p) p.paint(gc, canvas, bounds);
        }

        @Override
        public boolean isPaintable(Annotation a) { return a instanceof IAnnotationPresentation; }

        @Override
        public boolean isSubtype(Object type, Object superType) { return type.equals(superType); }

        @Override
        public Object[] getSupertypes(Object type) { return new Object[] {type}; }
    }
}
