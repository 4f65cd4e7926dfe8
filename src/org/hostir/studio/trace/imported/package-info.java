/**
 * Traces of real runs read into the {@code trace} model: PyTorch profiler (Kineto) JSON, one file per rank or
 * several ranks in one, and nvFuser's {@code NVFUSER_TRACE} host trace; NCCL kernels become communications.
 */
package org.hostir.studio.trace.imported;
