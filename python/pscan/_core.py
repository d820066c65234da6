"""The public functions: scans, reductions and segmented primitives over 1-D arrays."""

import ctypes
import operator

from . import _capi
from ._arrays import DTYPE_NAMES, INTEGER_DTYPES, as_int64_offsets, describe, new, np
from ._errors import InvalidArgument
from ._policy import Call, Policy, ambient_stream, cuda_chained

_OPS = {"sum": _capi.SUM, "min": _capi.MIN, "max": _capi.MAX, "exact_sum": _capi.EXACT_SUM}
_CTYPES = {_capi.INT32: ctypes.c_int32, _capi.INT64: ctypes.c_int64,
           _capi.FLOAT32: ctypes.c_float, _capi.FLOAT64: ctypes.c_double}
_INT_RANGES = {_capi.INT32: (-2**31, 2**31 - 1), _capi.INT64: (-2**63, 2**63 - 1)}
_NUMPY_SCALARS = {} if np is None else {
    _capi.INT32: np.int32, _capi.INT64: np.int64, _capi.FLOAT32: np.float32,
    _capi.FLOAT64: np.float64}


def _op(op) -> int:
    code = _OPS.get(op) if isinstance(op, str) else None
    if code is None:
        raise InvalidArgument(f"op must be one of 'sum', 'min', 'max', 'exact_sum', got {op!r}")
    return code


def _scalar(value, dtype, name="init"):
    """A ctypes value of `dtype` holding `value` (a Python, numpy or 0-d torch scalar)."""
    if not isinstance(value, (int, float)) and hasattr(value, "item"):
        value = value.item()
    if dtype in INTEGER_DTYPES:
        if isinstance(value, float):
            if not value.is_integer():
                raise InvalidArgument(f"{name}={value!r} is not an integer, and the data are "
                                      f"{DTYPE_NAMES[dtype]}")
            value = int(value)
        try:
            value = operator.index(value)
        except TypeError:
            raise InvalidArgument(f"{name} must be an integer for {DTYPE_NAMES[dtype]} data, "
                                  f"got {type(value).__name__}") from None
        low, high = _INT_RANGES[dtype]
        if not low <= value <= high:
            raise InvalidArgument(f"{name}={value} does not fit in {DTYPE_NAMES[dtype]}")
        return _CTYPES[dtype](value)
    try:
        value = float(value)
    except (TypeError, ValueError):
        raise InvalidArgument(f"{name} must be a number for {DTYPE_NAMES[dtype]} data, got "
                              f"{value!r}") from None
    return _CTYPES[dtype](value)


def _init_pointer(init, dtype):
    return None if init is None else ctypes.byref(_scalar(init, dtype))


def _result(c_value, dtype):
    make = _NUMPY_SCALARS.get(dtype)
    return make(c_value.value) if make is not None else c_value.value


def _overlap(a, b) -> bool:
    return (a.n > 0 and b.n > 0 and a.ptr < b.ptr + b.nbytes and b.ptr < a.ptr + a.nbytes)


def _output(out, like, n, name="out", dtype=None, zeros=False, in_place_of=None):
    """(object, Array) of the output: `out` checked, or a new array like `like`."""
    dtype = like.dtype if dtype is None else dtype
    if out is None:
        return new(like, n, dtype, zeros, name)
    o = describe(out, name)
    if o.dtype != dtype:
        raise InvalidArgument(f"{name} has dtype {DTYPE_NAMES[o.dtype]}, but the result is "
                              f"{DTYPE_NAMES[dtype]}")
    if o.n != n:
        raise InvalidArgument(f"{name} has {o.n} elements; the result has {n}")
    if o.readonly:
        raise InvalidArgument(f"{name} is read-only")
    if in_place_of is not None and o.ptr != in_place_of.ptr and _overlap(o, in_place_of):
        raise InvalidArgument(f"{name} overlaps {in_place_of.name} without being the same "
                              f"array: pass the same array (in place) or disjoint ones")
    return out, o


def _disjoint(o, *inputs):
    for a in inputs:
        if _overlap(o, a):
            raise InvalidArgument(f"{o.name} overlaps {a.name}: pass disjoint arrays")


def inclusive_scan(x, op="sum", *, out=None, policy=None):
    """out[i] = x[0] op ... op x[i]; returns out (new, like x, when None; out may be x).

    op: "sum", "min", "max" or "exact_sum" (the correctly rounded sum of the exact values).
    """
    code = _op(op)
    a = describe(x, "x")
    call = Call(policy, a)
    out, o = _output(out, a, a.n, in_place_of=a)
    call.add(o).run(_capi.inclusive_scan, "pscan_inclusive_scan", a.dtype, code, a.ptr, o.ptr,
                    a.n)
    return out


def exclusive_scan(x, op="sum", *, init=None, out=None, policy=None):
    """out[i] = init op x[0] op ... op x[i-1]; init None is op's identity (0 for the sums; for
    "min" the dtype's largest value, +inf for floats; for "max" its lowest, -inf); returns out
    (new when None; may be x)."""
    code = _op(op)
    a = describe(x, "x")
    call = Call(policy, a)
    init_p = _init_pointer(init, a.dtype)
    out, o = _output(out, a, a.n, in_place_of=a)
    call.add(o).run(_capi.exclusive_scan, "pscan_exclusive_scan",
                    a.dtype, code, a.ptr, o.ptr, a.n, init_p)
    return out


def reduce(x, op="sum", *, init=None, policy=None):
    """init op x[0] op ... op x[n-1] (init None: op's identity), as a numpy scalar of x's dtype
    (a Python number without numpy). Waits for the GPU."""
    code = _op(op)
    a = describe(x, "x")
    call = Call(policy, a)
    init_p = _init_pointer(init, a.dtype)
    result = _CTYPES[a.dtype]()
    call.run(_capi.reduce, "pscan_reduce", a.dtype, code, a.ptr, a.n, init_p,
             ctypes.byref(result))
    return _result(result, a.dtype)


def _segments(values, offsets, policy):
    v = describe(values, "values")
    call = Call(policy, v)
    off = as_int64_offsets(offsets)
    return v, off, call.add(off)


def inclusive_scan_by_offsets(values, offsets, op="sum", *, out=None, policy=None):
    """The inclusive scan of each segment [offsets[s], offsets[s+1]) of values, written at the
    values' positions; positions outside every segment keep out's content (zeros when out is
    None); out may be values. offsets: non-decreasing, offsets[0] >= 0 and
    offsets[-1] <= len(values); int64 (int32 offsets are converted: a copy of the offsets only).
    On the GPU, a policy with checked=False trusts offsets[-1] <= len(values) and reports bad
    order at synchronize()."""
    code = _op(op)
    v, off, call = _segments(values, offsets, policy)
    out, o = _output(out, v, v.n, zeros=True, in_place_of=v)
    _disjoint(o, off)
    call.add(o).run(_capi.inclusive_scan_by_offsets, "pscan_inclusive_scan_by_offsets",
                    v.dtype, code, v.ptr, v.n, off.ptr, off.n, o.ptr)
    return out


def exclusive_scan_by_offsets(values, offsets, op="sum", *, init=None, out=None, policy=None):
    """The exclusive scan from init (None: op's identity) of each segment
    [offsets[s], offsets[s+1]) of values, written at the values' positions; positions outside
    every segment keep out's content (zeros when out is None); out may be values. offsets as
    for inclusive_scan_by_offsets."""
    code = _op(op)
    v, off, call = _segments(values, offsets, policy)
    init_p = _init_pointer(init, v.dtype)
    out, o = _output(out, v, v.n, zeros=True, in_place_of=v)
    _disjoint(o, off)
    call.add(o).run(_capi.exclusive_scan_by_offsets, "pscan_exclusive_scan_by_offsets",
                    v.dtype, code, v.ptr, v.n, off.ptr, off.n, o.ptr, init_p)
    return out


def segmented_reduce(values, offsets, op="sum", *, init=None, out=None, policy=None):
    """out[s] = init op (the values of segment [offsets[s], offsets[s+1]) in order), for the
    len(offsets) - 1 segments; an empty segment gives init (None: op's identity). offsets as
    for inclusive_scan_by_offsets; returns out (new when None)."""
    code = _op(op)
    v, off, call = _segments(values, offsets, policy)
    init_p = _init_pointer(init, v.dtype)
    out, o = _output(out, v, max(off.n - 1, 0))
    _disjoint(o, v, off)
    call.add(o).run(_capi.segmented_reduce, "pscan_segmented_reduce",
                    v.dtype, code, v.ptr, v.n, off.ptr, off.n, o.ptr, init_p)
    return out


def reduce_by_key(keys, values, op="sum", *, keys_out=None, values_out=None, policy=None):
    """For each run of consecutive equal keys (int32 or int64), its first key and the reduction
    of its values: returns (unique_keys, reduced_values), the first `runs` elements of keys_out
    and values_out (new when None; len(keys) elements each). Waits for the GPU."""
    code = _op(op)
    k = describe(keys, "keys")
    if k.dtype not in INTEGER_DTYPES:
        raise InvalidArgument(f"keys has dtype {DTYPE_NAMES[k.dtype]}; keys are int32 or int64")
    call = Call(policy, k)
    v = describe(values, "values")
    if v.n != k.n:
        raise InvalidArgument(f"keys has {k.n} elements and values {v.n}")
    call.add(v)
    keys_out, ko = _output(keys_out, k, k.n, "keys_out")
    values_out, vo = _output(values_out, v, v.n, "values_out")
    _disjoint(ko, k, v)
    _disjoint(vo, k, v, ko)
    runs = ctypes.c_int64()
    call.add(ko, vo).run(_capi.reduce_by_key, "pscan_reduce_by_key",
                         k.dtype, v.dtype, code, k.ptr, v.ptr, k.n, ko.ptr, vo.ptr,
                         ctypes.byref(runs))
    return keys_out[:runs.value], values_out[:runs.value]


def cumsum(x, *, exact=False, out=None, policy=None):
    """The cumulative sum of a 1-D array, like numpy.cumsum / torch.cumsum but in x's own dtype
    (int32 stays int32 and wraps); exact=True: each output is the correctly rounded sum of the
    exact values (the same bits on every backend and run)."""
    a = describe(x, "x")
    call = Call(policy, a)
    out, o = _output(out, a, a.n, in_place_of=a)
    call.add(o).run(_capi.inclusive_scan, "pscan_inclusive_scan", a.dtype,
                    _capi.EXACT_SUM if exact else _capi.SUM, a.ptr, o.ptr, a.n)
    return out


def synchronize(policy=None):
    """Waits for the policy's stream (the CPU policies have nothing to wait for) and raises
    ValueError if an unchecked GPU call on this device found bad offsets since the last
    synchronize. policy None: cuda_chained on the caller's current stream (torch's, else
    cupy's, else the default stream) when the library has a usable CUDA backend."""
    if policy is None:
        if not _capi.backend_available(_capi.CUDA_CHAINED):
            return
        policy = cuda_chained
    elif not isinstance(policy, Policy):
        raise TypeError(f"policy must be a pscan policy, got {type(policy).__name__}")
    struct = policy.struct(ambient_stream() if policy.gpu and policy.stream is None else 0)
    status = _capi.synchronize(ctypes.byref(struct))
    if status:
        _capi.raise_status(status, "pscan_synchronize")
