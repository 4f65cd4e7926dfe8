#!/usr/bin/env python3
"""Independent check of a run's results: `hirstudio run FILE --save-npy DIR` writes the inputs and outputs as
.npy files and DIR/manifest.json (manifest.rankR.json per process in launcher mode). This script reads the fusion
file named there, runs the fusion's math in PyTorch (on the GPU when there is one) from the saved inputs, and
compares with the saved outputs at the engine's tolerances (double 1e-12, float 1e-4, half 2e-3, bfloat16 2e-2,
absolute and relative; int32, int64 and bool exactly). It knows the fusion file format's op set: set (with permute), add, sub,
mul, div, the unary ops (neg, abs, exp, log, sqrt, rsqrt, tanh, sigmoid, relu, gelu (erf form), silu, erf), cast, where,
sum, max, min, prod, broadcast, squeeze, expand, reshape, matmul (fp8 operands widened exactly, the math of the engine's fp8 GEMM) and
linear. Exit 0 when every output matches, 1 when one does not, 2 on bad input.

usage: check_npy_torch.py MANIFEST.json [MANIFEST.json ...]
"""
import json
import os
import sys

import numpy as np
import torch

TOL = {"float": 1e-4, "double": 1e-12, "half": 2e-3, "bfloat16": 2e-2, "float8_e4m3fn": 0.0625, "float8_e5m2": 0.125,
       "int64": 0.0, "int32": 0.0, "bool": 0.0}
DTYPES = {"float": torch.float32, "double": torch.float64, "half": torch.float16, "bfloat16": torch.bfloat16,
          "float8_e4m3fn": torch.float8_e4m3fn, "float8_e5m2": torch.float8_e5m2, "int64": torch.int64,
          "int32": torch.int32, "bool": torch.bool}
UNARY = {"neg": torch.neg, "abs": torch.abs, "exp": torch.exp, "log": torch.log, "sqrt": torch.sqrt,
         "rsqrt": torch.rsqrt, "tanh": torch.tanh, "sigmoid": torch.sigmoid, "relu": torch.relu,
         "gelu": torch.nn.functional.gelu, "silu": torch.nn.functional.silu, "erf": torch.erf}
REDUCE = {"sum": torch.sum, "max": torch.amax, "min": torch.amin, "prod": torch.prod}
FP8 = (torch.float8_e4m3fn, torch.float8_e5m2)


def runtime_axes(tensor):
    """The fusion file's axes of a tensor without its reduction axes (what a run holds), as dicts."""
    out = []
    for a in tensor["axes"]:
        a = a if isinstance(a, dict) else {"extent": a}
        if a.get("iter") != "reduction":
            out.append(a)
    return out


def runtime_position(tensor, axis):
    """Position among the runtime axes of the fusion-file axis `axis` of `tensor`."""
    axes = tensor["axes"]
    return sum(1 for a in axes[:axis] if not (isinstance(a, dict) and a.get("iter") == "reduction"))


def extent(a, symbols):
    """An axis extent of the fusion file (a number, a symbol or an arithmetic expression of symbols) at this run."""
    e = a.get("extent") if isinstance(a, dict) else a
    if isinstance(e, int):
        return e
    return int(eval(str(e), {"__builtins__": {}, "ceilDiv": lambda x, y: -(-x // y)}, dict(symbols)))


def runtime_shape(tensor, symbols):
    return [extent(a, symbols) for a in runtime_axes(tensor)]


def axis_key(a):
    a = a if isinstance(a, dict) else {"extent": a}
    return (str(a.get("extent")), a.get("parallel"))


def align_batch(x, tensor, out):
    """A matmul operand with its batch axes placed under the output's batch axes they stand for (same extent and
    parallel type, in order, as nvFuser maps them), size 1 elsewhere; torch.matmul then broadcasts. Operands
    whose batch axes match no such way are left as they are (right-aligned broadcasting)."""
    own = runtime_axes(tensor)
    if len(own) <= 2:
        return x
    target = runtime_axes(out)[:-2]
    batch = own[:-2]
    if len(batch) == len(target):
        return x
    shape, j = [], 0
    for t in target:
        if j < len(batch) and axis_key(batch[j]) == axis_key(t):
            shape.append(x.shape[j])
            j += 1
        else:
            shape.append(1)
    if j != len(batch):
        return x
    return x.reshape(shape + list(x.shape[-2:]))


def reduce(kind, x, dims, dtype):
    # low-precision floats accumulate in float32 as the engine's kernels do; other types in their own
    acc = torch.float32 if dtype in (torch.float16, torch.bfloat16) + FP8 else dtype
    r = x.to(acc)
    for d in sorted(dims, reverse=True):
        r = REDUCE[kind](r, dim=d)
    return r


def evaluate(fusion, values, device, symbols):
    tensors = {t["name"]: t for t in fusion["tensors"]}
    for op in fusion["ops"]:
        kind, raw, out = op["op"], [values[n] for n in op["inputs"]], op["output"]
        dtype = DTYPES[tensors[out]["dtype"]]
        ins = [x.to(dtype) for x in raw]
        if kind == "set":
            r = ins[0].permute(*op["permute"]) if op.get("permute") else ins[0]
        elif kind == "div" and not dtype.is_floating_point:
            # the file's div is nvFuser's: C++'s truncating integer division (csrc/ops/arith.cpp:954)
            r = torch.div(ins[0], ins[1], rounding_mode="trunc")
        elif kind in ("add", "sub", "mul", "div"):
            r = {"add": torch.add, "sub": torch.sub, "mul": torch.mul, "div": torch.div}[kind](ins[0], ins[1])
        elif kind in UNARY:
            r = UNARY[kind](ins[0])
        elif kind == "cast":
            r = raw[0].to(dtype)
        elif kind == "where":
            r = torch.where(raw[0].to(torch.bool), ins[1], ins[2])
        elif kind in REDUCE:
            src = tensors[op["inputs"][0]]
            r = reduce(kind, raw[0], [runtime_position(src, a) for a in op["axes"]], dtype)
        elif kind == "broadcast":
            flags = op["flags"]
            axes = tensors[out]["axes"]
            shape, it = [], iter(ins[0].shape)
            for a, fresh in zip(axes, flags):
                if isinstance(a, dict) and a.get("iter") == "reduction":
                    continue
                shape.append(1 if fresh else next(it))
            r = ins[0].reshape(shape)
        elif kind == "squeeze":
            r = ins[0]
            for d in sorted((i for i, f in enumerate(op["flags"]) if f), reverse=True):
                r = r.squeeze(d)
        elif kind == "expand":
            r = ins[0].expand(runtime_shape(tensors[out], symbols))
        elif kind == "reshape":
            r = ins[0].reshape(runtime_shape(tensors[out], symbols))
        elif kind == "matmul":
            # fp8 operands widened (exactly) to the output's type: the product cuBLASLt's fp8 GEMM computes with
            # unit scales, up to the order of its fp32 sums
            a, b = (align_batch(x, tensors[n], tensors[out]) for x, n in zip(ins, op["inputs"]))
            r = torch.matmul(a, b)
        elif kind == "linear":
            r = torch.nn.functional.linear(ins[0], ins[1], ins[2] if len(ins) > 2 else None)
        else:
            raise SystemExit(f"error: op {kind!r} is not known to this script")
        values[out] = r.to(dtype)
    return values


def check(manifest_path, device):
    with open(manifest_path) as f:
        manifest = json.load(f)
    base = os.path.dirname(os.path.abspath(manifest_path))
    fusion_path = manifest["fusion"]
    if not os.path.isabs(fusion_path) and not os.path.exists(fusion_path):
        fusion_path = os.path.join(os.getcwd(), fusion_path)
    with open(fusion_path) as f:
        fusion = json.load(f)
    values, outputs = {}, []
    for t in manifest["tensors"]:
        arr = np.load(os.path.join(base, t["file"]))
        if list(arr.shape) != list(t["shape"]):
            raise SystemExit(f"error: {t['file']}: shape {list(arr.shape)}, manifest says {t['shape']}")
        x = torch.from_numpy(arr).to(device).to(DTYPES[t["dtype"]])
        if t["role"] == "input":
            values[t["name"]] = x
        else:
            outputs.append((t, x))
    evaluate(fusion, values, device, manifest.get("symbols", {}))
    ok = True
    for t, actual in outputs:
        expected = values[t["name"]]
        shard = t.get("shard")
        if shard:
            chunk = expected.shape[shard["axis"]] // shard["count"]
            expected = expected.narrow(shard["axis"], shard["index"] * chunk, chunk)
        if tuple(expected.shape) != tuple(actual.shape):
            print(f"  {t['name']}: FAIL shape {tuple(actual.shape)}, PyTorch {tuple(expected.shape)}")
            ok = False
            continue
        e, a = expected.double(), actual.double()
        tol = TOL[t["dtype"]]
        err = (a - e).abs()
        bad = err > tol + tol * e.abs()
        max_err = err.max().item() if err.numel() else 0.0
        where = f" ({t['file']})"
        if bad.any():
            ok = False
            print(f"  {t['name']}{where}: FAIL {int(bad.sum())} of {err.numel()} elements off, max_abs_err={max_err:.3g}")
        else:
            print(f"  {t['name']}{where}: PASS max_abs_err={max_err:.3g} over {err.numel()} elements")
    return ok


def main(argv):
    if len(argv) < 2:
        print(__doc__.strip().splitlines()[-1], file=sys.stderr)
        return 2
    torch.backends.cuda.matmul.allow_tf32 = False  # fp32 as the engine runs it (no TF32)
    torch.backends.cudnn.allow_tf32 = False
    device = "cuda" if torch.cuda.is_available() else "cpu"
    all_ok = True
    for m in argv[1:]:
        with open(m) as f:
            name = json.load(f).get("name", "?")
        print(f"{m}: fusion {name}, PyTorch {torch.__version__} on {device}")
        try:
            all_ok &= check(m, device)
        except (OSError, KeyError, ValueError, RuntimeError) as e:
            print(f"  error: {e}")
            all_ok = False
    print("torch check: " + ("PASS" if all_ok else "FAIL"))
    return 0 if all_ok else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv))
