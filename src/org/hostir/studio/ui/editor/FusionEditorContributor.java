package org.hostir.studio.ui.editor;

import java.util.LinkedHashMap;
import java.util.Map;

import org.eclipse.jface.action.IStatusLineManager;
import org.eclipse.ui.IEditorPart;
import org.eclipse.ui.part.MultiPageEditorActionBarContributor;
import org.eclipse.ui.texteditor.ITextEditor;
import org.eclipse.ui.texteditor.ITextEditorActionConstants;
import org.eclipse.ui.texteditor.ITextEditorActionDefinitionIds;
import org.eclipse.ui.texteditor.ITextEditorExtension;
import org.eclipse.ui.texteditor.StatusLineContributionItem;

/**
 * The fusion editor's action bar contributor: the status line fields of Eclipse's Text Editor (Writable, Insert or
 * Overwrite, line : column) while the Source page is in front. A text editor only fills the fields its contributor
 * hands it; nested in a multi-page editor it was handed none, so the Source page's status line stayed empty while
 * the Text Editor's showed them (issue 35). On the Graph page, which has no caret, the fields are hidden.
 */
public final class FusionEditorContributor extends MultiPageEditorActionBarContributor {
    /** Each field's category, and the action a double-click on it runs (as the Text Editor's contributor does). */
    private static final Map<String, String> FIELDS = fields();

    /** The Text Editor's width of the Writable field, in characters: one more than the others' default of 19. */
    private static final int STATE_WIDTH = 20;

    private final Map<String, StatusLineContributionItem> items = new LinkedHashMap<>();
    /** The text editor that holds the fields now, or none. */
    private ITextEditorExtension holder;

    public FusionEditorContributor() {
        for (String category : FIELDS.keySet()) {
            items.put(category, category.equals(ITextEditorActionConstants.STATUS_CATEGORY_ELEMENT_STATE)
                    ? new StatusLineContributionItem(category, true, STATE_WIDTH) : new StatusLineContributionItem(category));
        }
    }

    private static Map<String, String> fields() {
        Map<String, String> m = new LinkedHashMap<>();
        m.put(ITextEditorActionConstants.STATUS_CATEGORY_ELEMENT_STATE, null);
        m.put(ITextEditorActionConstants.STATUS_CATEGORY_INPUT_MODE, ITextEditorActionDefinitionIds.TOGGLE_OVERWRITE);
        m.put(ITextEditorActionConstants.STATUS_CATEGORY_INPUT_POSITION, ITextEditorActionConstants.GOTO_LINE);
        return m;
    }

    @Override
    public void contributeToStatusLine(IStatusLineManager statusLine) {
        super.contributeToStatusLine(statusLine);
        for (StatusLineContributionItem item : items.values()) statusLine.add(item);
    }

    /**
     * Another fusion editor (or this one again) comes to the front: the fields go to its page in front. The
     * workbench passes the multi-page editor itself here, its page changes come to {@link #setActivePage}.
     */
    @Override
    public void setActiveEditor(IEditorPart part) {
        setActivePage(part instanceof FusionEditor fusion ? fusion.sourceInFront() : null);
    }

    /** The page in front: the Source page's text editor, or null for the Graph page. */
    @Override
    public void setActivePage(IEditorPart page) {
        if (holder != null && holder != page) {
            for (String category : FIELDS.keySet()) holder.setStatusField(null, category);
        }
        holder = page instanceof ITextEditorExtension ext && page instanceof ITextEditor ? ext : null;
        for (Map.Entry<String, StatusLineContributionItem> field : items.entrySet()) {
            StatusLineContributionItem item = field.getValue();
            item.setVisible(holder != null);
            if (holder == null) continue;
            String action = FIELDS.get(field.getKey());
            item.setActionHandler(action == null ? null : ((ITextEditor) page).getAction(action));
            holder.setStatusField(item, field.getKey());   // the editor writes its state there now and at each change
        }
        if (getActionBars() != null) getActionBars().getStatusLineManager().update(true);
    }

    @Override
    public void dispose() {
        setActivePage(null);
        super.dispose();
    }
}
