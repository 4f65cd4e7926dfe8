package org.hostir.studio.io;

import java.util.List;

/**
 * A tensor's device mesh as a fusion file writes it: an explicit list of device ids, {@code "all"} (the devices
 * 0 .. D-1, sized by {@code --devices}), or absent (a single-device fusion, printed without a mesh).
 */
public sealed interface MeshSpec {

    record Devices(List<Integer> ids) implements MeshSpec {
        public Devices {
            ids = List.copyOf(ids);
        }
    }

    record AllDevices() implements MeshSpec {}

    record Absent() implements MeshSpec {}

    MeshSpec ALL = new AllDevices();
    MeshSpec ABSENT = new Absent();

    static MeshSpec of(Integer... ids) { return new Devices(List.of(ids)); }
}
