package org.hostir.studio.ui.editor;

import java.util.ArrayList;
import java.util.List;
import java.util.function.BooleanSupplier;

import org.eclipse.core.commands.AbstractHandler;
import org.eclipse.core.commands.ExecutionEvent;
import org.eclipse.core.commands.IHandler;
import org.eclipse.jface.action.Action;
import org.eclipse.jface.action.IAction;
import org.eclipse.jface.action.IMenuManager;
import org.eclipse.jface.action.MenuManager;
import org.eclipse.jface.action.Separator;
import org.eclipse.jface.viewers.ISelectionProvider;
import org.eclipse.swt.widgets.Text;
import org.eclipse.ui.IWorkbenchCommandConstants;
import org.eclipse.ui.handlers.IHandlerActivation;
import org.eclipse.ui.handlers.IHandlerService;
import org.hostir.studio.file.OpKind;
import org.hostir.studio.ui.editor.model.Arrange;

/**
 * The graph page's commands: its context menu (add an input or an op, rename, toggle output, delete, copy, paste,
 * duplicate, align, make a sharding explicit or clear it to inferred, auto layout; open to contributions as
 * {@code org.hostir.studio.editor.graph}) and the workbench's Delete, Rename, Select All, Cut, Copy, Paste and the
 * editor's Duplicate (Ctrl+D), which act on the graph. The clipboard commands are active only while the Graph page
 * shows, so the Source page keeps its text's own.
 */
final class GraphCommands {
    private static final String MENU_ID = "org.hostir.studio.editor.graph";
    private static final String ZOOM_IN = "org.eclipse.ui.edit.text.zoomIn";
    private static final String ZOOM_OUT = "org.eclipse.ui.edit.text.zoomOut";
    /** The graph's keys for a sharding made explicit and one cleared to inferred (issue 34). */
    static final char EXPLICIT_KEY = 'e';
    static final char INFERRED_KEY = 'i';
    /** The editor's Duplicate command (plugin.xml binds Ctrl+D to it). */
    static final String DUPLICATE = "org.hostir.studio.editor.duplicate";

    private final FusionEditor editor;
    private final IHandlerService handlers;
    private final List<IHandlerActivation> graphOnly = new ArrayList<>();

    private GraphCommands(FusionEditor editor) {
        this.editor = editor;
        this.handlers = editor.getSite().getService(IHandlerService.class);
    }

    static GraphCommands install(FusionEditor editor, ISelectionProvider selection) {
        GraphCommands c = new GraphCommands(editor);
        GraphPage graph = editor.graph();
        IHandlerService handlers = c.handlers;
        handlers.activateHandler(IWorkbenchCommandConstants.EDIT_DELETE, new GraphHandler(editor, graph::deleteSelection));
        handlers.activateHandler(IWorkbenchCommandConstants.FILE_RENAME, new GraphHandler(editor, graph::startRename));
        // Ctrl+= and Ctrl+- are the text editors' zoom keys: on the graph page they zoom the graph
        handlers.activateHandler(ZOOM_IN, new GraphHandler(editor, () -> graph.zoom(1.25), false));
        handlers.activateHandler(ZOOM_OUT, new GraphHandler(editor, () -> graph.zoom(0.8), false));
        // Ctrl+F (Find/Replace) on the graph page opens the graph's find bar
        handlers.activateHandler(IWorkbenchCommandConstants.EDIT_FIND_AND_REPLACE, new GraphHandler(editor, graph::showFind, false));
        MenuManager menu = new MenuManager("#FusionGraph", MENU_ID);
        menu.setRemoveAllWhenShown(true);
        menu.addMenuListener(m -> fillContextMenu(m, editor));
        var canvas = graph.viewer().canvas();
        canvas.setMenu(menu.createContextMenu(canvas));
        editor.getSite().registerContextMenu(MENU_ID, menu, selection);
        c.setGraphPageActive(true);
        return c;
    }

    /** Activates the clipboard and selection commands on the Graph page, and gives them back to the Source page's text. */
    void setGraphPageActive(boolean on) {
        if (!on) {
            handlers.deactivateHandlers(graphOnly);
            graphOnly.clear();
            return;
        }
        if (!graphOnly.isEmpty()) return;
        GraphEditing e = editor.graph().editing();
        // while a text field of the page has the keyboard (the find bar, the rename box) the keys are the text's
        activate(IWorkbenchCommandConstants.EDIT_SELECT_ALL,
                new TextOrGraph(new GraphHandler(editor, e::selectAll, () -> true), Text::selectAll));
        activate(IWorkbenchCommandConstants.EDIT_COPY, new TextOrGraph(new GraphHandler(editor, e::copy, e::canCopy), Text::copy));
        activate(IWorkbenchCommandConstants.EDIT_CUT, new TextOrGraph(new GraphHandler(editor, e::cut, e::canCopy), Text::cut));
        activate(IWorkbenchCommandConstants.EDIT_PASTE,
                new TextOrGraph(new GraphHandler(editor, e::paste, GraphEditing::canPaste), Text::paste));
        activate(DUPLICATE, new GraphHandler(editor, e::duplicate, e::canCopy));
    }

    private void activate(String command, IHandler handler) { graphOnly.add(handlers.activateHandler(command, handler)); }

    private static void fillContextMenu(IMenuManager m, FusionEditor editor) {
        GraphPage graph = editor.graph();
        GraphEditing e = graph.editing();
        MenuManager add = new MenuManager("Add op");
        for (OpKind kind : OpKind.values()) {
            add.add(action(kind.fileName(), () -> editor.commands().addOp(kind, graph.selectedTensors())));
        }
        m.add(action("Add input tensor", editor.commands()::addInputTensor));
        m.add(add);
        m.add(new Separator());
        m.add(action("Rename (F2)", graph::startRename));
        m.add(action("Toggle fusion output", graph::toggleOutput));
        m.add(action("Delete", graph::deleteSelection));
        m.add(action("Group selection (Ctrl+G)", graph::groupSelection));
        m.add(new Separator());
        m.add(action("Copy\tCtrl+C", e::copy));
        IAction paste = action("Paste\tCtrl+V", e::paste);
        paste.setEnabled(GraphEditing.canPaste());
        m.add(paste);
        m.add(action("Duplicate\tCtrl+D", e::duplicate));
        m.add(action("Select all\tCtrl+A", e::selectAll));
        m.add(arrangeMenu(e));
        m.add(new Separator());
        m.add(action("Make sharding explicit\tE", graph::makeShardingExplicit));
        m.add(action("Clear sharding to inferred\tI", graph::clearShardingToInferred));
        m.add(new Separator());
        m.add(action("Auto layout", graph::autoLayout));
        m.add(new Separator("additions"));
    }

    /** Align (on the node selected last) and Distribute, as GEF Logic's alignment actions. */
    private static MenuManager arrangeMenu(GraphEditing e) {
        MenuManager align = new MenuManager("&Align");
        for (Arrange.Alignment a : Arrange.Alignment.values()) align.add(action(a.label, () -> e.align(a)));
        align.add(new Separator());
        align.add(action("Distribute horizontally", () -> e.distribute(true)));
        align.add(action("Distribute vertically", () -> e.distribute(false)));
        return align;
    }

    private static IAction action(String text, Runnable run) {
        return new Action(text) {
            @Override
            public void run() { run.run(); }
        };
    }

    /** A handler that runs on the graph page only (with something selected, unless told otherwise). */
    /** A clipboard or selection command: the focused text field's own, else the graph's. */
    private static final class TextOrGraph extends AbstractHandler {
        private final GraphHandler graph;
        private final java.util.function.Consumer<Text> onText;

        TextOrGraph(GraphHandler graph, java.util.function.Consumer<Text> onText) {
            this.graph = graph;
            this.onText = onText;
        }

        private static Text focusedText() {
            var display = org.eclipse.swt.widgets.Display.getCurrent();
            return display != null && display.getFocusControl() instanceof Text t ? t : null;
        }

        @Override
        public Object execute(ExecutionEvent event) {
            Text text = focusedText();
            if (text != null) onText.accept(text);
            else graph.execute(event);
            return null;
        }

        @Override
        public boolean isEnabled() { return focusedText() != null || graph.isEnabled(); }
    }

    private static final class GraphHandler extends AbstractHandler {
        private final FusionEditor editor;
        private final Runnable run;
        private final BooleanSupplier enabled;

        GraphHandler(FusionEditor editor, Runnable run) { this(editor, run, true); }

        GraphHandler(FusionEditor editor, Runnable run, boolean needsSelection) {
            this(editor, run, () -> !needsSelection || !editor.graph().viewer().selection().isEmpty());
        }

        GraphHandler(FusionEditor editor, Runnable run, BooleanSupplier enabled) {
            this.editor = editor;
            this.run = run;
            this.enabled = enabled;
        }

        @Override
        public Object execute(ExecutionEvent event) {
            run.run();
            return null;
        }

        @Override
        public boolean isEnabled() { return editor.graphPageActive() && enabled.getAsBoolean(); }
    }
}
