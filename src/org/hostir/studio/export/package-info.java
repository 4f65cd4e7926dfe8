/**
 * Exporting a fusion to nvFuser: {@link org.hostir.studio.export.CppTestExporter} writes the body of an nvFuser C++
 * test in the style of the seeds' tests, {@link org.hostir.studio.export.PythonExporter} a script for nvFuser's
 * Python frontend ({@code nvfuser_direct}) as its multi-device tests use it. docs/nvfuser-interop.md lists every
 * call either makes and the nvFuser source it follows.
 */
package org.hostir.studio.export;
