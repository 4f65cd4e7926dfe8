package org.hostir.studio.ui.passes;

import java.io.ByteArrayInputStream;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;

import org.eclipse.compare.IEncodedStreamContentAccessor;
import org.eclipse.compare.ITypedElement;
import org.eclipse.swt.graphics.Image;

/** A printed snapshot as one side of the compare viewer: plain text, UTF-8, read only. */
record TextInput(String name, String text) implements ITypedElement, IEncodedStreamContentAccessor {
    @Override
    public String getName() { return name; }

    @Override
    public Image getImage() { return null; }

    @Override
    public String getType() { return ITypedElement.TEXT_TYPE; }

    @Override
    public InputStream getContents() { return new ByteArrayInputStream(text.getBytes(StandardCharsets.UTF_8)); }

    @Override
    public String getCharset() { return StandardCharsets.UTF_8.name(); }
}
