package org.hostir.studio.ir.op;

import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.function.BiPredicate;

import org.hostir.studio.ir.Extent;
import org.hostir.studio.ir.FusionOp;
import org.hostir.studio.ir.TensorView;

/**
 * Everything one op family means outside the kernels that compute it. A family is one {@link FusionOp} record;
 * unary, binary and reduction families hold one file op per IR op type ({@link #fileNames}).
 */
public interface OpDefinition<O extends FusionOp> {
    /** The names fusion files use for this family's ops, in the order the format and the palette list them. */
    List<String> fileNames();

    /** What its kernel does, for the timeline and the simulator's cost model. */
    OpWork work();

    /** The number of inputs; {@link #maxInputs} differs where the last one is optional (linear's bias). */
    int minInputs();

    default int maxInputs() { return minInputs(); }

    /** The attributes a file op of this family takes. */
    default Set<OpAttribute> attributes() { return Set.of(); }

    /** The IR op of a file op named {@code fileName} (one of {@link #fileNames}), its tensors resolved. */
    FusionOp build(String fileName, TensorView output, List<TensorView> inputs, OpAttributes attributes);

    /** The symbolic shape rule: the output's axes against the inputs', reported through {@code c}. */
    void checkShape(O op, OpChecks c);

    /** The dtype rule (after {@link #boolRefusal}, which PyTorch's meaning of bool decides first). */
    void checkDtype(O op, OpChecks c);

    /** Why PyTorch refuses this op on bool inputs (or types it otherwise), where it does. */
    default Optional<String> boolRefusal(O op) { return Optional.empty(); }

    /**
     * Per axis of the output, the extent it takes from the inputs as nvFuser's op builders make it (a new output
     * axis reuses an input axis's extent Val, {@code ops::newOutputDomain}), left null where the op gives none.
     */
    void outputExtents(O op, Extent[] extents, BiPredicate<Extent, Extent> same);

    /**
     * The op on the slices a stream loop takes, which lack output axis {@code slicedOutAxis}: {@code sliced} is
     * {@code original} with its tensors replaced; attributes that count axes are renumbered here.
     */
    default FusionOp withoutAxis(O sliced, O original, int slicedOutAxis) { return sliced; }

    /**
     * The output axes the editor proposes for inputs with these run-time axes (every input present), lenient
     * where they do not fit yet: the validator says what is wrong.
     */
    <A> List<A> proposedAxes(List<List<A>> inputs, OpAttributes attributes, AxisAlgebra<A> x);

    /** Attributes for a new op of this family over inputs with these run-time axes (those it lacks filled in). */
    default <A> OpAttributes defaultAttributes(OpAttributes given, List<List<A>> inputs, AxisAlgebra<A> x) {
        return given;
    }

    /** The dump spelling, after the output's line ({@code NVFUSER_DUMP=host_ir}) unless {@link #printsOutput}. */
    void dump(O op, DumpLine line);

    /** Whether {@link #dump} writes the output too, on the op's line (nvFuser's GroupedMmaOp::toString). */
    default boolean printsOutput() { return false; }

    /**
     * Reads back an op that {@link #dump} printed as a call named {@code name} (the name and its opening
     * parenthesis already read, through the closing one); null when {@code name} is not this family's.
     */
    FusionOp readDump(String name, TensorView output, DumpReader in);

    /** The C++ call (nvFuser's ops API, as its C++ tests write it). */
    <X extends Exception> String cpp(O op, ExportNames<X> p) throws X;

    /** The Python call (nvFuser's frontend, {@code fd.ops}). */
    <X extends Exception> String python(O op, ExportNames<X> p) throws X;
}
