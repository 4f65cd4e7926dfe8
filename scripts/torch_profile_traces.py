# Small real traces for the Timeline's import and analyses (issue 36): PyTorch's profiler (Kineto JSON, one file
# per rank) around the AG+GEMM baseline's sequential form, its stream pipeline and async-TP's fused op, at a small
# shape so each file stays a few hundred kB. Run: torchrun --nproc_per_node=2 torch_profile_traces.py OUTDIR
import os, sys, json
import torch, torch.distributed as dist
from torch.profiler import profile, ProfilerActivity, record_function

def main():
    out_dir = sys.argv[1] if len(sys.argv) > 1 else "."
    dist.init_process_group("nccl")
    r, D = dist.get_rank(), dist.get_world_size()
    torch.cuda.set_device(r)
    dev = torch.device("cuda", r)
    M, K, N, S = int(os.environ.get("M", 8192)), int(os.environ.get("K", 4096)), int(os.environ.get("N", 4096)), 4
    dt = torch.bfloat16
    a_loc = torch.randn(M // D, K, device=dev, dtype=dt)
    b = torch.randn(K, N, device=dev, dtype=dt)
    a_full = torch.empty(M, K, device=dev, dtype=dt)
    out = torch.empty(M, N, device=dev, dtype=dt)
    streams = [torch.cuda.Stream(device=dev) for _ in range(S)]
    a_loc_c = a_loc.view(S, M // D // S, K)
    a_full_c = torch.empty(S, D, M // D // S, K, device=dev, dtype=dt)
    out_c = torch.empty(S, D, M // D // S, N, device=dev, dtype=dt)
    def seq():
        dist.all_gather_into_tensor(a_full, a_loc); torch.matmul(a_full, b, out=out)
    def pipe():
        main = torch.cuda.current_stream()
        for i in range(S):
            st = streams[i]
            st.wait_stream(main)
            with torch.cuda.stream(st):
                dist.all_gather_into_tensor(a_full_c[i], a_loc_c[i])
                torch.matmul(a_full_c[i], b, out=out_c[i])
        for st in streams: main.wait_stream(st)
    forms = {"sequential": seq, "pipeline": pipe}
    try:
        import torch.distributed._symmetric_memory as symm_mem
        from torch.distributed.distributed_c10d import _get_default_group
        grp = _get_default_group().group_name
        symm_mem.enable_symm_mem_for_group(grp)
        fused = lambda: torch.ops.symm_mem.fused_all_gather_matmul(a_loc, [b], gather_dim=0, group_name=grp)
        fused(); torch.cuda.synchronize()
        forms["async_tp"] = fused
    except Exception as ex:
        if r == 0: print("async-TP unavailable:", repr(ex)[:300], flush=True)
    for name, fn in forms.items():
        for _ in range(3): fn()
        torch.cuda.synchronize(); dist.barrier()
        with profile(activities=[ProfilerActivity.CPU, ProfilerActivity.CUDA], profile_memory=True,
                     record_shapes=False) as prof:
            for it in range(3):
                with record_function(f"{name}_iteration_{it}"):
                    fn()
            torch.cuda.synchronize()
        path = os.path.join(out_dir, f"kineto_{name}_bf16_{M}x{K}x{N}_rank{r}.json")
        prof.export_chrome_trace(path)
        if r == 0: print("wrote", path, os.path.getsize(path), flush=True)
        dist.barrier()
    dist.destroy_process_group()

if __name__ == "__main__":
    main()
