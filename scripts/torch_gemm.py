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
time) and answers {"t_ms": median of the last N}; {"cmd": "free"} drops the tensors. Every answer is one JSON line."""
import json
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
            times = []
            for it in range(cmd["warmup"] + cmd["iters"]):
                for d in range(devices):
                    torch.cuda.synchronize(d)
                events = []
                for d, (a, b, c) in enumerate(tensors):
                    with torch.cuda.device(d):
                        s, e = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
                        s.record()
                        torch.matmul(a, b, out=c)
                        e.record()
                        events.append((s, e))
                for d in range(devices):
                    torch.cuda.synchronize(d)
                if it >= cmd["warmup"]:
                    times.append(events[0][0].elapsed_time(events[0][1]))
            answer = {"t_ms": sorted(times)[len(times) // 2]}
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
