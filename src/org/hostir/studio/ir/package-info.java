/** Fusion IR: immutable tensors, iter domains, device meshes and fusion ops (the bottom layer; no Eclipse or SWT imports). */
package org.hostir.studio.ir;
