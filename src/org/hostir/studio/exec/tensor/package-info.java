/**
 * Host tensors and the meaning of fusion ops on them: {@link org.hostir.studio.exec.tensor.DenseTensor} (strided
 * float32 views, rounding on store to bfloat16 and half), {@link org.hostir.studio.exec.tensor.OpKernels},
 * the unsharded {@link org.hostir.studio.exec.tensor.ReferenceInterpreter} (DESIGN 2.3's oracle), input
 * generation, sharding and gathering, and comparison within the error bound the reference carries beside each
 * value ({@link org.hostir.studio.exec.tensor.Reference}, docs/validation.md).
 *
 * <p>Runtime conventions, which the evaluator and the backends follow: a runtime tensor's shape is its
 * TensorView's axes without the reduction axes (they do not exist at run time), in order; broadcast axes have size
 * 1; a DID axis has its full extent in the unsharded (reference) world and size 1 in a rank's local world
 * (nvFuser's convention); symbolic extents take their values from a binding map (user symbol name to value,
 * {@code D} = number of devices). Every dtype is stored as float32; bfloat16 and half values are rounded to
 * nearest even on every store and widened back.
 */
package org.hostir.studio.exec.tensor;
