package org.hostir.studio.ui;

import org.eclipse.jface.resource.JFaceResources;
import org.eclipse.swt.SWT;
import org.eclipse.swt.layout.GridData;
import org.eclipse.swt.layout.GridLayout;
import org.eclipse.swt.widgets.Composite;
import org.eclipse.swt.widgets.Label;
import org.eclipse.ui.part.ViewPart;
import org.osgi.framework.Bundle;
import org.osgi.framework.FrameworkUtil;

/**
 * The "Host IR" view: a placeholder that shows the product name and the bundle version, so that the build and
 * the workbench smoke test have a view contributed by {@code plugin.xml} to open. Later UI issues (fusion
 * editor, lowering view, timeline) replace it.
 */
public class WelcomeView extends ViewPart {
    /** The view id in {@code plugin.xml}. */
    public static final String ID = "org.hostir.studio.ui.WelcomeView";
    /** The title the view shows. */
    public static final String TITLE = "Host IR Studio";

    private Composite root;
    private Label title;
    private Label version;

    @Override
    public void createPartControl(Composite parent) {
        root = new Composite(parent, SWT.NONE);
        root.setLayout(new GridLayout(1, false));
        title = new Label(root, SWT.NONE);
        title.setText(TITLE);
        title.setFont(JFaceResources.getHeaderFont());
        title.setLayoutData(new GridData(SWT.FILL, SWT.TOP, true, false));
        version = new Label(root, SWT.NONE);
        version.setText("version " + bundleVersion());
        version.setLayoutData(new GridData(SWT.FILL, SWT.TOP, true, false));
    }

    /** The version of the org.hostir.studio bundle, or "unknown" outside OSGi. */
    public static String bundleVersion() {
        Bundle bundle = FrameworkUtil.getBundle(WelcomeView.class);
        return bundle == null ? "unknown" : bundle.getVersion().toString();
    }

    /** The text of the title label (for tests). */
    public String titleText() {
        return title == null || title.isDisposed() ? null : title.getText();
    }

    /** The text of the version label (for tests). */
    public String versionText() {
        return version == null || version.isDisposed() ? null : version.getText();
    }

    @Override
    public void setFocus() {
        if (root != null && !root.isDisposed()) {
            root.setFocus();
        }
    }
}
