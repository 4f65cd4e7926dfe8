package org.hostir.studio.ui.editor;

import org.eclipse.core.commands.AbstractHandler;
import org.eclipse.core.commands.ExecutionEvent;
import org.eclipse.jface.action.Action;
import org.eclipse.jface.action.IAction;
import org.eclipse.jface.action.IMenuManager;
import org.eclipse.jface.action.MenuManager;
import org.eclipse.jface.action.Separator;
import org.eclipse.jface.viewers.ISelectionProvider;
import org.eclipse.ui.IWorkbenchCommandConstants;
import org.eclipse.ui.handlers.IHandlerService;
import org.hostir.studio.file.OpKind;

/**
 * The graph page's commands: its context menu (add an input or an op, rename, toggle output, delete, make a sharding
 * explicit or clear it to inferred, auto layout;
 * open to contributions as {@code org.hostir.studio.editor.graph}) and the workbench's Delete and Rename, which act
 * on the graph while it is the active page and something is selected. Each command is one edit of the editor.
 */
final class GraphCommands {
    private static final String MENU_ID = "org.hostir.studio.editor.graph";
    private static final String ZOOM_IN = "org.eclipse.ui.edit.text.zoomIn";
    private static final String ZOOM_OUT = "org.eclipse.ui.edit.text.zoomOut";
    /** The graph's keys for a sharding made explicit and one cleared to inferred (issue 34). */
    static final char EXPLICIT_KEY = 'e';
    static final char INFERRED_KEY = 'i';

    private GraphCommands() {}

    static void install(FusionEditor editor, ISelectionProvider selection) {
        GraphPage graph = editor.graph();
        IHandlerService handlers = editor.getSite().getService(IHandlerService.class);
        handlers.activateHandler(IWorkbenchCommandConstants.EDIT_DELETE, new GraphHandler(editor, graph::deleteSelection));
        handlers.activateHandler(IWorkbenchCommandConstants.FILE_RENAME, new GraphHandler(editor, graph::startRename));
        // Ctrl+= and Ctrl+- are the text editors' zoom keys: on the graph page they zoom the graph
        handlers.activateHandler(ZOOM_IN, new GraphHandler(editor, () -> graph.zoom(1.25), false));
        handlers.activateHandler(ZOOM_OUT, new GraphHandler(editor, () -> graph.zoom(0.8), false));
        MenuManager menu = new MenuManager("#FusionGraph", MENU_ID);
        menu.setRemoveAllWhenShown(true);
        menu.addMenuListener(m -> fillContextMenu(m, editor));
        var canvas = graph.viewer().canvas();
        canvas.setMenu(menu.createContextMenu(canvas));
        editor.getSite().registerContextMenu(MENU_ID, menu, selection);
    }

    private static void fillContextMenu(IMenuManager m, FusionEditor editor) {
        GraphPage graph = editor.graph();
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
        m.add(new Separator());
        m.add(action("Make sharding explicit\tE", graph::makeShardingExplicit));
        m.add(action("Clear sharding to inferred\tI", graph::clearShardingToInferred));
        m.add(new Separator());
        m.add(action("Auto layout", graph::autoLayout));
        m.add(new Separator("additions"));
    }

    private static IAction action(String text, Runnable run) {
        return new Action(text) {
            @Override
            public void run() { run.run(); }
        };
    }

    /** A handler that runs on the graph page only (with something selected, unless told otherwise). */
    private static final class GraphHandler extends AbstractHandler {
        private final FusionEditor editor;
        private final Runnable run;
        private final boolean needsSelection;

        GraphHandler(FusionEditor editor, Runnable run) { this(editor, run, true); }

        GraphHandler(FusionEditor editor, Runnable run, boolean needsSelection) {
            this.editor = editor;
            this.run = run;
            this.needsSelection = needsSelection;
        }

        @Override
        public Object execute(ExecutionEvent event) {
            run.run();
            return null;
        }

        @Override
        public boolean isEnabled() {
            return editor.graphPageActive() && (!needsSelection || !editor.graph().viewer().selection().isEmpty());
        }
    }
}
