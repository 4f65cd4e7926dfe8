#!/usr/bin/env python3
"""GEMM alone in PyTorch on GPU 0, for `hirstudio bench agmm --gemm`: C[M, N] = A[M, K] @ B[K, N] for the four
AG+GEMM shapes (fp32 with TF32 off, bf16): a second's pause (each series starts from the same power state, as the
engine's do), 10 warm-ups, then three rounds of CUDA-event medians of 30 products.
Operands are standard normal (torch.randn, as the AG+GEMM baseline script and the engine's fill kernel make them),
since a tensor-core GEMM's speed depends on its data (power). Prints one JSON line per shape:
{"dtype", "M", "K", "N", "t_mm_ms": [round medians]}."""
import json
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
