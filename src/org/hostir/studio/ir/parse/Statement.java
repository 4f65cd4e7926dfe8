package org.hostir.studio.ir.parse;

import org.hostir.studio.ir.host.HostNode;
import org.hostir.studio.ir.host.HostUnit;

/**
 * One statement of a container's body before nesting: a node (a FOR or IF with empty bodies is a header that
 * opens one), the ELSE marker, or a HostUnit's definition. {@code column} is where it starts on its line, -1 when
 * the dump lost its line breaks; {@code start}/{@code end} are character offsets.
 */
record Statement(Kind kind, HostNode node, HostUnit unit, int start, int end, int column) {
    enum Kind { NODE, ELSE, UNIT }
}
