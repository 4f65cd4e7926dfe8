package org.hostir.studio.tests.trace;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;

import org.hostir.studio.trace.EventKind;
import org.hostir.studio.trace.Timeline;
import org.hostir.studio.trace.TimelineEvent;
import org.hostir.studio.trace.TimelineSvg;
import org.junit.jupiter.api.Test;

class TimelineSvgTest {
    @Test
    void barsOfTheWindowAreDrawnToScaleAndThePathIsOutlined() {
        TimelineEvent gemm = new TimelineEvent(0, 0, EventKind.MATMUL, "gemm <T1 & T2>", 1, -1, 0, 500, 0, 0, -1, 0);
        TimelineEvent late = new TimelineEvent(1, 0, EventKind.KERNEL, "after", 2, -1, 2000, 3000, 0, 0, -1, 0);
        Timeline t = new Timeline(List.of(gemm, late), Map.of());
        String svg = TimelineSvg.of(t, 0, 1000, 1150, Map.of(EventKind.MATMUL, "#1f77b4"), List.of(gemm));
        // (the GPU machine's runtime has no java.xml: the elements are read with patterns)
        List<String> rects = Pattern.compile("<rect [^>]*>").matcher(svg).results().map(m -> m.group()).toList();
        assertEquals(2, rects.size(), "the background and gemm: the other bar is outside the window");
        assertEquals("<rect x=\"150.00\" y=\"28\" width=\"500.00\" height=\"20\" fill=\"#1f77b4\" stroke=\"#cc0088\""
                + " stroke-width=\"2\">", rects.get(1), "after the 150-pixel labels, 500 ns of 1000 on 1000 pixels");
        assertTrue(svg.contains("<title>gemm &lt;T1 &amp; T2&gt; (matmul, "), svg);
        assertTrue(svg.startsWith("<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"1150\""), svg);
        assertTrue(svg.strip().endsWith("</svg>"));
        assertThrows(IllegalArgumentException.class, () -> TimelineSvg.of(t, 5, 5, 300, Map.of(), List.of()));
    }
}
