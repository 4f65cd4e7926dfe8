/**
 * Diagnostics, the one location model: a {@code Diagnostic} is about a typed {@code Subject} (a tensor, axis,
 * mesh, op, JSON place or setting), breaks a {@code Rule}, and is put at a file line by a {@code FusionLocator}.
 * The bottom layer, using nothing of the project, so that every layer (the IR, lowering, execution) can carry
 * typed diagnostics; also the escaping of user text on its way to a terminal ({@code TerminalText}).
 */
package org.hostir.studio.diag;
