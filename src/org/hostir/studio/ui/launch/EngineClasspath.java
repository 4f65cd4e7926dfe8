package org.hostir.studio.ui.launch;

import java.io.File;
import java.util.ArrayList;
import java.util.List;

import org.eclipse.core.runtime.CoreException;
import org.eclipse.core.runtime.FileLocator;
import org.eclipse.core.runtime.IStatus;
import org.eclipse.core.runtime.Status;
import org.osgi.framework.Bundle;
import org.osgi.framework.FrameworkUtil;

/**
 * The plain classpath of the engine, taken from the installed bundles: our bundle's jar (or its class folder when
 * run from a workspace) and Gson's. The launched JVM runs the same engine code the IDE has, outside OSGi.
 */
final class EngineClasspath {
    static final String MAIN = "org.hostir.studio.cli.Main";

    private EngineClasspath() {}

    static String get() throws CoreException {
        List<String> entries = new ArrayList<>();
        entries.addAll(locations(FrameworkUtil.getBundle(EngineClasspath.class)));
        entries.addAll(locations(FrameworkUtil.getBundle(com.google.gson.Gson.class)));
        return String.join(File.pathSeparator, entries);
    }

    private static List<String> locations(Bundle bundle) throws CoreException {
        if (bundle == null) throw error("a bundle of the engine is not installed");
        File file = FileLocator.getBundleFileLocation(bundle)
                .orElseThrow(() -> error("cannot locate bundle " + bundle.getSymbolicName() + " on disk"));
        if (file.isFile()) return List.of(file.getAbsolutePath());
        // a bundle folder (development): its compiled classes are in bin/ or target/classes
        for (String sub : List.of("target/classes", "bin")) {
            File classes = new File(file, sub);
            if (classes.isDirectory()) return List.of(classes.getAbsolutePath());
        }
        return List.of(file.getAbsolutePath());
    }

    private static CoreException error(String message) {
        return new CoreException(Status.error(message));
    }

    static IStatus ok() { return Status.OK_STATUS; }
}
