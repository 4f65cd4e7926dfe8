/** Fusion file (hostir-fusion/1 JSON) reading and writing, and diagnostics with file positions. */
package org.hostir.studio.io;
