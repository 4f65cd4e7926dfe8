package org.hostir.studio.rules;

import org.hostir.studio.ir.DeviceMesh;
import org.hostir.studio.ir.ParallelType;
import org.hostir.studio.ir.TensorView;

/**
 * One sharding that {@link ShardingPropagation} inferred, with where it came from: a tensor's mesh, or one of its
 * logical axes given a parallel type (directly, or by an outer split of that axis whose outer part is parallel,
 * nvFuser's replayed device split), copied from {@code from} across {@code op} in {@code direction}. The text is
 * what {@code hirstudio check} prints and the editor shows: {@code out (T3) axis 1 DIDx, from w (T1) through linear}.
 *
 * @param tensor   the tensor that received it (ids are the file's tensor indices)
 * @param axis     the logical axis, or {@link #MESH} for the mesh
 * @param type     the parallel type given ({@code null} for the mesh)
 * @param split    the factor of the outer split whose outer part is {@code type}, or 0 for the logical axis itself
 * @param mesh     the mesh given (the tensor's mesh after propagation, for an axis too)
 * @param from     the reference tensor it came from
 * @param op       the op between them (its file name, {@code linear})
 */
public record InferredSharding(Ref tensor, int axis, ParallelType type, long split, DeviceMesh mesh, Ref from,
                               String op, ShardingPropagation.Direction direction) {
    /** {@link #axis} of an inferred mesh. */
    public static final int MESH = -1;

    /** A tensor by its id and the file's name for it. */
    public record Ref(int id, String label) {
        static Ref of(TensorView t) { return new Ref(t.id(), t.label()); }

        /** {@code 'out' (T3)}, or {@code T3} when the tensor has no name of its own. */
        public String text() { return label.equals("T" + id) ? label : label + " (T" + id + ")"; }
    }

    public boolean isMesh() { return axis == MESH; }

    /** What was inferred: {@code mesh {0 1}}, {@code axis 1 DIDx} or {@code axis 1 DIDx (outer split by 2)}. */
    public String what() {
        if (isMesh()) return "mesh {" + String.join(" ", mesh.deviceIds().stream().map(String::valueOf).toList()) + "}";
        return "axis " + axis + " " + type.fileName() + (split > 0 ? " (outer split by " + split + ")" : "");
    }

    /** Where it came from: {@code from w (T1) through linear}, with {@code , backward} when from a consumer. */
    public String provenance() {
        return "from " + from.text() + " through " + op + switch (direction) {
            case FORWARD -> "";
            case BACKWARD -> ", backward";
        };
    }

    /** The whole line: {@code out (T3) axis 1 DIDx, from w (T1) through linear}. */
    public String text() { return tensor.text() + " " + what() + ", " + provenance(); }
}
