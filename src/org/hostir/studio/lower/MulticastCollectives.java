package org.hostir.studio.lower;

import java.util.Locale;

import org.hostir.studio.diag.Texts;
import org.hostir.studio.ir.host.MulticastProtocol;
import org.hostir.studio.ir.host.CudaBackendSettings;
import org.hostir.studio.ir.DataType;
import org.hostir.studio.ir.FusionOp;
import org.hostir.studio.ir.MemoryType;
import org.hostir.studio.ir.ReductionOpType;
import org.hostir.studio.ir.print.IrText;

/**
 * What nvFuser's CUDA backend requires of a collective it posts through NVLink multicast
 * ({@code multicast_protocol} memcpy or multimem, backend=cuda), checked when the communication is made so that
 * {@code check} refuses what nvFuser refuses at run time. nvFuser posts Broadcast, Allgather, Allreduce and Reduce
 * there (HostIrEvaluator::handle(Communication*), csrc/host_ir/evaluator.cpp:365-371 at 81c4b22fd) over the whole
 * world (postWithCudaBackend, csrc/multidevice/cuda_p2p.cpp:1336-1341); the Allreduce and Reduce are NVLS
 * {@code multimem.ld_reduce} sums of float32 (#6038; cuda_p2p.cpp:834-845, 961-973). Under the default
 * batch_memcpy this project keeps its own backend=cuda (the other collectives on NCCL, sums on the copy engines).
 */
final class MulticastCollectives {
    private MulticastCollectives() {}

    /** {@code topLevel}: the communication is not in a stream loop, whose slices address a whole allocation. */
    static void check(FusionOp expr, CommunicationPlanner.Plan plan, LoweringContext context, boolean topLevel) {
        CudaBackendSettings cuda = CudaBackendOptions.of(context.options());
        if (!cuda.cuda() || !cuda.multicast().needsMulticast()) return;
        String protocol = "multicastProtocol=" + context.options().asMap().get(
                CudaBackendOptions.MULTICAST_PROTOCOL.key());
        Runnable byType = switch (plan.type()) {
            case BROADCAST, ALLGATHER -> () -> {
                if (topLevel) checkSymmetricOutput(expr, plan);
            };
            case ALLREDUCE, REDUCE -> () -> checkNvlsReduction(expr, plan, cuda, protocol);
            case GATHER, SCATTER, REDUCE_SCATTER, ALL_TO_ALL, SEND_RECV -> () -> {
                throw new LoweringException(expr, "cuda.multicast-type", "nvFuser's CUDA backend posts only"
                        + " Broadcast, Allgather, Allreduce and Reduce (evaluator.cpp:365-371), not "
                        + plan.type().dumpName() + " for " + CommunicationPlanner.subject(expr)
                        + ": use backend=nccl, or leave " + protocol + " out");
            };
        };
        byType.run();
        if (plan.team().size() != context.devices()) {
            throw new LoweringException(expr, "cuda.multicast-team", "nvFuser's CUDA backend runs a "
                    + plan.type().dumpName() + " over every device (postWithCudaBackend, cuda_p2p.cpp:1336-1341);"
                    + " this one's team is " + IrText.ids(plan.team()) + " of " + context.devices() + " devices");
        }
    }

    /**
     * The CUDA backend's Broadcast and Allgather write through the output's symmetric memory: SymMemForBroadcast
     * and SymMemForAllgather wrap it as a SymmetricTensor, which refuses other memory
     * (csrc/multidevice/ipc_handle.cpp:159, 344; csrc/multidevice/symmetric_tensor.cpp:210-218).
     */
    private static void checkSymmetricOutput(FusionOp expr, CommunicationPlanner.Plan plan) {
        if (expr.output().memoryType() == MemoryType.SYMMETRIC) return;
        throw new LoweringException(expr, "cuda.multicast-symmetric", "nvFuser's CUDA backend " + plan.type()
                .dumpName() + " writes through its output's symmetric memory (SymMemForBroadcast, SymMemForAllgather,"
                + " ipc_handle.cpp:159, 344): give " + Texts.quote(expr.output().label())
                + " \"memory\": \"symmetric\"");
    }

    private static void checkNvlsReduction(FusionOp expr, CommunicationPlanner.Plan plan, CudaBackendSettings cuda,
                                           String protocol) {
        if (cuda.multicast() != MulticastProtocol.MULTIMEM) {
            throw new LoweringException(expr, "cuda.nvls-protocol", "the CUDA backend's " + plan.type().dumpName()
                    + " is an NVLS multimem reduction (cuda_p2p.cpp:834-838, 961-965): use multicastProtocol=multimem,"
                    + " not " + protocol.substring(protocol.indexOf('=') + 1));
        }
        DataType dtype = expr.output().dtype();
        if (plan.reduction() != ReductionOpType.SUM || dtype != DataType.FLOAT) {
            throw new LoweringException(expr, "cuda.nvls-sum", "the CUDA backend's NVLS " + plan.type().dumpName()
                    + " sums float32 only (multimem.ld_reduce, cuda_p2p.cpp:839-845, 966-973); "
                    + CommunicationPlanner.subject(expr) + " is a " + (plan.reduction() == null ? "copy"
                    : plan.reduction().name().toLowerCase(Locale.ROOT)) + " of " + dtype.fileName()
                    + ": use backend=nccl for it");
        }
    }
}
