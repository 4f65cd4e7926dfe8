# PyTorch baseline for `hirstudio bench agmm`'s second table: a K-sharded matmul followed by its collective
# (Allreduce of the partial products, or ReduceScatter of them), run one after the other, as a user would
# write it without pipelining; for the ReduceScatter also PyTorch's fused async-TP op
# (torch.ops.symm_mem.fused_matmul_reduce_scatter, symmetric memory), where the installed PyTorch has it.
# Run: torchrun --nproc_per_node=2 torch_matmul_collective_baseline.py
import json
import torch
import torch.distributed as dist

# the reference script's timing (warm-ups, then barrier + synchronise around each CUDA-event-timed iteration),
# so that both baselines are measured the same way
from torch_ag_matmul_baseline import timeit


def fused_matmul_reduce_scatter(a, b):
    """PyTorch's async-TP matmul + reduce-scatter (scatter along the rows), timed; (None, why) where missing."""
    try:
        import torch.distributed._symmetric_memory as symm_mem
        from torch.distributed.distributed_c10d import _get_default_group
        grp = _get_default_group().group_name
        symm_mem.enable_symm_mem_for_group(grp)
        return timeit(lambda: torch.ops.symm_mem.fused_matmul_reduce_scatter(a, b, "sum", scatter_dim=0,
                                                                            group_name=grp)), None
    except Exception as e:  # an older PyTorch, or symmetric memory unavailable here: say so in the table
        return None, f"{type(e).__name__}: {e}"[:200]


def main():
    dist.init_process_group("nccl")
    rank, world = dist.get_rank(), dist.get_world_size()
    torch.cuda.set_device(rank)
    dev = torch.device("cuda", rank)
    torch.backends.cuda.matmul.allow_tf32 = False
    # (collective, dtype, rows of the local product, local K, N): the shapes of MatmulCollectiveBench.CASES
    configs = [("allreduce", "bfloat16", 8192, 4096, 8192), ("reduce_scatter", "bfloat16", 16384, 4096, 8192)]
    for collective, dname, rows, k, n in configs:
        dt = getattr(torch, dname)
        a = torch.randn(rows, k, device=dev, dtype=dt)
        b = torch.randn(k, n, device=dev, dtype=dt)
        c = torch.empty(rows, n, device=dev, dtype=dt)
        out = torch.empty(rows // world, n, device=dev, dtype=dt)

        def mm():
            torch.matmul(a, b, out=c)

        def coll():
            if collective == "allreduce":
                dist.all_reduce(c)
            else:
                dist.reduce_scatter_tensor(out, c)

        def seq():
            mm()
            coll()

        row = dict(collective=collective, dtype=dname, M=rows, K=k, N=n, D=world, t_mm_ms=timeit(mm),
                   t_coll_ms=timeit(coll), t_seq_ms=timeit(seq))
        if collective == "reduce_scatter":
            row["t_fused_ms"], row["fused_err"] = fused_matmul_reduce_scatter(a, b)
        if rank == 0:
            print(json.dumps(row), flush=True)
    dist.destroy_process_group()


if __name__ == "__main__":
    main()
