"""pscan on numpy arrays with the CPU policies, against numpy, plain loops and exact sums."""

import ctypes
import os
import subprocess
import sys

import numpy as np
import pytest

import _reference as ref
import pscan

POLICIES = [pytest.param(pscan.seq, id="seq"), pytest.param(pscan.omp(threads=3), id="omp3")]
DTYPES = [pytest.param(d, id=np.dtype(d).name) for d in ref.DTYPES]
FLOATS = [pytest.param(d, id=np.dtype(d).name) for d in (np.float32, np.float64)]
SIZES = [0, 1, 31, 32, 33, 1023, 1025, 4097, 7919, 65521, 200_003]


def ops_and_sizes(sizes):
    # The exact sums' references are Python integers: their largest sizes are left to the C++ suites.
    return [(op, n) for op in ref.OPS for n in sizes
            if not (op == "exact_sum" and n > 300_000)]

SEGMENT_CASES = [(layout, n) for n in (0, 1, 33, 1025, 4097, 33_013, 100_003)
                 for layout in ("one", "empty_segments", "singles", "random", "inner", "none")
                 if not (layout == "singles" and n > 4097)]


def one_value(rng, dtype):
    return ref.random_values(rng, dtype, 1)[0]


def is_exact_float(op, dtype):
    return op == "exact_sum" and np.dtype(dtype).kind == "f"


def assert_same_bits(a, b, what):
    ref.check(a, b, None, what)


# ---- scans and reductions ----------------------------------------------------------------------


@pytest.mark.parametrize("op,n", ops_and_sizes(SIZES))
@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("policy", POLICIES)
def test_scans_and_reduce(policy, dtype, op, n, rng):
    x = ref.random_values(rng, dtype, n)
    kept = x.copy()
    init = one_value(rng, dtype)

    inc = pscan.inclusive_scan(x, op, policy=policy)
    exc = pscan.exclusive_scan(x, op, policy=policy)
    exc_init = pscan.exclusive_scan(x, op, init=init, policy=policy)
    total = pscan.reduce(x, op, policy=policy)
    total_init = pscan.reduce(x, op, init=init, policy=policy)
    assert_same_bits(x, kept, "the input")
    for out in (inc, exc, exc_init):
        assert type(out) is np.ndarray and out.dtype == x.dtype and out.shape == x.shape
    for t in (total, total_init):
        assert isinstance(t, np.generic) and t.dtype == x.dtype

    if is_exact_float(op, dtype):
        prefix = ref.exact_prefix(x)
        where = ref.sample_positions(rng, n)
        ref.check_exact_scan(inc, prefix, where, x.dtype, True, None, "inclusive")
        ref.check_exact_scan(exc, prefix, where, x.dtype, False, None, "exclusive")
        ref.check_exact_scan(exc_init, prefix, where, x.dtype, False, init, "exclusive, init")
        assert_same_bits(total, ref.exact_total(prefix, x.dtype), "reduce")
        assert_same_bits(total_init, ref.exact_total(prefix, x.dtype, init), "reduce, init")
    else:
        ref.check(inc, *ref.inclusive(op, x), "inclusive")
        ref.check(exc, *ref.exclusive(op, x), "exclusive")
        ref.check(exc_init, *ref.exclusive(op, x, init), "exclusive, init")
        ref.check(total, *ref.reduce(op, x), "reduce")
        ref.check(total_init, *ref.reduce(op, x, init), "reduce, init")

    # In place: the same results as out of place (the CPU policies' results are deterministic).
    y = x.copy()
    assert pscan.inclusive_scan(y, op, out=y, policy=policy) is y
    if op == "sum" and np.dtype(dtype).kind == "f":
        ref.check(y, *ref.inclusive(op, x), "inclusive in place")
    else:
        assert_same_bits(y, inc, "inclusive in place")
    y = x.copy()
    assert pscan.exclusive_scan(y, op, init=init, out=y, policy=policy) is y
    if op == "sum" and np.dtype(dtype).kind == "f":
        ref.check(y, *ref.exclusive(op, x, init), "exclusive in place")
    else:
        assert_same_bits(y, exc_init, "exclusive in place")


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("policy", POLICIES)
def test_cumsum_keeps_the_dtype(policy, dtype, rng):
    x = ref.random_values(rng, dtype, 4099)
    got = pscan.cumsum(x, policy=policy)
    assert got.dtype == x.dtype
    if np.dtype(dtype).kind == "i":
        assert_same_bits(got, np.cumsum(x, dtype=dtype), "cumsum wraps in its dtype")
    else:
        ref.check(got, *ref.inclusive("sum", x), "cumsum")
        exact = pscan.cumsum(x, exact=True, policy=policy)
        ref.check_exact_scan(exact, ref.exact_prefix(x), np.arange(len(x)), x.dtype,
                             what="cumsum(exact=True)")
    out = np.empty_like(x)
    assert pscan.cumsum(x, out=out, policy=policy) is out


@pytest.mark.parametrize("dtype", DTYPES)
def test_default_policy_and_identities(dtype):
    x = np.array([], dtype=dtype)
    for op in ref.OPS:
        assert_same_bits(pscan.reduce(x, op), ref.identity(op, dtype), f"empty reduce {op}")
        assert pscan.inclusive_scan(x, op).shape == (0,)
    y = np.arange(1, 6, dtype=dtype)
    assert_same_bits(pscan.cumsum(y), np.array([1, 3, 6, 10, 15], dtype=dtype), "cumsum")
    assert_same_bits(pscan.reduce(y, "max", init=7), np.array(7, dtype=dtype), "reduce init")


def test_exact_sum_defeats_cancellation():
    # 1 + 2^100 - 2^100 = 1 exactly; a float sum in order gives 0.
    for dtype in (np.float32, np.float64):
        big = 2.0 ** (100 if dtype == np.float64 else 60)
        x = np.array([1.0, big, -big], dtype=dtype)
        for policy in (pscan.seq, pscan.omp(threads=3)):
            assert pscan.reduce(x, "exact_sum", policy=policy) == 1
            assert pscan.cumsum(x, exact=True, policy=policy).tolist() == [1.0, big, 1.0]


def test_exact_sum_is_the_same_on_every_policy_and_thread_count(rng):
    x = ref.random_values(rng, np.float32, 300_007)
    first = pscan.cumsum(x, exact=True, policy=pscan.seq)
    for threads in (1, 2, 3, 5):
        assert_same_bits(pscan.cumsum(x, exact=True, policy=pscan.omp(threads=threads)), first,
                         f"omp({threads})")


# ---- segmented ---------------------------------------------------------------------------------


@pytest.mark.parametrize("layout,n,op", [(layout, n, op) for layout, n in SEGMENT_CASES
                                          for op in ref.OPS
                                          if not (op == "exact_sum" and n > 50_000)])
@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("policy", POLICIES)
def test_segmented(policy, dtype, op, layout, n, rng):
    values = ref.random_values(rng, dtype, n)
    offsets = ref.random_offsets(rng, n, layout)
    kept = values.copy()
    before = ref.random_values(rng, dtype, n)
    init = one_value(rng, dtype)

    out = before.copy()
    assert pscan.inclusive_scan_by_offsets(values, offsets, op, out=out, policy=policy) is out
    ref.check(out, *ref.segmented("inclusive", op, values, offsets, out=before), "inclusive")

    fresh = pscan.inclusive_scan_by_offsets(values, offsets, op, policy=policy)
    zeros = np.zeros_like(values)
    ref.check(fresh, *ref.segmented("inclusive", op, values, offsets, out=zeros),
              "inclusive, out=None (zeros outside the segments)")

    out = before.copy()
    pscan.exclusive_scan_by_offsets(values, offsets, op, out=out, policy=policy)
    ref.check(out, *ref.segmented("exclusive", op, values, offsets, out=before), "exclusive")
    out = pscan.exclusive_scan_by_offsets(values, offsets, op, init=init, policy=policy)
    ref.check(out, *ref.segmented("exclusive", op, values, offsets, init, out=zeros),
              "exclusive, init")

    sums = pscan.segmented_reduce(values, offsets, op, policy=policy)
    assert sums.dtype == values.dtype and sums.shape == (max(len(offsets) - 1, 0),)
    ref.check(sums, *ref.segmented("reduce", op, values, offsets), "segmented_reduce")
    sums = pscan.segmented_reduce(values, offsets, op, init=init, policy=policy)
    ref.check(sums, *ref.segmented("reduce", op, values, offsets, init), "segmented_reduce, init")
    assert_same_bits(values, kept, "the values")

    # In place: positions outside the segments keep the values.
    y = values.copy()
    pscan.inclusive_scan_by_offsets(y, offsets, op, out=y, policy=policy)
    ref.check(y, *ref.segmented("inclusive", op, values, offsets, out=values), "in place")
    y = values.copy()
    pscan.exclusive_scan_by_offsets(y, offsets, op, init=init, out=y, policy=policy)
    ref.check(y, *ref.segmented("exclusive", op, values, offsets, init, out=values),
              "exclusive in place")


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("policy", POLICIES)
def test_segmented_large(policy, dtype, rng):
    n = 500_009
    values = ref.random_values(rng, dtype, n)
    lengths = rng.integers(0, 2000, n // 1000)
    offsets = np.concatenate([[0], np.cumsum(lengths)])
    offsets = np.concatenate([offsets[offsets < n], [n]]).astype(np.int64)
    for op in ref.OPS:
        sums = pscan.segmented_reduce(values, offsets, op, policy=policy)
        ref.check(sums, *ref.segmented("reduce", op, values, offsets), f"segmented_reduce {op}")
        scan = pscan.inclusive_scan_by_offsets(values, offsets, op, policy=policy)
        if is_exact_float(op, dtype):
            # Each segment's exact prefix at sampled positions.
            prefix = ref.exact_prefix(values)
            where = ref.sample_positions(rng, n)
            seg = np.searchsorted(offsets, where, side="right") - 1
            expected = []
            for i, s in zip(where.tolist(), seg.tolist()):
                a = int(offsets[s])
                expected.append(ref.round_scaled(prefix[i] - (prefix[a - 1] if a else 0), dtype))
            ref.check(scan[where], np.array(expected, dtype), None, "exact scan by offsets")
        else:
            ref.check(scan, *ref.segmented("inclusive", op, values, offsets,
                                           out=np.zeros_like(values)), f"scan by offsets {op}")


def test_int32_offsets_are_converted():
    values = np.arange(10, dtype=np.float64)
    got = pscan.segmented_reduce(values, np.array([0, 4, 4, 10], dtype=np.int32))
    assert got.tolist() == [6.0, 0.0, 39.0]
    got = pscan.inclusive_scan_by_offsets(values, np.array([2, 5], dtype=np.int32))
    assert got.tolist() == [0, 0, 2, 5, 9, 0, 0, 0, 0, 0]


# ---- reduce_by_key -----------------------------------------------------------------------------


@pytest.mark.parametrize("op,n", ops_and_sizes([0, 1, 33, 4097, 100_003, 400_009]))
@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("key_dtype", [pytest.param(np.int32, id="keys_int32"),
                                       pytest.param(np.int64, id="keys_int64")])
@pytest.mark.parametrize("policy", POLICIES)
def test_reduce_by_key(policy, key_dtype, dtype, op, n, rng):
    # Runs of random lengths; neighbouring runs may draw the same key and then are one run.
    lengths = rng.integers(1, 12, n + 1)
    run_keys = rng.integers(0, 4, len(lengths))
    if key_dtype == np.int64:
        run_keys = run_keys * (1 << 40) - (1 << 41)  # keys equal in their low 32 bits
    keys = np.repeat(run_keys, lengths)[:n].astype(key_dtype)
    values = ref.random_values(rng, dtype, n)
    unique_keys, reduced = pscan.reduce_by_key(keys, values, op, policy=policy)
    starts = ref.runs_of(keys)
    assert unique_keys.dtype == keys.dtype and reduced.dtype == values.dtype
    assert_same_bits(unique_keys, keys[starts[:-1]], "keys")
    ref.check(reduced, *ref.run_reduce(op, values, starts), "values")


# ---- array kinds -------------------------------------------------------------------------------


class _DLPackOnly:
    """An array seen only through DLPack."""

    def __init__(self, a):
        self._a = a

    def __dlpack__(self, stream=None):
        return self._a.__dlpack__()

    def __dlpack_device__(self):
        return self._a.__dlpack_device__()


class _InterfaceOnly:
    """An array seen only through __array_interface__."""

    def __init__(self, a):
        self._a = a
        self.__array_interface__ = a.__array_interface__


class _FakeCudaArray:
    """Claims GPU memory through __cuda_array_interface__ (the address is a host array's, so
    nothing crashes if it is ever read)."""

    def __init__(self, a):
        self._a = a
        self.__cuda_array_interface__ = {"shape": a.shape, "typestr": a.dtype.str,
                                         "data": (a.ctypes.data, False), "version": 3,
                                         "strides": None, "stream": None}


@pytest.mark.skipif(not hasattr(np.ndarray, "__dlpack__"), reason="numpy without DLPack")
def test_dlpack_arrays():
    a = np.arange(1, 9, dtype=np.int64)
    out = np.empty_like(a)
    assert pscan.inclusive_scan(_DLPackOnly(a), out=out) is out
    assert out.tolist() == np.cumsum(a).tolist()
    target = np.zeros_like(a)
    pscan.inclusive_scan(a, out=_DLPackOnly(target))
    assert target.tolist() == np.cumsum(a).tolist()
    assert pscan.reduce(_DLPackOnly(a[2:])) == a[2:].sum()  # byte_offset or data moved
    with pytest.raises(TypeError, match="out="):
        pscan.inclusive_scan(_DLPackOnly(a))
    with pytest.raises(ValueError, match="dtype"):
        pscan.reduce(_DLPackOnly(np.arange(4, dtype=np.int16)))


def test_array_interface_and_buffers():
    a = np.arange(5, dtype=np.float32)
    assert pscan.cumsum(_InterfaceOnly(a)).tolist() == [0, 1, 3, 6, 10]
    import array
    buf = array.array("d", [1.0, 2.0, 3.0])
    assert pscan.reduce(buf) == 6.0
    pscan.inclusive_scan(buf, out=buf)
    assert list(buf) == [1.0, 3.0, 6.0]


def test_gpu_arrays_are_refused_by_cpu_policies():
    fake = _FakeCudaArray(np.arange(8, dtype=np.float32))
    host = np.zeros(8, np.float32)
    for policy in (pscan.seq, pscan.omp):
        with pytest.raises(ValueError, match="GPU memory"):
            pscan.cumsum(fake, policy=policy)
    with pytest.raises(ValueError, match="GPU memory"):
        pscan.inclusive_scan(host, out=fake)
    with pytest.raises(ValueError, match="same memory"):
        pscan.segmented_reduce(host, _FakeCudaArray(np.array([0, 8], np.int64)))


def test_cuda_policy_without_cuda_backend():
    if pscan.backend_available("cuda_chained"):
        pytest.skip("the library has a usable CUDA backend: test_gpu.py covers it")
    fake = _FakeCudaArray(np.arange(8, dtype=np.float32))
    with pytest.raises(NotImplementedError):
        pscan.cumsum(fake, out=fake)  # the default policy of a GPU array is cuda_chained
    with pytest.raises(pscan.Unsupported):
        pscan.reduce(fake, policy=pscan.cuda_chained(stream=0, deterministic=True))
    with pytest.raises(TypeError, match="out="):
        pscan.cumsum(fake, policy=pscan.cuda_chained)  # no library to allocate with


# ---- bad input ---------------------------------------------------------------------------------


def _bad_calls():
    x = np.arange(16, dtype=np.float32)
    off = np.array([0, 4, 16], np.int64)
    small_off = np.array([0, 1, 3], np.int64)
    keys = np.zeros(16, np.int32)
    ro = np.zeros(16, np.float32)
    ro.flags.writeable = False
    calls = {
        "dtype int16": lambda p: pscan.cumsum(x.astype(np.int16), policy=p),
        "dtype uint32": lambda p: pscan.reduce(x.astype(np.uint32), policy=p),
        "dtype float16": lambda p: pscan.reduce(x.astype(np.float16), policy=p),
        "dtype bool": lambda p: pscan.reduce(x > 3, policy=p),
        "dtype complex": lambda p: pscan.reduce(x.astype(np.complex64), policy=p),
        "big-endian": lambda p: pscan.reduce(x.astype(">f4"), policy=p),
        "2-D": lambda p: pscan.cumsum(x.reshape(4, 4), policy=p),
        "0-D": lambda p: pscan.reduce(np.float32(3).reshape(()), policy=p),
        "x[::2]": lambda p: pscan.cumsum(x[::2], policy=p),
        "out[::2]": lambda p: pscan.cumsum(x[:8], out=np.zeros(16, np.float32)[::2], policy=p),
        "out dtype": lambda p: pscan.cumsum(x, out=np.zeros(16, np.float64), policy=p),
        "out length": lambda p: pscan.cumsum(x, out=np.zeros(15, np.float32), policy=p),
        "out read-only": lambda p: pscan.cumsum(x, out=ro, policy=p),
        "out overlaps x": lambda p: pscan.inclusive_scan(x[:-1], out=x[1:], policy=p),
        "op": lambda p: pscan.reduce(x, "prod", policy=p),
        "op not a string": lambda p: pscan.reduce(x, 0, policy=p),
        "init too big": lambda p: pscan.reduce(keys, init=2**31, policy=p),
        "init not integral": lambda p: pscan.exclusive_scan(keys, init=0.5, policy=p),
        "init not a number": lambda p: pscan.reduce(x, init="one", policy=p),
        "offsets decreasing": lambda p: pscan.segmented_reduce(
            x, np.array([0, 9, 4, 16]), policy=p),
        "offsets negative": lambda p: pscan.segmented_reduce(x, np.array([-1, 4]), policy=p),
        "offsets past the end": lambda p: pscan.inclusive_scan_by_offsets(
            x, np.array([0, 4, 17]), policy=p),
        "offsets far past the end": lambda p: pscan.segmented_reduce(
            x, np.array([0, 2**40]), policy=p),
        "offsets float": lambda p: pscan.segmented_reduce(x, off.astype(np.float64), policy=p),
        "offsets uint64": lambda p: pscan.segmented_reduce(x, off.astype(np.uint64), policy=p),
        "offsets 2-D": lambda p: pscan.segmented_reduce(x, off.reshape(1, 3), policy=p),
        "offsets strided": lambda p: pscan.segmented_reduce(
            x, np.arange(0, 17, dtype=np.int64)[::4], policy=p),
        "segmented out length": lambda p: pscan.segmented_reduce(
            x, off, out=np.zeros(3, np.float32), policy=p),
        "segmented out dtype": lambda p: pscan.segmented_reduce(
            x, off, out=np.zeros(2, np.float64), policy=p),
        "scan by offsets, out is the offsets": lambda p: pscan.inclusive_scan_by_offsets(
            np.arange(3, dtype=np.int64), small_off, out=small_off, policy=p),
        "keys float": lambda p: pscan.reduce_by_key(x, x, policy=p),
        "keys length": lambda p: pscan.reduce_by_key(keys[:15], x, policy=p),
        "keys_out dtype": lambda p: pscan.reduce_by_key(
            keys, x, keys_out=np.zeros(16, np.int64), policy=p),
        "GPU policy": lambda p: pscan.cumsum(x, policy=pscan.cuda_chained),
        "GPU policy, segmented": lambda p: pscan.segmented_reduce(
            x, off, policy=pscan.cuda_chained(deterministic=True)),
        "omp threads < 0": lambda p: pscan.omp(threads=-1),
    }
    return calls


@pytest.mark.parametrize("name", sorted(_bad_calls()))
@pytest.mark.parametrize("policy", POLICIES)
def test_bad_input_raises_value_error(policy, name):
    with pytest.raises(ValueError) as e:
        _bad_calls()[name](policy)
    assert str(e.value)
    assert isinstance(e.value, pscan.InvalidArgument)


def test_offsets_past_the_end_are_named():
    with pytest.raises(ValueError, match="offsets"):
        pscan.segmented_reduce(np.zeros(4), np.array([0, 5]))


def test_bad_types_raise_type_error():
    x = np.arange(4.0)
    for call in (lambda: pscan.cumsum([1.0, 2.0]), lambda: pscan.reduce(3.0),
                 lambda: pscan.cumsum(x, policy="omp"),
                 lambda: pscan.cuda_chained(stream="default"),
                 lambda: pscan.synchronize(policy=1)):
        with pytest.raises(TypeError):
            call()


def test_errors_are_the_builtin_ones():
    assert issubclass(pscan.InvalidArgument, ValueError)
    assert issubclass(pscan.Unsupported, NotImplementedError)
    assert issubclass(pscan.OutOfMemory, MemoryError)
    assert issubclass(pscan.CudaError, RuntimeError)
    assert issubclass(pscan.LibraryError, RuntimeError)
    for e in (pscan.InvalidArgument, pscan.Unsupported, pscan.OutOfMemory, pscan.CudaError):
        assert issubclass(e, pscan.Error)


def test_library_errors_carry_the_message():
    with pytest.raises(ValueError, match="non-decreasing|offsets"):
        pscan.segmented_reduce(np.zeros(8), np.array([0, 5, 3]))
    # The message is the library's own (pscan_last_error), naming the call.
    from pscan import _capi
    assert "offsets" in _capi.last_error()


def test_policies_and_synchronize():
    assert repr(pscan.seq) == "pscan.seq"
    assert pscan.omp(threads=3).threads == 3
    assert pscan.omp.threads == 0
    assert pscan.cuda_chained(stream=5, deterministic=True, checked=False).stream == 5
    assert pscan.backend_available("seq")
    with pytest.raises(ValueError):
        pscan.backend_available("tbb")
    pscan.synchronize(pscan.seq)
    pscan.synchronize(pscan.omp(threads=2))
    pscan.synchronize()  # nothing to wait for without CUDA


def test_policy_struct_matches_the_header():
    from pscan import _capi
    fields = [(name, t) for name, t in _capi.Policy._fields_]
    assert [f[0] for f in fields] == ["backend", "threads", "stream", "deterministic", "checked"]
    assert ctypes.sizeof(_capi.Policy) == (24 if ctypes.sizeof(ctypes.c_void_p) == 8 else 20)
    assert _capi.abi_version == 1


def _import_with(env):
    code = "import pscan"
    here = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    return subprocess.run([sys.executable, "-c", code], cwd=here, env=env,
                          capture_output=True, text=True, timeout=60)


def test_a_bad_library_path_is_explained():
    env = dict(os.environ, PSCAN_C_LIBRARY="/nonexistent/libpscan_c.so")
    result = _import_with(env)
    assert result.returncode != 0
    assert "ImportError" in result.stderr and "PSCAN_C_LIBRARY" in result.stderr


def test_loads_from_the_environment_variable():
    from pscan import _capi
    env = dict(os.environ, PSCAN_C_LIBRARY=_capi.path)
    assert _import_with(env).returncode == 0
