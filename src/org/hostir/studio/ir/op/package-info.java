/**
 * One definition per op family (docs/architecture.md, "What each package owns"): name, arity and attributes in
 * fusion files, the IR op built from them, the symbolic shape and dtype rules, the extents an output takes, the
 * dump spelling and the C++ and Python export spelling. The file reader, the validator, symbol numbering, the
 * printer, both exporters and the editor's shape inference ask {@link org.hostir.studio.ir.op.Ops#of} rather
 * than switching over {@link org.hostir.studio.ir.FusionOp}; backends keep exhaustive switches for their kernels.
 */
package org.hostir.studio.ir.op;
