#!/usr/bin/env python3
"""An oracle the project did not write: recomputes a fusion's outputs with numpy from the unsharded inputs that
`hirstudio run FILE --save-npy DIR` saved, and compares them with the outputs that run saved.

Written from the fusion file format (docs/fusion-file-format.md) and PyTorch's semantics, not from the engine's
Java reference: sharding, meshes, Stream axes and loop steps do not change what a fusion computes, so they are
ignored; each op is applied to whole (unsharded) tensors as PyTorch's eager op with the output's dtype would be.

Values: float ops are computed in float64 and rounded to the output's dtype after every op (bfloat16 and fp8 are
rounded here, numpy has none of them); integer ops are exact in the dtype's width with two's-complement wrap; bool
is 0 or 1. Where PyTorch refuses an op that the fusion file accepted (integer division by zero, neg or sub of
bool, a sum or prod of bool into bool, a true division of bool), the fusion is reported as REFUSED: a run that
produced numbers for it disagrees with PyTorch.

Tolerance (docs/validation.md, "numpy oracle"): every float value carries a first-order bound E of its distance
from the exact result, propagated op by op (sums of the operands' bounds for add and sub, |a| e_b + |b| e_a for
mul, the function's slope over [v - E, v + E] for unary ops, |A| E_B + E_A |B| plus K accumulation roundings for a
matmul or reduction of K terms) plus one rounding of the output dtype's unit roundoff u per op (2^-24 float,
2^-53 double, 2^-11 half, 2^-8 bfloat16, 2^-4 e4m3fn, 2^-3 e5m2); accumulations count at float32's u for
float32 and narrower outputs, as PyTorch accumulates them. Another correct implementation is also within E of the
exact result, so a saved output element passes when |saved - oracle| <= 2 E + tiny (tiny: the dtype's smallest
subnormal spacing); where E is unbounded (log or sqrt of an interval reaching 0, a divisor interval holding 0)
the element is not compared and counted as such. Integer and bool outputs whose inputs are exact (E = 0) must be
equal; NaN must meet NaN, inf the same inf.

usage: numpy_oracle.py [--quiet] MANIFEST.json ... | @LIST (a file with one manifest path a line)
       numpy_oracle.py --self-test (the oracle's rounding and integer rules against hand-worked values)
Prints one line per manifest, `OK`, `MISMATCH`, `REFUSED` or `ERROR` then its name and detail, and a summary.
Exit 0 when every manifest is OK, 1 when one is not, 2 on bad usage.
"""
import json
import math
import os
import sys

import numpy as np

# dtype name -> (numpy storage, kind, unit roundoff, tiny absolute term)
DTYPES = {
    "float": (np.float32, "f", 2.0 ** -24, 2.0 ** -149),
    "double": (np.float64, "f", 2.0 ** -53, 2.0 ** -1074),
    "half": (np.float16, "f", 2.0 ** -11, 2.0 ** -24),
    "bfloat16": (np.float32, "f", 2.0 ** -8, 2.0 ** -133),
    "float8_e4m3fn": (np.float32, "f", 2.0 ** -4, 2.0 ** -9),
    "float8_e5m2": (np.float32, "f", 2.0 ** -3, 2.0 ** -16),
    "int64": (np.int64, "i", 0.0, 0.0),
    "int32": (np.int32, "i", 0.0, 0.0),
    "bool": (np.bool_, "b", 0.0, 0.0),
}
# (significand bits with the implicit one, frexp exponent of the smallest normal, largest finite, overflow to)
NARROW = {"bfloat16": (8, -125, 3.3895313892515355e38, np.inf),
          "float8_e4m3fn": (4, -5, 448.0, np.nan),
          "float8_e5m2": (3, -13, 57344.0, np.inf)}
F32_U = 2.0 ** -24
# the implementation error allowed to a function, in units of the output dtype's u (docs/validation.md)
IMPL_ULPS = {"exp": 4, "log": 4, "rsqrt": 4, "tanh": 4, "erf": 4, "sigmoid": 8, "silu": 8, "gelu": 8}


class Refused(Exception):
    """PyTorch would refuse this op (it raises); the fusion file accepted it."""


class Bad(Exception):
    """The manifest or fusion cannot be read."""


def kind(dtype):
    return DTYPES[dtype][1]


def round_to(x, dtype):
    """x (float64 array) rounded to nearest even in `dtype`, returned as float64."""
    x = np.asarray(x, dtype=np.float64)
    if dtype == "double":
        return x.copy()
    if dtype in ("float", "half"):
        with np.errstate(over="ignore", invalid="ignore"):
            return x.astype(DTYPES[dtype][0]).astype(np.float64)
    bits, emin, largest, overflow = NARROW[dtype]
    with np.errstate(over="ignore", invalid="ignore"):
        mant, exp = np.frexp(x)
        exp = np.maximum(exp, emin)  # subnormals: a fixed spacing below the smallest normal
        q = np.ldexp(np.rint(np.ldexp(x, bits - exp)), exp - bits)
        big = np.isfinite(x) & (np.abs(q) > largest)
        q = np.where(big, np.copysign(overflow, x) if not np.isnan(overflow) else np.nan, q)
        q = np.where(np.isinf(x), x if np.isinf(overflow) else np.nan, q)
    return q


class T:
    """A tensor value: v (float64 for float dtypes, the integer or bool numpy dtype otherwise), its dtype, and e,
    a float64 bound of its distance from the exact result (0 where exact)."""

    def __init__(self, v, dtype, e=None):
        self.v = v
        self.dtype = dtype
        self.e = np.zeros(np.shape(v)) if e is None else np.broadcast_to(np.asarray(e, dtype=np.float64),
                                                                          np.shape(v)).copy()

    def f64(self):
        return np.asarray(self.v, dtype=np.float64)

    def mag(self):
        return np.abs(self.f64()) + self.e


def finish_float(exact, e, dtype):
    """A float op's float64 result rounded to `dtype`, its bound grown by that rounding."""
    r = round_to(exact, dtype)
    with np.errstate(invalid="ignore", over="ignore"):
        e = e + DTYPES[dtype][2] * np.abs(r) + DTYPES[dtype][3]
    e = np.where(np.isfinite(r), e, 0.0)
    return T(r, dtype, e)


def as_dtype(values, dtype):
    """Integer or bool values stored in `dtype` with wrap (two's complement)."""
    if dtype == "bool":
        return np.asarray(values) != 0
    return np.asarray(values).astype(np.int64).astype(DTYPES[dtype][0])


# ---- the file ---------------------------------------------------------------------------------------------------

def axis_obj(a):
    return a if isinstance(a, dict) else {"extent": a}


def runtime_axes(tensor):
    """The file's axes a run holds: every axis but the reduction ones."""
    return [axis_obj(a) for a in tensor["axes"] if axis_obj(a).get("iter") != "reduction"]


def runtime_index(tensor, position):
    """Position among the runtime axes of the file axis `position`."""
    return sum(1 for a in tensor["axes"][:position] if axis_obj(a).get("iter") != "reduction")


def extent(a, symbols):
    a = axis_obj(a)
    if a.get("iter") == "broadcast" and "extent" not in a:
        return 1
    e = a["extent"]
    if isinstance(e, int):
        return e
    if e not in symbols:
        raise Bad("extent '%s' has no value" % e)
    return int(symbols[e])


def shape(tensor, symbols):
    return [extent(a, symbols) for a in runtime_axes(tensor)]


# ---- ops --------------------------------------------------------------------------------------------------------

def unary(name, x, out_dtype):
    k = kind(x.dtype)
    if k == "b" and name == "neg":
        raise Refused("neg of a bool tensor (PyTorch: 'Negation, the `-` operator, on a bool tensor is not "
                      "supported')")
    if kind(out_dtype) != "f":  # neg, abs, relu of an integer or bool: exact, in the dtype
        v = x.v.astype(np.int64) if k == "i" else x.v
        r = {"neg": lambda: -v, "abs": lambda: np.abs(v), "relu": lambda: np.maximum(v, 0)}[name]()
        return T(as_dtype(r, out_dtype), out_dtype, x.e)
    v, e = x.f64(), x.e
    with np.errstate(all="ignore"):
        lo, hi = v - e, v + e
        if name in ("neg", "abs", "relu"):
            r, slope = {"neg": -v, "abs": np.abs(v), "relu": np.maximum(v, 0.0)}[name], e
        elif name == "exp":
            r, slope = np.exp(v), np.exp(hi) * e
        elif name == "log":
            r, slope = np.log(v), np.where(lo > 0, e / np.where(lo > 0, lo, 1.0), np.inf)
        elif name == "sqrt":
            r, slope = np.sqrt(v), np.where(lo >= 0, np.sqrt(np.maximum(hi, 0)) - np.sqrt(np.maximum(lo, 0)), np.inf)
        elif name == "rsqrt":
            r, slope = 1.0 / np.sqrt(v), np.where(lo > 0, 1.0 / np.sqrt(np.where(lo > 0, lo, 1.0)) - 1.0 / np.sqrt(
                np.where(lo > 0, hi, 1.0)), np.inf)
        elif name == "tanh":
            r, slope = np.tanh(v), e
        elif name == "erf":
            r, slope = erf(v), 1.1284 * e
        elif name == "sigmoid":
            r, slope = 1.0 / (1.0 + np.exp(-v)), 0.25 * e
        elif name == "gelu":  # the erf form, PyTorch's default: x * 0.5 * (1 + erf(x / sqrt(2)))
            r, slope = v * 0.5 * (1.0 + erf(v / math.sqrt(2.0))), 1.13 * e
        elif name == "silu":
            r, slope = v / (1.0 + np.exp(-v)), 1.1 * e
        elif name == "reciprocal":  # bounded where the interval keeps one sign
            one_sign = lo * hi > 0
            r, slope = 1.0 / v, np.where(one_sign, np.abs(1.0 / np.where(one_sign, lo, 1.0)
                                                           - 1.0 / np.where(one_sign, hi, 1.0)), np.inf)
        else:
            raise Bad("unknown unary op " + name)
        slope = np.where(e > 0, slope, 0.0)
        # libraries compute these functions to a few ulps, not correctly rounded (glibc, SLEEF, the JDK's own),
        # and gelu, silu and sigmoid are composites of several rounded steps (gelu's relative to its terms)
        scale = np.abs(r)
        if name == "gelu":
            scale = np.abs(v) * 0.5 * (1.0 + np.abs(erf(v / math.sqrt(2.0))))
        slope = slope + IMPL_ULPS.get(name, 0) * DTYPES[out_dtype][2] * scale
    return finish_float(r, slope, out_dtype)


def erf(x):
    return np.vectorize(math.erf, otypes=[np.float64])(x) if np.size(x) else np.zeros(np.shape(x))


def cast(x, out_dtype):
    k_in, k_out = kind(x.dtype), kind(out_dtype)
    if k_out == "f":
        return finish_float(x.f64(), x.e, out_dtype)
    if k_out == "b":
        v = x.f64()
        e = np.where((x.e > 0) & (np.abs(v) <= x.e), 1.0, 0.0)
        return T(v != 0, out_dtype, e)
    if k_in == "f":  # float to integer truncates toward zero, as PyTorch's .to()
        v = x.f64()
        info = np.iinfo(DTYPES[out_dtype][0])
        # NaN, infinities and values out of the integer's range convert to whatever the machine gives (C++ leaves
        # it undefined, PyTorch does not define it): those elements are not compared
        defined = np.isfinite(v) & (v > info.min - 1.0) & (v < info.max + 1.0)
        e = np.where(defined, np.where(x.e > 0, np.floor(x.e) + 1.0, 0.0), np.inf)
        return T(as_dtype(np.trunc(np.where(defined, v, 0.0)), out_dtype), out_dtype, e)
    return T(as_dtype(x.v.astype(np.int64) if k_in == "i" else x.v, out_dtype), out_dtype, x.e)


def binary(name, a, b, out_dtype):
    k = kind(out_dtype)
    if k == "b":
        if name == "sub":
            raise Refused("sub of bool tensors (PyTorch: 'Subtraction, the `-` operator, with two bool tensors is "
                          "not supported')")
        if name == "div":
            raise Refused("div of bool tensors into bool (PyTorch's true division gives float)")
        r = (a.v | b.v) if name == "add" else (a.v & b.v)
        return T(r, out_dtype, np.maximum(a.e, b.e))
    if k == "i":
        x, y = a.v.astype(np.int64), b.v.astype(np.int64)
        if name == "div":
            if np.any(np.broadcast_to(y, np.broadcast_shapes(x.shape, y.shape)) == 0):
                raise Refused("integer division by zero (PyTorch raises 'ZeroDivisionError')")
            q = np.abs(x) // np.abs(y)  # truncation toward zero, as C++ and div(rounding_mode='trunc')
            r = np.where((x < 0) != (y < 0), -q, q)
        else:
            with np.errstate(over="ignore"):
                r = {"add": np.add, "sub": np.subtract, "mul": np.multiply}[name](x, y)
        e = np.where((a.e + b.e) > 0, np.inf, 0.0) if np.any(a.e + b.e) else 0.0
        return T(as_dtype(r, out_dtype), out_dtype, np.broadcast_to(e, r.shape))
    x, y, ex, ey = a.f64(), b.f64(), a.e, b.e
    with np.errstate(all="ignore"):
        if name in ("add", "sub"):
            r, e = (x + y) if name == "add" else (x - y), ex + ey
        elif name == "mul":
            r, e = x * y, np.abs(x) * ey + np.abs(y) * ex + ex * ey
        else:
            r = x / y
            safe = np.abs(y) > ey
            e = np.where(safe, (ex * np.abs(y) + np.abs(x) * ey) / (np.abs(y) * np.where(safe, np.abs(y) - ey, 1.0)),
                         np.inf)
            e = np.where((ex + ey) > 0, e, 0.0)
    return finish_float(r, e, out_dtype)


def where(c, x, y, out_dtype):
    shp = np.broadcast_shapes(np.shape(c.v), np.shape(x.v), np.shape(y.v))
    cond = np.broadcast_to(c.v, shp)
    r = np.where(cond, x.v, y.v)
    e = np.where(cond, np.broadcast_to(x.e, shp), np.broadcast_to(y.e, shp))
    if np.any(c.e):
        gap = np.abs(np.broadcast_to(x.f64(), shp) - np.broadcast_to(y.f64(), shp))
        e = np.where(np.broadcast_to(c.e, shp) > 0, np.maximum(e, gap) + np.maximum(
            np.broadcast_to(x.e, shp), np.broadcast_to(y.e, shp)), e)
    return T(r, out_dtype, e)


def reduce(name, x, axes, out_dtype):
    axes = tuple(axes)
    count = int(np.prod([np.shape(x.v)[a] for a in axes])) if axes else 1
    k = kind(out_dtype)
    if k == "b" and name in ("sum", "prod"):
        raise Refused(name + " of bool into bool (PyTorch sums and multiplies bool into int64)")
    if k != "f":
        if name in ("max", "min"):
            r = (np.max if name == "max" else np.min)(x.v, axis=axes)
        else:
            with np.errstate(over="ignore"):
                r = (np.sum if name == "sum" else np.prod)(x.v.astype(np.int64), axis=axes)
        e = np.max(x.e, axis=axes) if np.any(x.e) else 0.0
        if np.any(x.e) and name in ("sum", "prod"):
            e = np.where(np.sum(x.e, axis=axes) > 0, np.inf, 0.0)
        return T(as_dtype(r, out_dtype), out_dtype, np.broadcast_to(e, np.shape(r)))
    v, e = x.f64(), x.e
    acc = max(DTYPES[out_dtype][2], F32_U) if out_dtype != "double" else DTYPES["double"][2]
    with np.errstate(all="ignore"):
        if name == "sum":
            r = np.sum(v, axis=axes)
            err = np.sum(e, axis=axes) + count * acc * np.sum(np.abs(v) + e, axis=axes)
        elif name == "prod":
            r = np.prod(v, axis=axes)
            m = np.abs(v) + e
            err = (np.prod(m, axis=axes) - np.prod(np.abs(v), axis=axes)) + count * acc * np.prod(m, axis=axes)
        else:
            r = (np.max if name == "max" else np.min)(v, axis=axes)
            err = np.max(e, axis=axes)
    return finish_float(r, err, out_dtype)


def batch_view(arr, tensor, out_tensor):
    """A matmul operand's batch axes placed under the output's: a DID batch axis pairs with the output's batch
    axis of the same parallel type (each device multiplies its own slices, fusion-file-format.md), the others
    right-aligned as at::matmul broadcasts them."""
    own = runtime_axes(tensor)
    if len(own) <= 2:
        return arr
    out_batch = runtime_axes(out_tensor)[:-2]
    batch = own[:-2]
    dids = [a.get("parallel") for a in batch if a.get("parallel", "Serial").startswith("DID")]
    if not dids or len(batch) == len(out_batch):
        return arr
    slots = [None] * len(out_batch)
    rest = []
    for i, a in enumerate(batch):
        p = a.get("parallel", "Serial")
        match = [j for j, o in enumerate(out_batch) if o.get("parallel") == p and slots[j] is None]
        if p.startswith("DID") and match:
            slots[match[0]] = i
        else:
            rest.append(i)
    free = [j for j in range(len(out_batch)) if slots[j] is None]
    for j, i in zip(reversed(free), reversed(rest)):
        slots[j] = i
    order = [i for i in slots if i is not None] + [len(batch), len(batch) + 1]
    moved = np.transpose(arr, order)
    new_shape = [arr.shape[i] if i is not None else 1 for i in slots] + list(arr.shape[-2:])
    return moved.reshape(new_shape)


def matmul(a, b, out_dtype, ta, tb, tout, bias=None):
    va, vb, ea, eb = a.f64(), b.f64(), a.e, b.e
    k = np.shape(va)[-1]
    if np.ndim(vb) >= 2:
        va, vb = batch_view(va, ta, tout), batch_view(vb, tb, tout)
        ea, eb = batch_view(np.broadcast_to(ea, np.shape(a.v)), ta, tout), batch_view(
            np.broadcast_to(eb, np.shape(b.v)), tb, tout)
    acc = max(DTYPES[out_dtype][2], F32_U) if out_dtype != "double" else DTYPES["double"][2]
    with np.errstate(all="ignore"):
        r = np.matmul(va, vb)
        ma, mb = np.abs(va) + ea, np.abs(vb) + eb
        err = np.matmul(ma, mb) - np.matmul(np.abs(va), np.abs(vb)) + k * acc * np.matmul(ma, mb)
        if bias is not None:
            r = r + bias.f64()
            err = err + bias.e + acc * np.abs(r)
    return finish_float(r, err, out_dtype)


def linear(x, w, out_dtype, tx, tw, tout, bias=None):
    wt = T(np.swapaxes(w.f64(), -1, -2) if np.ndim(w.v) == 2 else w.f64(), w.dtype,
           np.swapaxes(np.broadcast_to(w.e, np.shape(w.v)), -1, -2) if np.ndim(w.v) == 2 else w.e)
    return matmul(x, wt, out_dtype, tx, {"axes": []}, tout, bias)


def broadcast(x, flags):
    shp, it = [], iter(np.shape(x.v))
    for f in flags:
        shp.append(1 if f else next(it))
    return T(np.reshape(x.v, shp), x.dtype, np.reshape(x.e, shp))


def apply(op, env, tensors, symbols):
    name = op["op"]
    ins = [env[i] for i in op["inputs"]]
    out_t = tensors[op["output"]]
    in_t = [tensors[i] for i in op["inputs"]]
    od = out_t["dtype"]
    x = ins[0]
    if name == "set":
        if "permute" in op:
            return T(np.transpose(x.v, op["permute"]), od, np.transpose(x.e, op["permute"]))
        return T(x.v.copy(), od, x.e)
    if name == "cast":
        return cast(x, od)
    if name in ("neg", "abs", "exp", "log", "sqrt", "rsqrt", "tanh", "erf", "sigmoid", "relu", "gelu", "silu",
                "reciprocal"):
        return unary(name, x, od)
    if name in ("add", "sub", "mul", "div"):
        return binary(name, ins[0], ins[1], od)
    if name in ("sum", "max", "min", "prod"):
        return reduce(name, x, [runtime_index(in_t[0], p) for p in op["axes"]], od)
    if name == "broadcast":
        return broadcast(x, op["flags"])
    if name == "where":
        return where(ins[0], ins[1], ins[2], od)
    if name == "squeeze":
        keep = [s for s, f in zip(np.shape(x.v), op["flags"]) if not f]
        return T(np.reshape(x.v, keep), od, np.reshape(x.e, keep))
    if name == "expand":
        shp = shape(out_t, symbols)
        return T(np.broadcast_to(x.v, shp).copy(), od, np.broadcast_to(x.e, shp))
    if name == "reshape":
        shp = shape(out_t, symbols)
        return T(np.reshape(x.v, shp), od, np.reshape(x.e, shp))
    if name == "matmul":
        return matmul(ins[0], ins[1], od, in_t[0], in_t[1], out_t)
    if name == "linear":
        return linear(ins[0], ins[1], od, in_t[0], in_t[1], out_t, ins[2] if len(ins) > 2 else None)
    if name == "index_select":  # at::index_select: rows moved unchanged, their error bounds with them
        dim = runtime_index(in_t[0], op["axes"][0])
        idx = np.asarray(ins[1].v).astype(np.int64)
        if np.any(idx < 0) or np.any(idx >= np.shape(x.v)[dim]):
            raise Bad("index_select index out of range")
        return T(np.take(x.v, idx, axis=dim), od, np.take(np.broadcast_to(x.e, np.shape(x.v)), idx, axis=dim))
    if name == "take_along_axis":  # at::take_along_dim, an input broadcast axis stretched to the index's
        dim = runtime_index(in_t[0], op["axes"][0])
        idx = np.asarray(ins[1].v).astype(np.int64)
        if np.any(idx < 0) or np.any(idx >= np.shape(x.v)[dim]):
            raise Bad("take_along_axis index out of range")
        shp = [n if i == dim else max(n, m) for i, (n, m) in enumerate(zip(np.shape(x.v), np.shape(idx)))]
        v, e = np.broadcast_to(x.v, shp), np.broadcast_to(x.e, np.shape(x.v))
        e = np.broadcast_to(e, shp)
        return T(np.take_along_axis(v, idx, axis=dim), od, np.take_along_axis(e, idx, axis=dim))
    if name in ("topk", "topk_indices"):
        return topk(x, runtime_index(in_t[0], op["axes"][0]), op["flags"], shape(out_t, symbols), od,
                    name == "topk_indices")
    if name == "scatter":
        return scatter(ins[0], ins[1], ins[2], runtime_index(in_t[0], op["axes"][0]), od)
    if name == "grouped_mm":
        return grouped_mm(ins[0], ins[1], ins[2], od)
    raise Bad("unknown op " + name)


def topk(x, dim, flags, out_shape, od, want_indices):
    """at::topk: the k largest (smallest) along dim, NaN above every number, ties in input order, sorted (PyTorch
    leaves ties' and unsorted order open; this is the order the Studio promises, docs/fusion-file-format.md)."""
    largest = flags[0]
    k = out_shape[dim]
    v = np.moveaxis(np.asarray(x.v), dim, -1)
    nan = np.isnan(v) if kind(x.dtype) == "f" else np.zeros(np.shape(v), dtype=bool)
    filled = np.where(nan, 0, v)
    # lexsort: the last key decides first; both sorts are stable, so ties keep input order
    order = np.lexsort((-filled if largest else filled, ~nan if largest else nan), axis=-1)[..., :k]
    idx = np.moveaxis(order, -1, dim)
    if want_indices:
        return T(idx.astype(np.int64), od)
    e = np.broadcast_to(x.e, np.shape(x.v))
    return T(np.take_along_axis(np.asarray(x.v), idx, axis=dim), od, np.take_along_axis(e, idx, axis=dim))


def scatter(self_, index, src, dim, od):
    """at::scatter out of place: self with out[.., index[.., j, ..], ..] = src[.., j, ..]; the Studio refuses a
    repeated target (PyTorch leaves its result undefined)."""
    idx = np.asarray(index.v).astype(np.int64)
    if np.any(idx < 0) or np.any(idx >= np.shape(self_.v)[dim]):
        raise Bad("scatter index out of range")
    lines = np.sort(np.moveaxis(idx, dim, -1), axis=-1)
    if np.any(lines[..., 1:] == lines[..., :-1]):
        raise Bad("scatter writes one element twice")
    part = tuple(slice(0, n) for n in np.shape(idx))
    v, e = np.array(self_.v, copy=True), np.array(np.broadcast_to(self_.e, np.shape(self_.v)), copy=True)
    np.put_along_axis(v, idx, np.asarray(src.v)[part], axis=dim)
    np.put_along_axis(e, idx, np.broadcast_to(src.e, np.shape(src.v))[part], axis=dim)
    return T(v, od, e)


def grouped_mm(a, b, offsets, od):
    """GroupedMmaOp's fallback (nvFuser csrc/ir/composite_nodes.cpp): the offsets' group sizes split K of
    [m, k] x [k, n] -> [g, m, n], N of [g, m, k] x [k, n] -> [m, n] or M of [m, k] x [g, k, n] -> [m, n]."""
    va, vb = a.f64(), b.f64()
    ea, eb = np.broadcast_to(a.e, np.shape(va)), np.broadcast_to(b.e, np.shape(vb))
    ends = np.asarray(offsets.v).astype(np.int64)
    split = {(2, 2): np.shape(va)[1], (3, 2): np.shape(vb)[1], (2, 3): np.shape(va)[0]}[(va.ndim, vb.ndim)]
    starts = np.concatenate([[0], ends[:-1]])
    if len(ends) and (np.any(ends < starts) or ends[-1] != split):
        raise Bad("grouped_mm offsets do not rise to %d" % split)
    m, n = np.shape(va)[-2], np.shape(vb)[-1]
    shp = (len(ends), m, n) if va.ndim == 2 and vb.ndim == 2 else (m, n)
    r, err = np.zeros(shp), np.zeros(shp)
    acc = max(DTYPES[od][2], F32_U) if od != "double" else DTYPES["double"][2]
    k = np.shape(va)[-1]
    for g, (s, t) in enumerate(zip(starts, ends)):
        if va.ndim == 2 and vb.ndim == 2:
            pa, pb, pea, peb, at = va[:, s:t], vb[s:t], ea[:, s:t], eb[s:t], (g,)
        elif va.ndim == 3:
            pa, pb, pea, peb, at = va[g], vb[:, s:t], ea[g], eb[:, s:t], (slice(None), slice(s, t))
        else:
            pa, pb, pea, peb, at = va[s:t], vb[g], ea[s:t], eb[g], (slice(s, t),)
        with np.errstate(all="ignore"):
            ma, mb = np.abs(pa) + pea, np.abs(pb) + peb
            r[at] = pa @ pb
            err[at] = ma @ mb - np.abs(pa) @ np.abs(pb) + k * acc * (ma @ mb)
    return finish_float(r, err, od)


# ---- one saved run ----------------------------------------------------------------------------------------------

def load_input(path, dtype):
    a = np.load(path)
    if kind(dtype) == "f":
        return T(a.astype(np.float64), dtype)
    return T(a.astype(DTYPES[dtype][0]), dtype)


def compare(name, got, want, counts):
    """Mismatch text for output `name`, or None."""
    if list(got.shape) != list(np.shape(want.v)):
        return "%s: shape %s, numpy gives %s" % (name, list(got.shape), list(np.shape(want.v)))
    if kind(want.dtype) != "f":
        g = got.astype(np.int64) if kind(want.dtype) == "i" else got.astype(bool)
        w = want.v.astype(np.int64) if kind(want.dtype) == "i" else want.v.astype(bool)
        e = np.broadcast_to(want.e, w.shape)
        bad = (g != w) & ~(np.abs(g.astype(np.float64) - w.astype(np.float64)) <= e)
        counts["unbounded"] += int(np.sum(~np.isfinite(e)))
        counts["elements"] += int(np.sum(np.isfinite(e)))
    else:
        g, w = got.astype(np.float64), want.v
        e = np.broadcast_to(want.e, w.shape)
        tiny = DTYPES[want.dtype][3]
        bounded = np.isfinite(e)
        counts["unbounded"] += int(np.sum(~bounded))
        counts["elements"] += int(np.sum(bounded))
        with np.errstate(invalid="ignore"):
            same_special = (np.isnan(g) & np.isnan(w)) | (np.isinf(w) & (g == w))
            close = np.abs(g - w) <= 2.0 * e + tiny
        bad = bounded & ~same_special & ~close
    if not np.any(bad):
        return None
    i = tuple(int(c[0]) for c in np.nonzero(bad)) if np.ndim(bad) else ()
    gi, wi = np.asarray(got)[i] if np.ndim(got) else got, np.asarray(w)[i] if np.ndim(w) else w
    return "%s: %d of %d elements differ, first at %s: saved %r, numpy %r (allowed %.3g)" % (
        name, int(np.sum(bad)), np.size(bad), list(i), gi.item() if hasattr(gi, "item") else gi,
        wi.item() if hasattr(wi, "item") else wi, float(np.asarray(e)[i]) * 2 if np.ndim(e) else float(e))


def check(manifest_path, counts):
    """('OK'|'MISMATCH'|'REFUSED', name, detail) for one saved run."""
    with open(manifest_path) as f:
        manifest = json.load(f)
    if manifest.get("format") != "hirstudio-npy/1":
        raise Bad("not a hirstudio-npy/1 manifest")
    base = os.path.dirname(os.path.abspath(manifest_path))
    fusion_path = manifest["fusion"]
    if not os.path.isabs(fusion_path) and not os.path.exists(fusion_path):
        fusion_path = os.path.join(base, fusion_path)
    with open(fusion_path) as f:
        fusion = json.load(f)
    if fusion.get("format") not in ("hostir-fusion/1", "hostir-fusion/2"):
        raise Bad("unknown fusion format %r" % fusion.get("format"))
    name = manifest.get("name", fusion.get("name"))
    if any("shard" in t for t in manifest["tensors"]):
        raise Bad("per-rank shards (launcher mode) are not compared")
    tensors = {t["name"]: t for t in fusion["tensors"]}
    symbols = dict(fusion.get("symbols", {}))
    symbols.update(manifest.get("symbols", {}))
    saved = {t["name"]: t for t in manifest["tensors"]}
    env = {}
    for n in fusion["inputs"]:
        if n not in saved:
            raise Bad("input %s was not saved" % n)
        env[n] = load_input(os.path.join(base, saved[n]["file"]), tensors[n]["dtype"])
    try:
        for op in fusion["ops"]:
            env[op["output"]] = apply(op, env, tensors, symbols)
    except Refused as r:
        return "REFUSED", name, "%s: %s" % (op["output"], r)
    problems = []
    for n in fusion["outputs"]:
        if n not in saved:
            problems.append("%s: not saved" % n)
            continue
        got = np.load(os.path.join(base, saved[n]["file"]))
        p = compare(n, got, env[n], counts)
        if p:
            problems.append(p)
    return ("MISMATCH" if problems else "OK"), name, "; ".join(problems)


def self_test():
    """The oracle's own arithmetic against values worked out by hand from the formats' definitions."""
    def eq(got, want, what):
        got, want = np.asarray(got, dtype=np.float64), np.asarray(want, dtype=np.float64)
        if not np.array_equal(got, want, equal_nan=True):
            raise AssertionError("%s: %r, expected %r" % (what, got.tolist(), want.tolist()))
    eq(round_to([1 + 2.0 ** -8, 1 + 3 * 2.0 ** -8, 3.0e38 * 1.2], "bfloat16"), [1.0, 1.015625, np.inf], "bfloat16")
    eq(round_to([449.0, 470.0, 2.0 ** -10, 0.3], "float8_e4m3fn"), [448.0, np.nan, 0.0, 0.3125], "e4m3fn")
    eq(round_to([2.0 ** -17, 3 * 2.0 ** -17, 60000.0, 62000.0, 0.3], "float8_e5m2"),
       [0.0, 2.0 ** -15, 57344.0, np.inf, 0.3125], "e5m2")
    eq(round_to([65520.0, 1 + 2.0 ** -11], "half"), [np.inf, 1.0], "half")
    i32 = lambda v: T(np.asarray(v, dtype=np.int32), "int32")
    eq(binary("mul", i32([65536, 46341]), i32([32768, 46341]), "int32").v, [-2147483648, -2147479015], "int32 wrap")
    eq(binary("div", i32([-7, 7, -8]), i32([2, -2, 3]), "int32").v, [-3, -3, -2], "int32 div truncates")
    eq(reduce("prod", i32([[8] * 11]), [1], "int32").v, [0], "int32 prod wraps (8^11 = 2^33)")
    eq(reduce("sum", T(np.asarray([[True, True]]), "bool"), [1], "int64").v, [2], "bool summed into int64")
    eq(unary("neg", i32([-2147483648]), "int32").v, [-2147483648], "neg wraps")
    eq(cast(T(np.asarray([-2.7, 2.7, np.nan]), "float"), "int32").v, [-2, 2, 0], "cast truncates")
    for refused in (lambda: unary("neg", T(np.asarray([True]), "bool"), "bool"),
                    lambda: binary("div", i32([1]), i32([0]), "int32"),
                    lambda: reduce("sum", T(np.asarray([[True]]), "bool"), [1], "bool")):
        try:
            refused()
            raise AssertionError("PyTorch refuses it; the oracle did not")
        except Refused:
            pass
    print("numpy-oracle: self-test passed")


def main(argv):
    if argv == ["--self-test"]:
        self_test()
        return 0
    quiet = "--quiet" in argv
    paths = []
    for a in argv:
        if a == "--quiet":
            continue
        if a.startswith("@"):
            with open(a[1:]) as f:
                paths.extend(line.strip() for line in f if line.strip())
        elif a.startswith("-"):
            print("usage: numpy_oracle.py [--quiet] MANIFEST.json ... | @LIST", file=sys.stderr)
            return 2
        else:
            paths.append(a)
    if not paths:
        print("usage: numpy_oracle.py [--quiet] MANIFEST.json ... | @LIST", file=sys.stderr)
        return 2
    tally = {"OK": 0, "MISMATCH": 0, "REFUSED": 0, "ERROR": 0}
    counts = {"elements": 0, "unbounded": 0}
    for p in paths:
        try:
            status, name, detail = check(p, counts)
        except (Bad, OSError, ValueError, KeyError, TypeError, IndexError, StopIteration) as e:
            status, name, detail = "ERROR", p, "%s: %s" % (type(e).__name__, e)
        tally[status] += 1
        if status != "OK" or not quiet:
            print("%s %s %s: %s" % (status, p, name, detail) if detail else "%s %s %s" % (status, p, name))
    print("numpy-oracle: %d runs: %d ok, %d mismatch, %d refused by PyTorch, %d error; %d elements compared, "
          "%d not compared (unbounded error)" % (len(paths), tally["OK"], tally["MISMATCH"], tally["REFUSED"],
                                                 tally["ERROR"], counts["elements"], counts["unbounded"]))
    return 0 if tally["OK"] == len(paths) else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
