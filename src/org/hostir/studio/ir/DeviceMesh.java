package org.hostir.studio.ir;

import java.util.List;

/** The devices a tensor is placed on; a DIDx axis is sharded across them in order. */
public record DeviceMesh(List<Integer> deviceIds) {
    public DeviceMesh {
        deviceIds = List.copyOf(deviceIds);
    }

    public static DeviceMesh of(Integer... ids) { return new DeviceMesh(List.of(ids)); }

    /** The mesh {0 .. n-1}, nvFuser's {@code DeviceMesh::createForNumDevices}. */
    public static DeviceMesh forNumDevices(int n) {
        return new DeviceMesh(java.util.stream.IntStream.range(0, n).boxed().toList());
    }

    public int size() { return deviceIds.size(); }

    public boolean contains(int device) { return deviceIds.contains(device); }

    /** Position of a device in the mesh: the slice of a DIDx axis it holds, or -1. */
    public int indexOf(int device) { return deviceIds.indexOf(device); }
}
