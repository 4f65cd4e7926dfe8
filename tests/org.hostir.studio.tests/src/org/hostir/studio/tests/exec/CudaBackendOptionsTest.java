package org.hostir.studio.tests.exec;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.HashMap;
import java.util.List;
import java.util.Map;

import org.hostir.studio.ir.host.CudaBackendSettings;
import org.hostir.studio.engine.Engine;
import org.hostir.studio.engine.EngineFailure;
import org.hostir.studio.exec.RunResult;
import org.hostir.studio.file.LoadedFusion;
import org.hostir.studio.ir.host.CommunicatorBackend;
import org.hostir.studio.ir.host.ForLoop;
import org.hostir.studio.ir.host.HostNode;
import org.hostir.studio.ir.host.IfThenElse;
import org.hostir.studio.ir.host.P2PCommunication;
import org.hostir.studio.ir.host.ShareMemHandles;
import org.hostir.studio.lower.CudaBackendOptions;
import org.hostir.studio.lower.LoweringException;
import org.hostir.studio.lower.LoweringOptions;
import org.hostir.studio.ir.host.MulticastProtocol;
import org.hostir.studio.ir.host.P2pProtocol;
import org.hostir.studio.ir.host.P2pTransport;
import org.hostir.studio.tests.SeedGeneration;
import org.hostir.studio.tests.CliRun;
import org.hostir.studio.tests.RepoPaths;
import org.junit.jupiter.api.Test;

/**
 * nvFuser's CUDA-backend options as lowering options (csrc/options.cpp:182-184 at 81c4b22fd): their spellings, what
 * the lowering emits for each P2P protocol (csrc/host_ir/pass/stream_parallel_type.cpp:442-453), the multicast
 * collectives nvFuser's CUDA backend refuses (csrc/multidevice/cuda_p2p.cpp:834-845, 961-973, 1336-1341;
 * csrc/host_ir/evaluator.cpp:365-371), and CPU runs under every protocol and transport against the reference.
 */
class CudaBackendOptionsTest {
    private static final String RS_P2P = "parallelism/matmul_rs_p2p";

    private static Map<String, String> options(String... pairs) {
        Map<String, String> m = new HashMap<>();
        for (int i = 0; i < pairs.length; i += 2) m.put(pairs[i], pairs[i + 1]);
        return m;
    }

    @Test
    void theOptionsTakeNvFusersValuesAndDefaults() {
        CudaBackendSettings defaults = CudaBackendOptions.of(SeedGeneration.DEFAULTS);
        assertEquals(CudaBackendSettings.NCCL, defaults);
        LoweringOptions o = SeedGeneration.options(options("backend", "cuda", "p2pProtocol", "put", "p2pTransport",
                "Tma", "multicastProtocol", "multimem"));
        assertEquals(new CudaBackendSettings(CommunicatorBackend.CUDA, P2pProtocol.PUT, P2pTransport.TMA,
                MulticastProtocol.MULTIMEM), CudaBackendOptions.of(o));
        // nvFuser's spelling is printed; any case is read (nvFuser itself takes only "Tma", cuda_p2p.cpp:60)
        assertEquals("Tma", o.asMap().get("p2pTransport"));
        assertEquals("CopyEngine", SeedGeneration.DEFAULTS.asMap().get("p2pTransport"));
        assertEquals(P2pTransport.TMA, SeedGeneration.options(options("p2pTransport", "tma"))
                .get(CudaBackendOptions.P2P_TRANSPORT));
        assertEquals("batch_memcpy", SeedGeneration.DEFAULTS.asMap().get("multicastProtocol"));
        LoweringException bad = assertThrows(LoweringException.class,
                () -> SeedGeneration.options(options("p2pProtocol", "push")));
        assertTrue(bad.getMessage().contains("get, put"), bad.getMessage());
    }

    /** stream_parallel_type.cpp:442-453: Get posts the send, then the recv; Put the recv, then the send. */
    @Test
    void putPostsTheRecvFirstGetTheSend() throws Exception {
        LoadedFusion loaded = Runs.load(RS_P2P, 3, Map.of());
        for (String protocol : List.of("get", "put")) {
            for (int rank = 0; rank < 3; rank++) {
                IfThenElse ex = exchange(Engine.lowerRank(loaded, SeedGeneration.options(options("backend", "cuda",
                        "offsetStreamIndexingByRank", "true", "p2pProtocol", protocol)), rank).topLevel());
                List<HostNode> remote = ex.elseBody();
                ShareMemHandles share = (ShareMemHandles) remote.get(0);
                // the handles name recv then send whatever the protocol (lines 436-437)
                assertEquals(List.of(P2PCommunication.Type.RECV, P2PCommunication.Type.SEND),
                        share.communications().stream().map(P2PCommunication::type).toList());
                P2PCommunication.Type first = ((P2PCommunication) remote.get(1)).type();
                P2PCommunication.Type second = ((P2PCommunication) remote.get(2)).type();
                assertEquals(protocol.equals("get") ? List.of(P2PCommunication.Type.SEND, P2PCommunication.Type.RECV)
                        : List.of(P2PCommunication.Type.RECV, P2PCommunication.Type.SEND), List.of(first, second),
                        protocol + " rank " + rank);
            }
        }
    }

    private static IfThenElse exchange(List<HostNode> top) {
        ForLoop last = null;
        for (HostNode n : top) if (n instanceof ForLoop f) last = f;
        return last.body().stream().filter(n -> n instanceof IfThenElse i && !i.thenBody().isEmpty())
                .map(n -> (IfThenElse) n).findFirst().orElseThrow();
    }

    @Test
    void everyProtocolAndTransportValidatesOnTheCpu() throws Exception {
        for (int d : new int[] {2, 4}) {
            for (String protocol : List.of("get", "put")) {
                for (String transport : List.of("CopyEngine", "Tma")) {
                    Map<String, String> o = options("backend", "cuda", "offsetStreamIndexingByRank", "true",
                            "p2pProtocol", protocol, "p2pTransport", transport);
                    RunResult r = Runs.run(RS_P2P, d, o);
                    assertTrue(r.validation().orElseThrow().passed(), d + " " + o + ": " + r.validation().get().line());
                }
            }
        }
    }

    /** The NVLS Allreduce of a float sum (#6038) lowers and validates under multimem, as the nccl one does. */
    @Test
    void theNvlsAllreduceOfAFloatSumValidates() throws Exception {
        for (String protocol : List.of("batch_memcpy", "multimem")) {
            RunResult r = Runs.run("seeds/allreduce", 4, options("backend", "cuda", "multicastProtocol", protocol));
            assertTrue(r.validation().orElseThrow().passed(), protocol + ": " + r.validation().get().line());
        }
    }

    @Test
    void nvFusersCudaBackendRefusalsAreLoweringErrors() throws Exception {
        // Allreduce under memcpy: cuda_p2p.cpp:835-838
        assertRefused("seeds/allreduce", 2, options("backend", "cuda", "multicastProtocol", "memcpy"),
                "cuda.nvls-protocol");
        // a max is no multimem.ld_reduce sum: cuda_p2p.cpp:839-842
        assertRefused("seeds/allreduce", 2, options("backend", "cuda", "multicastProtocol", "multimem"),
                "cuda.nvls-sum", "\"op\": \"sum\"", "\"op\": \"max\"");
        // bfloat16: cuda_p2p.cpp:843-845
        assertRefused("seeds/allreduce", 2, options("backend", "cuda", "multicastProtocol", "multimem"),
                "cuda.nvls-sum", "\"float\"", "\"bfloat16\"");
        // a ReduceScatter is not posted by nvFuser's CUDA backend: evaluator.cpp:365-371
        assertRefused("seeds/reduce_scatter", 2, options("backend", "cuda", "multicastProtocol", "multimem"),
                "cuda.multicast-type");
        // a Broadcast into memory that is not symmetric: ipc_handle.cpp:159, symmetric_tensor.cpp:210-218
        assertRefused("communication/broadcast", 3, options("backend", "cuda", "multicastProtocol", "memcpy"),
                "cuda.multicast-symmetric");
        // a Broadcast over 3 of 4 devices: cuda_p2p.cpp:1336-1341
        assertRefused("communication/broadcast", 4, options("backend", "cuda", "multicastProtocol", "memcpy"),
                "cuda.multicast-team", "{\"name\": \"copy\", \"dtype\": \"float\",",
                "{\"name\": \"copy\", \"dtype\": \"float\", \"memory\": \"symmetric\",");
        // NCCL, or the default batch_memcpy, keeps them
        for (Map<String, String> o : List.of(options("multicastProtocol", "multimem"), options("backend", "cuda"))) {
            Engine.check(Runs.load("seeds/reduce_scatter", 2, Map.of()), SeedGeneration.options(o));
        }
    }

    /** What only the simulator models is refused before a GPU run starts, with one line naming the option. */
    @Test
    void tmaAndMulticastAreRefusedOnTheCudaBackend() {
        String file = RepoPaths.repo().resolve("examples/" + RS_P2P + ".fusion").toString();
        for (String option : List.of("p2pTransport=Tma", "multicastProtocol=multimem")) {
            CliRun r = CliRun.of("run", file, "--backend", "cuda", "--devices", "2", "--option", "backend=cuda",
                    "--option", option);
            assertEquals(2, r.code(), option + ": " + r.err());
            List<String> lines = r.err().lines().toList();
            assertEquals(1, lines.size(), r.err());
            assertTrue(lines.getFirst().startsWith("error: ") && lines.getFirst().contains("--backend sim"),
                    lines.getFirst());
        }
    }

    private static void assertRefused(String example, int devices, Map<String, String> o, String rule,
                                      String... replace) throws Exception {
        LoadedFusion loaded = replace.length == 0 ? Runs.load(example, devices, Map.of()) : Runs.loadText(example,
                devices, replace[0], replace[1]);
        EngineFailure f = assertThrows(EngineFailure.class, () -> Engine.check(loaded, SeedGeneration.options(o)));
        assertTrue(f.lines().getFirst().endsWith("[" + rule + "]"), f.lines().toString());
    }
}
