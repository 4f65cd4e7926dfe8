/**
 * What a pass changed: {@link org.hostir.studio.diff.TreeDiff} compares two Host IR programs node by node (ids
 * first, then structure) for the pass inspector's tree; {@link org.hostir.studio.diff.TextDiff} is the unified
 * diff of their printed text. Pure functions over immutable IR; no UI dependencies.
 */
package org.hostir.studio.diff;
