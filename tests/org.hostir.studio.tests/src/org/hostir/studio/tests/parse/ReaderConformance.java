package org.hostir.studio.tests.parse;

import java.util.ArrayList;
import java.util.List;

/**
 * Every IR node and Val whose toString can appear in an {@code NVFUSER_DUMP=host_ir} output at nvFuser 81c4b22fd, one
 * statement each, written from the toString cited (paths at 81c4b22fd; hir = csrc/host_ir/ir.cpp, comm =
 * csrc/multidevice/communication.cpp, kir = csrc/kernel_ir.cpp, in = csrc/ir/internal_nodes.cpp, cn =
 * csrc/ir/composite_nodes.cpp), never from the Studio's printer. The table in docs/conformance.md lists the same
 * entries and outcomes; {@link ReaderConformanceTest} checks them.
 */
final class ReaderConformance {
    private ReaderConformance() {}

    enum Outcome { STRUCTURED, KEPT_AS_TEXT }

    /** A statement, its lines indented relative to its first line's column 0. */
    record Entry(String name, String cited, Outcome outcome, String text) {}

    private static final String MESH = " (DeviceMesh{0 1})";
    static final String A = "T900_g_float[iS900{i0}, iS901{8}]" + MESH;
    static final String B = "T901_g_float[iS902{8}, iS903{4}]" + MESH;
    static final String C = "T902_g_float[iS904{i0}, iS905{4}]" + MESH;
    static final String V = "T903_g_float[iS906{i0}]" + MESH;
    static final String BC = "T904_g_float[iS907{i0}, bS908{1}]" + MESH;
    static final String S = "T906_g_float[ideviceIdx.x911{2}, iS912{8}]" + MESH;
    static final String OUT = "T919_g_float[iS929{i0}, iS930{8}]" + MESH;
    static final String IDX = "T929_g_int64_t[iS941{i0}, iS942{8}]" + MESH;
    static final String FLAG = "T909_g_bool[iS915{i0}, iS916{8}]" + MESH;

    private static final Outcome ST = Outcome.STRUCTURED;
    private static final Outcome KT = Outcome.KEPT_AS_TEXT;

    static List<Entry> entries() {
        List<Entry> e = new ArrayList<>();
        hostIr(e);
        communications(e);
        fusionOps(e);
        vals(e);
        return e;
    }

    private static void hostIr(List<Entry> e) {
        e.add(new Entry("LaunchKernel", "hir:150-158", ST,
                "LaunchKernel(\n  Group ID: 0,\n  Inputs: {" + A + ", " + B + "},\n  Outputs: {" + C + "},\n)"));
        e.add(new Entry("LaunchKernel, scalar inputs", "hir:150-158, ir/base_nodes.cpp:265-281", ST,
                "LaunchKernel(\n  Group ID: 1,\n  Inputs: {" + A + ", i0, d2, b3, 4},\n  Outputs: {" + C + "},\n)"));
        e.add(new Entry("PostOnStream", "hir:100-114", ST,
                "PostOnStream (HostUnit7, Inputs:{" + A + ", " + B + ", }, Outputs:{" + C + ", })"));
        e.add(new Entry("Deallocate", "hir:173-178", ST, "Deallocate {\n  " + A + "\n}"));
        e.add(new Entry("GetCurrentStream", "hir:193-205, 246-250", ST, "Stream 0x7f3a2c0012f0 = GetCurrentStream()"));
        e.add(new Entry("SetCurrentStream", "hir:231-235", ST, "SetCurrentStream(Stream 0x7f3a2c0012f0)"));
        e.add(new Entry("Synchronize", "hir:299-305", ST, "Synchronize(Stream 0x7f3a2c0012f0)"));
        e.add(new Entry("Wait", "hir:272-280", ST, "Wait(Communication 272)"));
        e.add(new Entry("StartCoalescing / EndCoalescing", "hir:324-352", ST,
                "StartCoalescing\nEndCoalescing 9001\nWait(Communication 9001)"));
        e.add(new Entry("ShareMemHandles", "hir:368-376, comm:210-215", ST, "ShareMemHandles(P2PCommunication 9003 "
                + "(type=send, buffer=" + S + ", peer=1, backend=CUDA), "));
        e.add(new Entry("HirAliasSelect", "hir:413-420", ST,
                V + "\n   = HirAliasSelect( " + A + ", axis = iS901{8}, index = 0 )"));
        e.add(new Entry("ShardByStream", "hir:442-447", ST, "T912_l_float[istreamIdx920{3}, iS921{8}]" + MESH
                + " = ShardByStream(" + A + ", stream_index=0)"));
        e.add(new Entry("SymmetricContiguousView", "hir:466-470", ST, "T913_g_float[iS922{2}, iS923{8}]" + MESH
                + " = SymmetricContiguousView(T914_sym_float[ideviceIdx.x924{2}, iS925{8}]" + MESH + ")"));
        e.add(new Entry("hir::ForLoop", "hir:487-493", ST, "FOR i8001 from 0 to 2:\n  Synchronize(Stream i8001)"));
        e.add(new Entry("kir::ForLoop", "kir:146-151, type.cpp:781", ST,
                "FOR streamIdx in istreamIdx926{3}:\n  SetCurrentStream(Stream streamIdx)"));
        e.add(new Entry("kir::IfThenElse", "kir:1391-1400, kir:402-409", ST,
                "IF Manual ( i0 == 0 ):\n  Synchronize(Stream 0x7f3a2c0012f0)\nELSE:\n  Synchronize(Stream 0x7f3a2c0012f0)"));
        e.add(new Entry("hir::Allocate", "hir:527-533", ST, A + " = ALLOCATE(mem_type=global, zero_init=false)"));
        e.add(new Entry("kir::Allocate", "kir:548-560", ST, A + " = ALLOCATE(buffer=" + A
                + ", mem_type=global, size=( i0 * 8 ), zero_init=false, resets_to_zero=false)"));
        e.add(new Entry("kir::Allocate resets_to_zero, .alias=", "kir:548-560", ST, A + " = ALLOCATE(buffer=" + A
                + ", mem_type=global, size=( i0 * 8 ), zero_init=true, resets_to_zero=true)\n  .alias=" + OUT));
    }

    private static void communications(List<Entry> e) {
        String[][] types = {{"Gather", S, A}, {"Allgather", S, A}, {"Scatter", A, S}, {"Reduce", A, A},
            {"Allreduce", A, A}, {"ReduceScatter", A, S}, {"Broadcast", A, A}, {"SendRecv", A, A}, {"AllToAll", A, A}};
        int id = 9010;
        for (String[] t : types) {
            boolean root = List.of("Gather", "Scatter", "Reduce", "Broadcast", "SendRecv").contains(t[0]);
            e.add(new Entry("Communication " + t[0], "comm:160-177", ST, "Communication " + id + " (type=" + t[0]
                    + ", team=(0 1)" + (root ? ", root=0" : "") + ", input=" + t[1] + ", output=" + t[2]
                    + ", backend=NCCL)\nWait(Communication " + id++ + ")"));
        }
        e.add(new Entry("Communication, backend=UCC", "comm:160-177", KT, "Communication 9030 (type=Allreduce, "
                + "team=(0 1), input=" + A + ", output=" + A + ", backend=UCC)"));
        e.add(new Entry("P2PCommunication send / recv", "comm:210-216", ST, "P2PCommunication 9031 (type=send, buffer="
                + A + ", peer=1, backend=NCCL)\nP2PCommunication 9032 (type=recv, buffer=" + A
                + ", peer=i0, backend=NCCL)"));
        e.add(new Entry("CollectivePermute", "comm:249-257", ST, "CollectivePermute 9033 (team=(0 1), send_peer=1, "
                + "recv_peer=1, input=" + A + ", output=" + A + ", backend=NCCL)"));
        String idx = "T931_g_int64_t[iS945{i0}, iS946{2}]" + MESH;
        String w = "T932_g_float[iS947{i0}, iS948{2}]" + MESH;
        e.add(new Entry("MoeDispatch", "comm:294-305", ST, "Dispatch 9034 (num_experts=4, backend=NCCL, in=" + A
                + ", topk_idx=" + idx + ", topk_weights=" + w + ", out=" + OUT + ")"));
        e.add(new Entry("MoeCombine", "comm:360-370", ST, "Combine 9035 (backend=NCCL, in=" + A + ", topk_weights=" + w
                + ", src_idx=" + idx + ", out=" + OUT + ")"));
    }

    private static void fusionOps(List<Entry> e) {
        // the host's sets are made with CacheOp::Streaming (every quoted dump prints it); FusionOp.Set has no cache op
        e.add(new Entry("LoadStoreOp Set, cache_op=Streaming", "in:2558-2581", ST,
                OUT + "\n   = Set( " + A + ", cache_op=Streaming )"));
        // the output's axes are made in the input's order, then permuted (seed 003): ids tell the permutation
        e.add(new Entry("LoadStoreOp Set.Permute", "in:2558-2581", ST,
                "T915_g_float[iS923{8}, iS922{i0}]" + MESH + "\n   = Set.Permute( " + A + ", cache_op=Streaming )"));
        e.add(new Entry("LoadStoreOp Set, no cache_op (Unspecified)", "in:2558-2581", KT,
                OUT + "\n   = Set( " + A + " )"));
        e.add(new Entry("LoadStoreOp Set, cache_op=AllLevels", "in:2558-2581", KT,
                OUT + "\n   = Set( " + A + ", cache_op=AllLevels )"));
        e.add(new Entry("MatmulOp", "cn:58-64", ST, C + "\n   = matmul(" + A + ",\n            " + B + ")"));
        e.add(new Entry("LinearOp", "cn:122-134", ST, "T916_g_float[iS924{i0}, iS925{4}]" + MESH + "\n   = linear(" + A
                + ",\n            T917_g_float[iS926{4}, iS927{8}]" + MESH + "      )"));
        e.add(new Entry("LinearOp with bias", "cn:122-134", ST, "T916_g_float[iS924{i0}, iS925{4}]" + MESH
                + "\n   = linear(" + A + ",\n            T917_g_float[iS926{4}, iS927{8}]" + MESH
                + "      ,\n          T918_g_float[iS928{4}]" + MESH + "      )"));
        e.add(new Entry("ReductionOp", "in:1711-1720", ST, "T905_g_float[rS909{i0}, iS910{8}]" + MESH
                + "\n   = reduction( " + A + ", op = add, initial value = float(0), allreduce = false )"));
        e.add(new Entry("BinaryOp inline (+)", "in:902-916, 940-966", ST, OUT + "\n   = " + A + "\n   + " + A + ";"));
        e.add(new Entry("BinaryOp call (fmax)", "in:940-966, type.cpp:549-573", KT,
                OUT + "\n   = fmax(" + A + "\n   , " + A + ");"));
        e.add(new Entry("UnaryOp inline (neg)", "in:728-741", ST, OUT + "\n   = -" + A + ";"));
        e.add(new Entry("UnaryOp call (relu)", "in:728-741, type.cpp:373-405", ST, OUT + "\n   = relu(" + A + ");"));
        e.add(new Entry("UnaryOp float suffix (expf)", "in:700-726, type.cpp:373-405", ST,
                OUT + "\n   = expf(" + A + ");"));
        e.add(new Entry("UnaryOp cast", "in:700-726, type.cpp:1207", ST, "T920_g___bfloat[iS931{i0}, iS932{8}]" + MESH
                + "\n   = __float2bfloat(" + A + ");"));
        e.add(new Entry("TernaryOp where", "in:1003-1020", ST,
                OUT + "\n   = where(" + FLAG + "\n   , " + A + "\n   , " + A + ");"));
        e.add(new Entry("BroadcastOp", "in:1473-1487", ST, BC + "\n   = broadcast( " + V + ", flags = {false, true} )"));
        e.add(new Entry("SqueezeOp", "in:1580-1594", ST, V + "\n   = squeeze( " + BC + ", flags = {false, true} )"));
        e.add(new Entry("ExpandOp", "in:2329-2334", ST, "T921_g_float[iS933{i0}, bS934{1 ex 8}]" + MESH
                + " = expand( " + BC + " )"));
        e.add(new Entry("RepeatOp", "in:2386-2391", KT, "T922_g_float[iS935{i0}, iS936{16}]" + MESH
                + " = repeat( " + A + " )"));
        e.add(new Entry("ReshapeOp", "in:2476-2481", ST, "T923_g_float[iS937{i0}, iS938{2}, iS939{4}]" + MESH
                + " = reshape( " + A + " )"));
        e.add(new Entry("ReshapeOp, merged extent ( i0 * 8 )", "in:2476-2481", KT, "T924_g_float[iS940{( i0 * 8 )}]"
                + MESH + " = reshape( " + A + " )"));
        e.add(new Entry("PadOp", "in:2929-2935", KT, "T924_g_float[iS938{i0}, iS939{10}]" + MESH
                + "\n   = pad( " + A + ", {0, 0, 1, 1} )"));
        e.add(new Entry("SliceOp", "in:3029-3042", KT, "T925_g_float[iS940{2}, iS941{8}]" + MESH
                + "\n   = slice( " + A + ", { {0, 2, 1} {0, 8, 1} } )"));
        e.add(new Entry("CatOp", "in:3134-3142", KT, "T926_g_float[iS942{( i0 * 2 )}, iS943{8}]" + MESH
                + "\n   = cat( " + A + ", " + A + ", 0 )"));
        e.add(new Entry("SelectOp", "in:168-177", KT, V + "\n   = select( " + A + ", axis = iS901{8}, index = 0 )"));
        e.add(new Entry("IndexSelectOp", "in:212-220", ST, "T927_g_float[iS944{2}, iS945{8}]" + MESH
                + "\n   = indexSelect( " + A + ", dim = 0, T928_g_int64_t[iS946{2}]" + MESH + " )"));
        e.add(new Entry("GatherOp takeAlongAxis", "in:309-322", ST, OUT + "\n   = takeAlongAxis( " + A + ", " + IDX
                + ", dim = 1 )"));
        e.add(new Entry("GatherOp torchGather", "in:309-322", KT, OUT + "\n   = torchGather( " + A + ", dim = 1, " + IDX
                + " )"));
        e.add(new Entry("ScatterOp", "in:374-387", ST, OUT + "\n   = scatter(in = " + A + ", dim = 1, src = " + A
                + ", idx = " + IDX + " )"));
        e.add(new Entry("TopKOp", "cn:815-825", KT, "( T930_g_float[iS943{i0}, iS944{2}]" + MESH
                + ", T931_g_int64_t[iS945{i0}, iS946{2}]" + MESH + " ) = topk( " + A
                + ", 2, dim = 1, largest = True, sorted = True )"));
        e.add(new Entry("ArgsortOp", "cn:756-766", KT, IDX + " = argsort( " + A
                + ", dim = 1, descending = False, stable = True )"));
        e.add(new Entry("GroupedMmaOp", "cn:947-971", KT, C + " = GroupedMmaOp(mat1=" + A + ", mat2=" + B
                + ", offsets=T933_g_int_t[iS950{2}]" + MESH + ")"));
        e.add(new Entry("ScaledMmaOp", "cn:1353-1380", KT, C + " = ScaledMmaOp(mat1=" + A + ", mat2=" + B
                + ", scale1=" + V + ", scale2=" + V + ")"));
        String q = "T940_g___bfloat[iS960{2}, iS961{4}, iS962{8}, iS963{16}]" + MESH;
        e.add(new Entry("SdpaFwdOp", "cn:235-271", KT, q + ",\nT941_g_float[iS964{2}, iS965{4}, iS966{8}]" + MESH
                + ",\nT942_g_int64_t[]" + MESH + ",\nT943_g_int64_t[]" + MESH + "\n   = sdpa(" + q + ",\n          "
                + q + ",\n          " + q + ",\n          dropout_p = double(0),\n          is_causal=true,\n   )"));
        e.add(new Entry("SdpaBwdOp", "cn:520-551", KT, q + ",\n" + q + ",\n" + q + "\n   = sdpa_bwd(" + q
                + ",\n          " + q + ",\n          " + q + ",\n          " + q + ",\n          " + q
                + ",\n          logsum_exp = T941_g_float[iS964{2}, iS965{4}, iS966{8}]" + MESH
                + ",\n          dropout_p = double(0),\n          is_causal = true,\n          philox_seed = "
                + "T942_g_int64_t[]" + MESH + ",\n          philox_offset = T943_g_int64_t[]" + MESH + ",\n   )"));
        e.add(new Entry("EmbeddingFwdOp", "cn:669-691", KT, OUT + ",\n   = embedding(" + IDX + ",\n          " + B
                + ",\n          norm_type = double(2),\n          scale_grad_by_freq = false,\n          sparse = false)"));
        e.add(new Entry("FullOp", "in:117-132", KT, OUT + "\n   = full({i0, 8}, float(0));"));
        e.add(new Entry("IotaOp", "in:481-490", KT, "T935_g_int64_t[iS951{i0}]" + MESH
                + "\n   = iota(i0, 0, 1, int64_t);"));
        e.add(new Entry("ScanOp", "cn:1511-1521", KT, OUT + "\n   = scan(" + A
                + ",\n        dim=1,\n        op_type=add,\n        init=float(0))"));
    }

    /** Vals inside a statement nvFuser prints: tensors of every memory type and a few dtypes, axes, scalars. */
    private static void vals(List<Entry> e) {
        String[][] memories = {{"l", "Local"}, {"s", "Shared"}, {"t", "Tensor"}, {"sym", "Symmetric"}};
        for (String[] m : memories) {
            e.add(new Entry("TensorView _" + m[0] + " (" + m[1] + ")", "tensor_view.cpp:64-84", m[0].equals("t") ? KT : ST,
                    "T950_" + m[0] + "_float[iS970{i0}, iS971{8}]" + MESH + "\n   = Set( " + A + ", cache_op=Streaming )"));
        }
        for (String dtype : List.of("__half", "double", "int", "int64_t", "bool", "nvfuser_index_t", "__e4m3")) {
            e.add(new Entry("dtype " + dtype, "type.cpp:239-281", dtype.equals("nvfuser_index_t") ? KT : ST,
                    "T951_g_" + dtype + "[iS972{i0}, iS973{8}]" + MESH + "\n   = Set( " + A + ", cache_op=Streaming )"));
        }
        e.add(new Entry("TensorView ca_pos / produce_pos", "tensor_view.cpp:86-115", KT,
                "T952_g_float[iS974{i0}, iS975{8}] ca_pos( 1 ) produce_pos( 1 )" + MESH + "\n   = Set( " + A + ", cache_op=Streaming )"));
        e.add(new Entry("TensorView without mesh", "tensor_view.cpp:116-118", ST,
                "T953_g_float[iS976{i0}, iS977{8}]\n   = Set( T954_g_float[iS978{i0}, iS979{8}], cache_op=Streaming )"));
        e.add(new Entry("axes: DIDy, expanded broadcast, reduction", "internal_base_nodes.cpp:302-330", ST,
                "T955_g_float[ideviceIdx.y980{2}, bS981{1 ex 8}, rS982{i0}]" + MESH + "\n   = Set( T956_g_float["
                        + "ideviceIdx.y983{2}, bS984{1 ex 8}, rS985{i0}]" + MESH + ", cache_op=Streaming )"));
        e.add(new Entry("rFactor axis", "internal_base_nodes.cpp:319", ST,
                "T961_g_float[ideviceIdx.x993{2}rf, iS994{8}]" + MESH + "\n   = Set( T962_g_float["
                        + "ideviceIdx.x995{2}rf, iS996{8}]" + MESH + ", cache_op=Streaming )"));
        e.add(new Entry("expanded broadcast in an rFactor'd domain", "internal_base_nodes.cpp:302-330", KT,
                "T963_g_float[bS997{1 ex 8}, rS998{i0}rf]" + MESH + "\n   = Set( T964_g_float["
                        + "bS999{1 ex 8}, rS1000{i0}rf]" + MESH + ", cache_op=Streaming )"));
        e.add(new Entry("split extent ( ceilDiv(i0, 3) )", "internal_base_nodes.cpp:302-330, base_nodes.cpp:283-290",
                ST, "T957_g_float[istreamIdx985{3}, iS986{( ceilDiv(i0, 3) )}, iS987{8}]" + MESH + "\n   = Set( "
                        + "T958_g_float[istreamIdx990{3}, iS988{( ceilDiv(i0, 3) )}, iS989{8}]" + MESH
                        + ", cache_op=Streaming )"));
        e.add(new Entry("arithmetic extent ( i0 * 8 )", "internal_base_nodes.cpp:302-330, base_nodes.cpp:283-290",
                KT, "T959_g_float[iS991{( i0 * 8 )}]" + MESH + "\n   = Set( T960_g_float[iS992{( i0 * 8 )}]" + MESH
                        + ", cache_op=Streaming )"));
    }
}
