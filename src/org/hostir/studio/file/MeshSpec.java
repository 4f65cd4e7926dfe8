package org.hostir.studio.file;

import java.util.List;

/**
 * A tensor's device mesh as a fusion file writes it: an explicit list of device ids, {@code "all"} (the devices
 * 0 .. D-1, sized by {@code --devices}), or absent (a single-device fusion, printed without a mesh).
 */
public sealed interface MeshSpec {

    /**
     * Device ids in row-major order over {@code shape}: {@code [n]} for a list, {@code [rows, columns]} for a
     * list of rows ({@code [[0, 1], [2, 3]]}, hostir-fusion/2), DIDx sharding along the columns, DIDy the rows.
     */
    record Devices(List<Integer> ids, List<Integer> shape) implements MeshSpec {
        public Devices {
            ids = List.copyOf(ids);
            shape = shape == null || shape.isEmpty() ? List.of(ids.size()) : List.copyOf(shape);
        }

        public Devices(List<Integer> ids) { this(ids, null); }

        public boolean isGrid() { return shape.size() > 1; }
    }

    record AllDevices() implements MeshSpec {}

    record Absent() implements MeshSpec {}

    MeshSpec ALL = new AllDevices();
    MeshSpec ABSENT = new Absent();

    static MeshSpec of(Integer... ids) { return new Devices(List.of(ids)); }
}
