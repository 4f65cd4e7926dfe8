package org.hostir.studio.ui.editor;

import java.util.function.BiConsumer;

import org.eclipse.swt.dnd.DND;
import org.eclipse.swt.dnd.DragSource;
import org.eclipse.swt.dnd.DragSourceAdapter;
import org.eclipse.swt.dnd.DragSourceEvent;
import org.eclipse.swt.dnd.DropTarget;
import org.eclipse.swt.dnd.DropTargetAdapter;
import org.eclipse.swt.dnd.DropTargetEvent;
import org.eclipse.swt.dnd.TextTransfer;
import org.eclipse.swt.dnd.Transfer;
import org.eclipse.swt.graphics.Point;
import org.eclipse.swt.widgets.Button;
import org.eclipse.swt.widgets.Control;
import org.hostir.studio.file.OpKind;

/**
 * Dragging a palette item onto the graph adds it where it is dropped (GEF's palette creation by drag): the item
 * travels as the text {@code hostir-palette:<op>} ({@code input} for an input tensor).
 */
final class PaletteDrop {
    private static final String PREFIX = "hostir-palette:";
    private static final String INPUT = "input";

    private PaletteDrop() {}

    /** Makes a palette button draggable; {@code kind} null is the input tensor. */
    static void source(Button button, OpKind kind) {
        DragSource source = new DragSource(button, DND.DROP_COPY);
        source.setTransfer(TextTransfer.getInstance());
        source.addDragListener(new DragSourceAdapter() {
            @Override
            public void dragSetData(DragSourceEvent e) {
                e.data = PREFIX + (kind == null ? INPUT : kind.fileName());
            }
        });
    }

    /** Accepts palette items on {@code canvas}: {@code drop} gets the kind (null: input) and the canvas point. */
    static void target(Control canvas, BiConsumer<OpKind, Point> drop) {
        DropTarget target = new DropTarget(canvas, DND.DROP_COPY | DND.DROP_DEFAULT);
        target.setTransfer(new Transfer[] { TextTransfer.getInstance() });
        target.addDropListener(new DropTargetAdapter() {
            @Override
            public void dragEnter(DropTargetEvent e) {
                if (e.detail == DND.DROP_DEFAULT) e.detail = DND.DROP_COPY;
            }

            @Override
            public void drop(DropTargetEvent e) {
                if (!(e.data instanceof String s) || !s.startsWith(PREFIX)) return;
                String item = s.substring(PREFIX.length());
                Point at = canvas.toControl(e.x, e.y);
                if (item.equals(INPUT)) drop.accept(null, at);
                else OpKind.fromFileName(item).ifPresent(k -> drop.accept(k, at));
            }
        });
    }
}
