/**
 * The fusion file: {@code .fusion} documents ({@code hostir-fusion/1} and {@code /2}) read from JSON with line
 * tracking ({@code SourceMap}), their document model, conversion to the IR, loading (read, convert, validate)
 * and writing back; {@code AtomicFiles}, how every file of the project is written. What a fusion means is
 * {@code rules}'; where a problem is, {@code diag}'s.
 */
package org.hostir.studio.file;
