# PyTorch baseline for `hirstudio bench agmm`'s second table: a K-sharded matmul followed by its collective
# (Allreduce of the partial products, or ReduceScatter of them), run one after the other, as a user would
# write it without pipelining. Run: torchrun --nproc_per_node=2 torch_matmul_collective_baseline.py
import json
import torch
import torch.distributed as dist

# the reference script's timing (warm-ups, then barrier + synchronise around each CUDA-event-timed iteration),
# so that both baselines are measured the same way
from torch_ag_matmul_baseline import timeit


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
        if rank == 0:
            print(json.dumps(row), flush=True)
    dist.destroy_process_group()


if __name__ == "__main__":
    main()
