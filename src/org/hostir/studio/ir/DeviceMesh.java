package org.hostir.studio.ir;

import java.util.ArrayList;
import java.util.List;
import java.util.stream.IntStream;

/**
 * The devices a tensor is placed on, in row-major order over {@code shape} (nvFuser's DeviceMesh: a 1-D mesh
 * {@code [n]}, or a 2-D one such as {@code [2, 2]} for data x tensor parallelism). A DIDx axis is sharded along
 * the last mesh axis, DIDy along the one before (DeviceMesh::parallelTypeToAxis).
 */
public record DeviceMesh(List<Integer> deviceIds, List<Integer> shape) {
    public DeviceMesh {
        deviceIds = ids(deviceIds);
        shape = shape == null || shape.isEmpty() ? List.of(deviceIds.size()) : List.copyOf(shape);
        int product = shape.stream().mapToInt(Integer::intValue).reduce(1, (a, b) -> a * b);
        if (product != deviceIds.size()) {
            throw new IllegalArgumentException("mesh shape " + shape + " does not hold " + deviceIds.size() + " devices");
        }
    }

    /**
     * An immutable copy of device ids (a team, a mesh's ids) in which {0 .. n-1} stays a list of no n boxed ids:
     * {@code List.copyOf} of such a list would store them, once per rank's team at 16,384 ranks.
     */
    public static List<Integer> ids(List<Integer> ids) {
        return DeviceRange.of(ids instanceof DeviceRange ? ids : List.copyOf(ids));
    }

    /** A 1-D mesh. */
    public DeviceMesh(List<Integer> deviceIds) { this(deviceIds, null); }

    public static DeviceMesh of(Integer... ids) { return new DeviceMesh(List.of(ids)); }

    /** The mesh {0 .. n-1}, nvFuser's {@code DeviceMesh::createForNumDevices}. */
    public static DeviceMesh forNumDevices(int n) {
        return new DeviceMesh(IntStream.range(0, n).boxed().toList());
    }

    public int size() { return deviceIds.size(); }

    /** The number of mesh axes: 1 or 2. */
    public int rank() { return shape.size(); }

    public boolean contains(int device) { return deviceIds.contains(device); }

    /** Position of a device in the mesh's row-major order (its slice of a DIDx axis on a 1-D mesh), or -1. */
    public int indexOf(int device) { return deviceIds.indexOf(device); }

    /** The mesh axis a device parallel type shards along, or -1 when the mesh has too few axes. */
    public int axisOf(ParallelType type) {
        int offset = switch (type) {
            case DIDX -> 0;
            case DIDY -> 1;
            case SERIAL, STREAM -> throw new IllegalArgumentException(type + " is not a device parallel type");
        };
        return offset >= rank() ? -1 : rank() - 1 - offset;
    }

    /** How many devices a {@code type} axis is sharded over: the mesh's extent along its axis. */
    public int extent(ParallelType type) {
        int axis = axisOf(type);
        if (axis < 0) throw new IllegalArgumentException("a " + rank() + "-D mesh has no " + type.fileName() + " axis");
        return shape.get(axis);
    }

    /** The device's index along {@code type}'s mesh axis: the slice of a {@code type} axis it holds. */
    public int coordinate(int device, ParallelType type) {
        int position = indexOf(device);
        if (position < 0) throw new IllegalArgumentException("device " + device + " is not in " + deviceIds);
        int axis = axisOf(type);
        int stride = 1;
        for (int a = rank() - 1; a > axis; a--) stride *= shape.get(a);
        return position / stride % shape.get(axis);
    }

    /**
     * DeviceMesh::getSlice: the devices that share every coordinate with {@code device} but {@code type}'s, in
     * order along that axis; the team of a collective over a {@code type} axis.
     */
    public List<Integer> slice(int device, ParallelType type) {
        if (rank() == 1) return deviceIds;
        int position = indexOf(device);
        if (position < 0) throw new IllegalArgumentException("device " + device + " is not in " + deviceIds);
        int axis = axisOf(type);
        int stride = 1;
        for (int a = rank() - 1; a > axis; a--) stride *= shape.get(a);
        int base = position - coordinate(device, type) * stride;
        List<Integer> team = new ArrayList<>();
        for (int i = 0; i < shape.get(axis); i++) team.add(deviceIds.get(base + i * stride));
        return team;
    }
}
