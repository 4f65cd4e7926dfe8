#!/usr/bin/env python3
"""GEMM alone in PyTorch on GPU 0, for `hirstudio bench agmm --gemm`: C[M, N] = A[M, K] @ B[K, N] for the four
AG+GEMM shapes (fp32 with TF32 off, bf16): a second's pause (each series starts from the same power state, as the
engine's do), 10 warm-ups, then three rounds of CUDA-event medians of 30 products.
Operands are standard normal (torch.randn, as the AG+GEMM baseline script and the engine's fill kernel make them),
since a tensor-core GEMM's speed depends on its data (power). Prints one JSON line per shape:
{"dtype", "M", "K", "N", "t_mm_ms": [round medians]}.

With --serve D it is the PyTorch side of `hirstudio bench agmm --like-with-like` (issue 38.2): it stays running and
takes one JSON command a line on stdin, so that the engine can interleave its rounds with the engine's own under the
same conditions: {"cmd": "shape", "dtype", "M", "K", "N"} allocates A, B (standard normal) and C on each of the D
GPUs; {"cmd": "round", "warmup": W, "iters": N} runs W + N iterations, each one product on every GPU at once,
timed as the engine's bench times its GEMM (every GPU synchronised, CUDA events around each GPU's product, rank 0's
time) and answers {"t_ms": median of the last N}; with "spin": C > 0 each of the N timed products is followed by
one queued behind torch.cuda._sleep(C) on every GPU, so that the events and the product wait on the device and the
time is the device's alone (the two series alternate, so both see the same power state), and it adds
{"q_ms": their median}; {"cmd": "free"} drops the tensors; {"cmd": "info"} answers the
versions and settings that decide which kernel torch.matmul runs (torch, CUDA, preferred BLAS library, the
reduced-precision flag, the workspace variables, the cuBLAS and cuBLASLt files this process mapped and cuBLASLt's
version); {"cmd": "kernels"} profiles 3 products on GPU 0 and answers the CUDA kernels' names and mean device times.
Every answer is one JSON line."""
import ctypes
import json
import os
import sys
import time

import torch

torch.backends.cuda.matmul.allow_tf32 = False
SHAPES = [("float32", 32768, 32768, 1024), ("bfloat16", 32768, 8192, 8192), ("bfloat16", 16384, 8192, 4096),
          ("bfloat16", 8192, 4096, 4096)]


def median_ms(a, b, c, n=30):
    times = []
    for _ in range(n):
        s, e = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
        s.record()
        torch.matmul(a, b, out=c)
        e.record()
        e.synchronize()
        times.append(s.elapsed_time(e))
    return sorted(times)[len(times) // 2]


def once(tensors, devices, spin):
    """One product on every GPU at once (every GPU synchronised first, CUDA events around each), rank 0's time;
    with spin > 0 each GPU first sleeps `spin` clocks so that the events and the product queue behind it."""
    for d in range(devices):
        torch.cuda.synchronize(d)
    events = []
    for d, (a, b, c) in enumerate(tensors):
        with torch.cuda.device(d):
            s, e = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
            if spin > 0:
                torch.cuda._sleep(spin)
            s.record()
            torch.matmul(a, b, out=c)
            e.record()
            events.append((s, e))
    for d in range(devices):
        torch.cuda.synchronize(d)
    return events[0][0].elapsed_time(events[0][1])


def median(xs):
    return sorted(xs)[len(xs) // 2]


def mapped(prefix):
    """The file this process mapped whose name starts with `prefix`, or None."""
    with open("/proc/self/maps") as f:
        for line in f:
            path = line.split()[-1] if "/" in line else ""
            if os.path.basename(path).startswith(prefix):
                return path
    return None


def short(path):
    """The last three elements of a path (logs name no machine's folders)."""
    parts = path.split("/")
    return path if len(parts) <= 4 else ".../" + "/".join(parts[-3:])


def info():
    a = torch.ones(64, 64, device="cuda:0", dtype=torch.bfloat16)
    torch.matmul(a, a)  # loads cuBLAS (and with it cuBLASLt)
    torch.cuda.synchronize(0)
    answer = {"torch": torch.__version__, "cuda": torch.version.cuda,
              "preferred_blas": str(torch.backends.cuda.preferred_blas_library()),
              "bf16_reduced_precision_reduction": str(torch.backends.cuda.matmul.allow_bf16_reduced_precision_reduction),
              "allow_tf32": torch.backends.cuda.matmul.allow_tf32}
    for var in ("CUBLAS_WORKSPACE_CONFIG", "CUBLASLT_WORKSPACE_SIZE", "TORCH_BLAS_PREFER_CUBLASLT",
                "TORCH_CUBLASLT_UNIFIED_WORKSPACE"):
        answer[var] = os.environ.get(var, "unset")
    for lib in ("libcublas.", "libcublasLt."):
        path = mapped(lib)
        answer[lib.rstrip(".")] = short(path) if path else "not mapped"
    lt = mapped("libcublasLt.")
    if lt:
        try:
            f = ctypes.CDLL(lt).cublasLtGetVersion
            f.restype = ctypes.c_size_t
            answer["cublasLt_version"] = f()
        except OSError as e:
            answer["cublasLt_version"] = "unknown (%s)" % e
    return answer


def kernels(t):
    """The CUDA kernels of 3 products on GPU 0 under torch.profiler: name -> mean device time (us)."""
    a, b, c = t
    try:
        from torch.profiler import ProfilerActivity, profile
        with profile(activities=[ProfilerActivity.CUDA]) as prof:
            for _ in range(3):
                torch.matmul(a, b, out=c)
            torch.cuda.synchronize(0)
        times = {}
        for e in prof.events():
            if e.device_type == torch.autograd.DeviceType.CUDA:
                times.setdefault(e.name, []).append(e.time_range.elapsed_us())
        return {name: "%d x %.1f us" % (len(v), sum(v) / len(v)) for name, v in times.items()}
    except Exception as e:  # the profiler is a diagnostic: the bench goes on without it
        return {"profiler": "failed: %s: %s" % (type(e).__name__, e)}


def serve(devices):
    tensors = []
    for line in sys.stdin:
        cmd = json.loads(line)
        if cmd["cmd"] == "shape":
            t = getattr(torch, cmd["dtype"])
            m, k, n = cmd["M"], cmd["K"], cmd["N"]
            tensors = [(torch.randn(m, k, device=f"cuda:{d}", dtype=t), torch.randn(k, n, device=f"cuda:{d}", dtype=t),
                        torch.empty(m, n, device=f"cuda:{d}", dtype=t)) for d in range(devices)]
            for d in range(devices):
                torch.cuda.synchronize(d)
            answer = {"ok": True}
        elif cmd["cmd"] == "round":
            spin = cmd.get("spin", 0)
            for _ in range(cmd["warmup"]):
                once(tensors, devices, 0)
            idle, queued = [], []
            for _ in range(cmd["iters"]):
                idle.append(once(tensors, devices, 0))
                if spin > 0:
                    queued.append(once(tensors, devices, spin))
            answer = {"t_ms": median(idle)}
            if queued:
                answer["q_ms"] = median(queued)
        elif cmd["cmd"] in ("info", "kernels"):
            try:  # diagnostics: the bench goes on without them
                answer = info() if cmd["cmd"] == "info" else kernels(tensors[0])
            except Exception as e:
                answer = {"error": "%s: %s" % (type(e).__name__, e)}
        else:
            tensors = []
            torch.cuda.empty_cache()
            answer = {"ok": True}
        print(json.dumps(answer), flush=True)


if len(sys.argv) == 3 and sys.argv[1] == "--serve":
    serve(int(sys.argv[2]))
    sys.exit(0)

for dtype, m, k, n in SHAPES:
    t = getattr(torch, dtype)
    a = torch.randn(m, k, device="cuda:0", dtype=t)
    b = torch.randn(k, n, device="cuda:0", dtype=t)
    c = torch.empty(m, n, device="cuda:0", dtype=t)
    torch.cuda.synchronize()
    time.sleep(1)
    for _ in range(10):
        torch.matmul(a, b, out=c)
    torch.cuda.synchronize()
    rounds = [median_ms(a, b, c) for _ in range(3)]
    print(json.dumps({"dtype": dtype, "M": m, "K": k, "N": n, "t_mm_ms": rounds}), flush=True)
    del a, b, c
