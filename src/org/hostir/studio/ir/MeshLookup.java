package org.hostir.studio.ir;

/**
 * A lookup in a DeviceMesh, nvFuser's {@code DeviceMesh::at} and {@code DeviceMesh::idxOf}: the device id at a
 * position of the mesh, or the position (the DIDx index, {@code deviceIdx.x}) of a device id. Peers and roots of
 * communications are device ids while loop indices and slices count positions; on a mesh {0 .. n-1} the two
 * coincide and {@link Scalar#deviceAt}/{@link Scalar#positionIn} fold the lookup away.
 */
public record MeshLookup(Kind kind, DeviceMesh mesh, Scalar argument) implements Scalar {
    public enum Kind {
        /** The device id at position {@code argument}; printed {@code DeviceMesh{1 0}.at(StreamIdx)}. */
        AT("at"),
        /** The position of device id {@code argument}, -1 when absent; printed {@code .idxOf(rank)}. */
        IDX_OF("idxOf");

        private final String method;

        Kind(String method) { this.method = method; }

        public String method() { return method; }
    }

    public MeshLookup {
        if (kind == null || mesh == null || argument == null) throw new IllegalArgumentException("incomplete lookup");
    }

    /** True when every device sits at the position of its own id, so both lookups are the identity. */
    public static boolean isIdentity(DeviceMesh mesh) {
        if (mesh.deviceIds() instanceof DeviceRange) return true; // {0 .. n-1}, known without reading n ids
        for (int i = 0; i < mesh.size(); i++) {
            if (mesh.deviceIds().get(i) != i) return false;
        }
        return true;
    }
}
