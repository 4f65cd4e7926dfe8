package org.hostir.studio.tests.trace;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;

import javax.xml.parsers.DocumentBuilderFactory;

import org.hostir.studio.trace.EventKind;
import org.hostir.studio.trace.Timeline;
import org.hostir.studio.trace.TimelineEvent;
import org.hostir.studio.trace.TimelineSvg;
import org.junit.jupiter.api.Test;
import org.w3c.dom.Document;
import org.w3c.dom.Element;
import org.w3c.dom.NodeList;

class TimelineSvgTest {
    @Test
    void barsOfTheWindowAreDrawnToScaleAndThePathIsOutlined() throws Exception {
        TimelineEvent gemm = new TimelineEvent(0, 0, EventKind.MATMUL, "gemm <T1 & T2>", 1, -1, 0, 500, 0, 0, -1, 0);
        TimelineEvent late = new TimelineEvent(1, 0, EventKind.KERNEL, "after", 2, -1, 2000, 3000, 0, 0, -1, 0);
        Timeline t = new Timeline(List.of(gemm, late), Map.of());
        String svg = TimelineSvg.of(t, 0, 1000, 1150, Map.of(EventKind.MATMUL, "#1f77b4"), List.of(gemm));
        Document doc = DocumentBuilderFactory.newInstance().newDocumentBuilder()
                .parse(new ByteArrayInputStream(svg.getBytes(StandardCharsets.UTF_8)));
        NodeList rects = doc.getElementsByTagName("rect");
        assertEquals(2, rects.getLength(), "the background and gemm: the other bar is outside the window");
        Element bar = (Element) rects.item(1);
        assertEquals("150.00", bar.getAttribute("x"), "after the 150-pixel labels");
        assertEquals("500.00", bar.getAttribute("width"), "500 ns of a 1000 ns window on 1000 pixels");
        assertEquals("#1f77b4", bar.getAttribute("fill"));
        assertEquals("#e00000", bar.getAttribute("stroke"));
        assertTrue(bar.getTextContent().startsWith("gemm <T1 & T2> (matmul, "), bar.getTextContent());
        assertThrows(IllegalArgumentException.class, () -> TimelineSvg.of(t, 5, 5, 300, Map.of(), List.of()));
    }
}
