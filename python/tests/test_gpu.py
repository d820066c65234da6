"""pscan on torch CUDA tensors, against torch and exact references computed on the host."""

import math

import numpy as np
import pytest

torch = pytest.importorskip("torch")

import _reference as ref  # noqa: E402
import pscan  # noqa: E402
import pscan.torch as pscan_torch  # noqa: E402

if not torch.cuda.is_available():
    pytest.skip("torch sees no CUDA device", allow_module_level=True)
if not pscan.backend_available("cuda_chained"):
    pytest.skip("libpscan_c was built without CUDA (PSCAN_ENABLE_CUDA=OFF) or sees no device",
                allow_module_level=True)

DEV = torch.device("cuda", torch.cuda.current_device())
TORCH_DTYPE = {np.dtype(np.int32): torch.int32, np.dtype(np.int64): torch.int64,
               np.dtype(np.float32): torch.float32, np.dtype(np.float64): torch.float64}
DTYPES = [pytest.param(d, id=np.dtype(d).name) for d in ref.DTYPES]
FLOATS = [pytest.param(d, id=np.dtype(d).name) for d in (np.float32, np.float64)]
SIZES = [0, 1, 31, 32, 33, 1023, 1025, 4097, 7919, 65521, 1_000_003]


def gpu(a):
    return torch.from_numpy(np.ascontiguousarray(a)).to(DEV)


def host(t):
    return t.detach().cpu().numpy()


def one_value(rng, dtype):
    return ref.random_values(rng, dtype, 1)[0]


def is_exact_float(op, dtype):
    return op == "exact_sum" and np.dtype(dtype).kind == "f"


def same_bits(got, expected, what):
    ref.check(host(got) if torch.is_tensor(got) else got,
              host(expected) if torch.is_tensor(expected) else expected, None, what)


def same_or_both_nan(got, expected, what):
    g, e = host(got), host(expected)
    both_nan = np.isnan(g) & np.isnan(e)
    ref.check(np.where(both_nan, 0, g), np.where(both_nan, 0, e), None, what)


# ---- scans and reductions ----------------------------------------------------------------------


@pytest.mark.parametrize("n", SIZES)
@pytest.mark.parametrize("op", ref.OPS)
@pytest.mark.parametrize("dtype", DTYPES)
def test_scans_and_reduce(dtype, op, n, rng):
    xh = ref.random_values(rng, dtype, n)
    x = gpu(xh)
    init = one_value(rng, dtype)
    inc = pscan.inclusive_scan(x, op)
    exc = pscan.exclusive_scan(x, op)
    exc_init = pscan.exclusive_scan(x, op, init=init)
    total = pscan.reduce(x, op)
    total_init = pscan.reduce(x, op, init=init)
    for out in (inc, exc, exc_init):
        assert torch.is_tensor(out) and out.device == x.device and out.dtype == x.dtype
        assert out.shape == x.shape
    same_bits(x, xh, "the input")

    if is_exact_float(op, dtype):
        prefix = ref.exact_prefix(xh)
        where = ref.sample_positions(rng, n)
        ref.check_exact_scan(host(inc), prefix, where, xh.dtype, True, None, "inclusive")
        ref.check_exact_scan(host(exc), prefix, where, xh.dtype, False, None, "exclusive")
        ref.check_exact_scan(host(exc_init), prefix, where, xh.dtype, False, init, "excl, init")
        if xh.dtype == np.float64:
            same_bits(total, np.float64(math.fsum(xh.tolist())), "reduce vs math.fsum")
        same_bits(total, ref.exact_total(prefix, xh.dtype), "reduce")
        same_bits(total_init, ref.exact_total(prefix, xh.dtype, init), "reduce, init")
        # torch.sum in float64 agrees within its own rounding.
        wide = torch.sum(x.double()).item()
        assert abs(float(total) - wide) <= 4 * n * 2**-53 * float(np.abs(xh).sum()) + 1e-300 \
            + abs(wide) * float(np.finfo(dtype).eps)
    else:
        ref.check(host(inc), *ref.inclusive(op, xh), "inclusive")
        ref.check(host(exc), *ref.exclusive(op, xh), "exclusive")
        ref.check(host(exc_init), *ref.exclusive(op, xh, init), "exclusive, init")
        ref.check(total, *ref.reduce(op, xh), "reduce")
        ref.check(total_init, *ref.reduce(op, xh, init), "reduce, init")

    # Against torch's own scans.
    if n:
        if op in ("sum", "exact_sum") and np.dtype(dtype).kind == "i":
            same_bits(inc, torch.cumsum(x, 0, dtype=x.dtype), "vs torch.cumsum")
            same_bits(total, torch.sum(x).to(x.dtype).item(), "vs torch.sum")
        elif op in ("min", "max"):
            theirs = (torch.cummin if op == "min" else torch.cummax)(x, 0).values
            same_bits(inc, theirs, f"vs torch.cum{op}")
        elif op == "sum":
            _, tol = ref.inclusive(op, xh)
            ref.check(host(inc), host(torch.cumsum(x, 0)), 2 * tol, "vs torch.cumsum")

    y = x.clone()
    assert pscan.inclusive_scan(y, op, out=y) is y
    if op == "sum" and np.dtype(dtype).kind == "f":
        ref.check(host(y), *ref.inclusive(op, xh), "inclusive in place")
    else:
        same_bits(y, inc, "inclusive in place")
    y = x.clone()
    assert pscan.exclusive_scan(y, op, init=init, out=y) is y
    if op == "sum" and np.dtype(dtype).kind == "f":
        ref.check(host(y), *ref.exclusive(op, xh, init), "exclusive in place")
    else:
        same_bits(y, exc_init, "exclusive in place")


@pytest.mark.parametrize("dtype", DTYPES)
def test_cumsum_vs_torch(dtype, rng):
    for n in (1, 4097, 1_000_003, 2**24 + 3):
        xh = ref.random_values(rng, dtype, n)
        x = gpu(xh)
        ours = pscan.cumsum(x)
        assert ours.dtype == x.dtype
        if np.dtype(dtype).kind == "i":
            same_bits(ours, torch.cumsum(x, 0, dtype=x.dtype), f"cumsum n={n}")
            continue
        # Tolerance of any order of additions, around a float64 cumsum, on the device.
        wide = torch.cumsum(x.double(), 0)
        count = torch.arange(1, n + 1, device=DEV, dtype=torch.float64)
        tol = 2 * count * float(np.finfo(dtype).eps) * torch.cumsum(x.double().abs(), 0)
        assert bool(((ours.double() - wide).abs() <= tol).all()), f"cumsum n={n}"
        assert bool(((torch.cumsum(x, 0).double() - wide).abs() <= tol).all())


@pytest.mark.parametrize("dtype", FLOATS)
def test_exact_and_deterministic_bits(dtype, rng):
    # The exact sum has the same bits on the GPU and the CPU backends; deterministic=True
    # gives a float sum the same bits on every run.
    for n in (4097, 1_000_003, 2**24 + 3):
        xh = ref.random_values(rng, dtype, n)
        x = gpu(xh)
        exact = pscan.cumsum(x, exact=True)
        same_bits(exact, pscan.cumsum(xh, exact=True, policy=pscan.seq), f"exact n={n}")
        same_bits(pscan.reduce(x, "exact_sum"), pscan.reduce(xh, "exact_sum", policy=pscan.seq),
                  f"exact reduce n={n}")
        policy = pscan.cuda_chained(deterministic=True)
        first = pscan.cumsum(x, policy=policy)
        for _ in range(3):
            same_bits(pscan.cumsum(x, policy=policy), first, f"deterministic n={n}")
        if n < 2**20:
            ref.check(host(first), *ref.inclusive("sum", xh), "deterministic sum")


# ---- segmented ---------------------------------------------------------------------------------


LAYOUTS = ["one", "empty_segments", "singles", "random", "inner", "none"]


@pytest.mark.parametrize("n", [1, 33, 4097, 100_003])
@pytest.mark.parametrize("layout", LAYOUTS)
@pytest.mark.parametrize("op", ref.OPS)
@pytest.mark.parametrize("dtype", DTYPES)
def test_segmented(dtype, op, layout, n, rng):
    if layout == "singles" and n > 4097:
        pytest.skip("one segment per value: the reference loops in Python")
    vh = ref.random_values(rng, dtype, n)
    oh = ref.random_offsets(rng, n, layout)
    before = ref.random_values(rng, dtype, n)
    init = one_value(rng, dtype)
    v, o = gpu(vh), gpu(oh)

    out = gpu(before)
    assert pscan.inclusive_scan_by_offsets(v, o, op, out=out) is out
    ref.check(host(out), *ref.segmented("inclusive", op, vh, oh, out=before), "inclusive")
    out = pscan.exclusive_scan_by_offsets(v, o, op, init=init)
    ref.check(host(out), *ref.segmented("exclusive", op, vh, oh, init, out=np.zeros_like(vh)),
              "exclusive, init, zeros outside")
    sums = pscan.segmented_reduce(v, o, op)
    ref.check(host(sums), *ref.segmented("reduce", op, vh, oh), "segmented_reduce")
    sums = pscan.segmented_reduce(v, o, op, init=init)
    ref.check(host(sums), *ref.segmented("reduce", op, vh, oh, init), "segmented_reduce, init")
    y = v.clone()
    pscan.inclusive_scan_by_offsets(y, o, op, out=y)
    ref.check(host(y), *ref.segmented("inclusive", op, vh, oh, out=vh), "in place")
    same_bits(v, vh, "the values")


@pytest.mark.parametrize("dtype", FLOATS)
def test_segmented_exact_matches_the_cpu(dtype, rng):
    n = 2**22 + 5
    vh = ref.random_values(rng, dtype, n)
    oh = ref.random_offsets(rng, n, "random")
    v, o = gpu(vh), gpu(oh)
    for name, call in (("segmented_reduce", pscan.segmented_reduce),
                       ("inclusive_scan_by_offsets", pscan.inclusive_scan_by_offsets),
                       ("exclusive_scan_by_offsets", pscan.exclusive_scan_by_offsets)):
        same_bits(call(v, o, "exact_sum"), call(vh, oh, "exact_sum", policy=pscan.seq), name)


# ---- pscan.torch.segment_reduce against torch.segment_reduce ------------------------------------


def _lengths_layouts(rng, n):
    return {name: ref.random_offsets(rng, n, name) for name in
            ("one", "empty_segments", "singles", "random")}


@pytest.mark.parametrize("initial", [None, 0.5])
@pytest.mark.parametrize("reduce", ["sum", "mean", "max", "min"])
@pytest.mark.parametrize("dtype", FLOATS)
@pytest.mark.parametrize("n", [1, 1025, 65521])
def test_segment_reduce_vs_torch(n, dtype, reduce, initial, rng):
    vh = ref.random_values(rng, dtype, n)
    v = gpu(vh)
    for layout, oh in _lengths_layouts(rng, n).items():
        if layout == "singles" and n > 4097:
            continue
        o = gpu(oh)
        lengths = o[1:] - o[:-1]
        theirs = torch.segment_reduce(v, reduce, lengths=lengths, initial=initial)
        by_lengths = pscan_torch.segment_reduce(v, reduce, lengths=lengths, initial=initial)
        by_offsets = pscan_torch.segment_reduce(v, reduce, offsets=o, initial=initial)
        what = f"{reduce} {layout} initial={initial}"
        assert by_lengths.dtype == v.dtype and by_lengths.shape == theirs.shape
        same_or_both_nan(by_lengths, by_offsets, what + ": lengths vs offsets")
        if reduce in ("max", "min"):
            same_bits(by_lengths, theirs, what)
            continue
        # Sums and means within rounding of the float64 reference (and torch within it too).
        expected, tol = ref.segmented("reduce", "sum", vh, oh, initial)
        counts = np.diff(oh)
        if reduce == "mean":
            scale = np.maximum(counts, 1)
            expected = expected.astype(np.float64) / scale
            tol = tol / scale + 2 * np.abs(expected) * float(np.finfo(dtype).eps)
            if initial is None:
                expected = np.where(counts == 0, np.nan, expected)
        ours, them = host(by_lengths), host(theirs)
        assert np.array_equal(np.isnan(ours), np.isnan(them)), what + ": nan where torch has"
        ok = ~np.isnan(ours)
        ref.check(ours[ok], expected[ok], tol[ok], what)
        ref.check(them[ok], expected[ok], tol[ok] * 2, what + " (torch)")


def test_empty_segments_match_torch():
    # pscan.torch.EMPTY_SEGMENT holds torch's results for empty segments; this says which differ.
    for dtype in (torch.float32, torch.float64):
        data = torch.tensor([1.0, 2.0], dtype=dtype, device=DEV)
        lengths = torch.tensor([0, 2, 0], device=DEV)
        for reduce in ("sum", "mean", "max", "min"):
            for initial in (None, 3.0):
                theirs = torch.segment_reduce(data, reduce, lengths=lengths, initial=initial)
                ours = pscan_torch.segment_reduce(data, reduce, lengths=lengths, initial=initial)
                same_or_both_nan(ours, theirs, f"{reduce} {dtype} initial={initial}: ours "
                                 f"{host(ours).tolist()}, torch {host(theirs).tolist()}")


@pytest.mark.parametrize("dtype", FLOATS)
def test_segment_reduce_exact(dtype, rng):
    n = 100_003
    vh = ref.random_values(rng, dtype, n)
    oh = ref.random_offsets(rng, n, "empty_segments")
    v, o = gpu(vh), gpu(oh)
    got = host(pscan_torch.segment_reduce(v, "sum", offsets=o, exact=True))
    expected = np.empty(len(oh) - 1, dtype)
    for s in range(len(oh) - 1):
        seg = vh[oh[s]:oh[s + 1]]
        if dtype == np.float64:
            expected[s] = math.fsum(seg.tolist())
        else:
            expected[s] = ref.exact_total(ref.exact_prefix(seg), seg.dtype)
    ref.check(got, expected, None, "exact segment sums")
    mean = host(pscan_torch.segment_reduce(v, "mean", offsets=o, exact=True))
    counts = np.diff(oh)
    with np.errstate(invalid="ignore", divide="ignore"):
        expected_mean = np.where(counts > 0, expected / counts.astype(dtype), np.nan).astype(dtype)
    ok = counts > 0
    ref.check(mean[ok], expected_mean[ok], None, "exact means")
    assert np.isnan(mean[~ok]).all()


@pytest.mark.parametrize("dtype", [np.int32, np.int64])
def test_segment_reduce_integers(dtype, rng):
    # torch.segment_reduce takes floating data only; integers follow the plain reference.
    n = 4097
    vh = ref.random_values(rng, dtype, n)
    oh = ref.random_offsets(rng, n, "empty_segments")
    v, o = gpu(vh), gpu(oh)
    for reduce in ("sum", "max", "min"):
        got = host(pscan_torch.segment_reduce(v, reduce, offsets=o))
        ref.check(got, *ref.segmented("reduce", reduce, vh, oh), f"int {reduce}")


# ---- reduce_by_key -----------------------------------------------------------------------------


@pytest.mark.parametrize("n", [1, 33, 4097, 1_000_003])
@pytest.mark.parametrize("op", ref.OPS)
@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("key_dtype", [pytest.param(np.int32, id="keys_int32"),
                                       pytest.param(np.int64, id="keys_int64")])
def test_reduce_by_key(key_dtype, dtype, op, n, rng):
    lengths = rng.integers(1, 12, n + 1)
    run_keys = rng.integers(0, 4, len(lengths))
    if key_dtype == np.int64:
        run_keys = run_keys * (1 << 40) - (1 << 41)
    kh = np.repeat(run_keys, lengths)[:n].astype(key_dtype)
    vh = ref.random_values(rng, dtype, n)
    k, v = gpu(kh), gpu(vh)
    unique_keys, reduced = pscan.reduce_by_key(k, v, op)
    starts = ref.runs_of(kh)
    same_bits(unique_keys, torch.unique_consecutive(k), "keys vs torch.unique_consecutive")
    same_bits(unique_keys, kh[starts[:-1]], "keys")
    ref.check(host(reduced), *ref.run_reduce(op, vh, starts), "values")


# ---- streams and devices -----------------------------------------------------------------------


def test_a_non_default_stream_gives_the_same_results(rng):
    xh = ref.random_values(rng, np.float32, 1_000_003)
    oh = ref.random_offsets(rng, len(xh), "random")
    x, o = gpu(xh), gpu(oh)
    policy = pscan.cuda_chained(deterministic=True)
    on_default = [pscan.cumsum(x, policy=policy), pscan.cumsum(x, exact=True),
                  pscan.segmented_reduce(x, o, "max"),
                  pscan_torch.segment_reduce(x, offsets=o, exact=True)]
    s = torch.cuda.Stream()
    s.wait_stream(torch.cuda.current_stream())
    with torch.cuda.stream(s):
        on_s = [pscan.cumsum(x, policy=policy), pscan.cumsum(x, exact=True),
                pscan.segmented_reduce(x, o, "max"),
                pscan_torch.segment_reduce(x, offsets=o, exact=True)]
        total = pscan.reduce(x, "exact_sum")
    torch.cuda.current_stream().wait_stream(s)
    for a, b in zip(on_default, on_s):
        same_or_both_nan(b, a, "stream s vs the default stream")
    same_bits(total, pscan.reduce(xh, "exact_sum", policy=pscan.seq), "reduce on s")


def test_calls_are_ordered_on_the_current_stream():
    # The input is written on s after a long sleep: a call that ran on any other stream would
    # read the zeros before the write.
    n = 1 << 20
    expected = np.arange(1, n + 1, dtype=np.int64)
    s = torch.cuda.Stream()
    x = torch.zeros(n, dtype=torch.int64, device=DEV)
    s.wait_stream(torch.cuda.current_stream())
    with torch.cuda.stream(s):
        torch.cuda._sleep(200_000_000)
        x.fill_(1)
        y = pscan.cumsum(x)
        total = pscan.reduce(x)  # waits for s
    s.synchronize()
    same_bits(y, expected, "cumsum after the write on s")
    assert total == n
    # An explicit stream, called from outside its context.
    x2 = torch.zeros(n, dtype=torch.int64, device=DEV)
    s.wait_stream(torch.cuda.current_stream())
    with torch.cuda.stream(s):
        torch.cuda._sleep(200_000_000)
        x2.fill_(1)
    out = torch.empty_like(x2)
    s.wait_stream(torch.cuda.current_stream())  # out's allocation
    pscan.cumsum(x2, out=out, policy=pscan.cuda_chained(stream=s))
    s.synchronize()
    same_bits(out, expected, "cumsum on an explicit stream")


@pytest.mark.skipif(torch.cuda.device_count() < 2, reason="needs two CUDA devices")
def test_a_tensor_on_another_device():
    x = torch.arange(1, 1001, dtype=torch.float64, device="cuda:1")
    with torch.cuda.device(0):
        y = pscan.cumsum(x)
        assert y.device == x.device
        same_bits(y, np.cumsum(np.arange(1, 1001, dtype=np.float64)), "cumsum on cuda:1")
        assert pscan.reduce(x) == 500500.0


class _CudaInterfaceOnly:
    def __init__(self, t):
        self._t = t
        self.__cuda_array_interface__ = t.__cuda_array_interface__


class _DLPackOnly:
    def __init__(self, t):
        self._t = t

    def __dlpack__(self, stream=None):
        return self._t.__dlpack__()

    def __dlpack_device__(self):
        return self._t.__dlpack_device__()


def test_generic_gpu_arrays():
    x = torch.arange(1, 101, dtype=torch.float32, device=DEV)
    expected = torch.cumsum(x, 0)
    torch.cuda.synchronize()
    for wrap in (_CudaInterfaceOnly, _DLPackOnly):
        out = torch.zeros_like(x)
        pscan.cumsum(wrap(x), out=out)
        torch.cuda.synchronize()
        same_bits(out, expected, wrap.__name__)
        target = torch.zeros_like(x)
        pscan.cumsum(x, out=wrap(target))
        torch.cuda.synchronize()
        same_bits(target, expected, wrap.__name__ + " out")
        assert pscan.reduce(wrap(x)) == 5050.0
        with pytest.raises(TypeError, match="out="):
            pscan.cumsum(wrap(x))


def test_cupy_arrays():
    cupy = pytest.importorskip("cupy")
    x = cupy.arange(1, 101, dtype=cupy.float64)
    y = pscan.cumsum(x)
    assert isinstance(y, cupy.ndarray)
    assert cupy.asnumpy(y).tolist() == np.cumsum(np.arange(1, 101.0)).tolist()


# ---- bad input ---------------------------------------------------------------------------------


def test_bad_input():
    x = torch.arange(16, dtype=torch.float32, device=DEV)
    off = torch.tensor([0, 4, 16], device=DEV)
    calls = {
        "CPU tensor, cuda_chained": lambda: pscan.cumsum(x.cpu(), policy=pscan.cuda_chained),
        "numpy, cuda_chained": lambda: pscan.cumsum(host(x), policy=pscan.cuda_chained()),
        "CUDA tensor, seq": lambda: pscan.cumsum(x, policy=pscan.seq),
        "CUDA tensor, omp": lambda: pscan.reduce(x, policy=pscan.omp(threads=2)),
        "out on the CPU": lambda: pscan.cumsum(x, out=torch.empty(16)),
        "offsets on the CPU": lambda: pscan.segmented_reduce(x, off.cpu()),
        "offsets in numpy": lambda: pscan.segmented_reduce(x, host(off)),
        "dtype int16": lambda: pscan.cumsum(x.to(torch.int16)),
        "dtype float16": lambda: pscan.cumsum(x.half()),
        "2-D": lambda: pscan.cumsum(x.view(4, 4)),
        "x[::2]": lambda: pscan.cumsum(x[::2]),
        "out dtype": lambda: pscan.cumsum(x, out=torch.empty(16, device=DEV, dtype=torch.float64)),
        "out length": lambda: pscan.cumsum(x, out=torch.empty(15, device=DEV)),
        "requires grad": lambda: pscan.cumsum(x.clone().requires_grad_()),
        "offsets decreasing": lambda: pscan.segmented_reduce(
            x, torch.tensor([0, 9, 4, 16], device=DEV)),
        "offsets negative": lambda: pscan.segmented_reduce(x, torch.tensor([-1, 4], device=DEV)),
        "offsets past the end": lambda: pscan.inclusive_scan_by_offsets(
            x, torch.tensor([0, 4, 17], device=DEV)),
        "offsets float": lambda: pscan.segmented_reduce(x, off.double()),
        "keys float": lambda: pscan.reduce_by_key(x, x),
        "segment_reduce both": lambda: pscan_torch.segment_reduce(
            x, "sum", lengths=off[1:] - off[:-1], offsets=off),
        "segment_reduce reduce": lambda: pscan_torch.segment_reduce(x, "median", offsets=off),
        "segment_reduce 2-D": lambda: pscan_torch.segment_reduce(x.view(4, 4), offsets=off),
        "segment_reduce exact max": lambda: pscan_torch.segment_reduce(
            x, "max", offsets=off, exact=True),
    }
    for name, call in calls.items():
        with pytest.raises(ValueError):
            call()
            pytest.fail(name)
    with pytest.raises(NotImplementedError, match="prod"):
        pscan_torch.segment_reduce(x, "prod", offsets=off)


@pytest.mark.parametrize("offsets,message", [([0, 9, 4, 16], "non-decreasing"),
                                             ([-1, 4, 16], "non-negative"),
                                             ([0, 4, 17], "past the values")])
def test_checked_offsets_write_nothing(offsets, message):
    x = torch.arange(16, dtype=torch.float32, device=DEV)
    off = torch.tensor(offsets, device=DEV)
    policy = pscan.cuda_chained(checked=True)
    out = torch.full_like(x, 7.0)
    with pytest.raises(ValueError, match=message):
        pscan.inclusive_scan_by_offsets(x, off, out=out, policy=policy)
    sums = torch.full((len(offsets) - 1,), 7.0, device=DEV)
    for op in ("sum", "exact_sum", "max"):
        with pytest.raises(ValueError, match=message):
            pscan.segmented_reduce(x, off, op, out=sums, policy=policy)
    torch.cuda.synchronize()
    assert bool((out == 7).all()) and bool((sums == 7).all())
    pscan.synchronize(policy)  # the checked calls leave nothing to report


def test_unchecked_bad_offsets_are_reported_by_synchronize():
    x = torch.arange(16, dtype=torch.float32, device=DEV)
    policy = pscan.cuda_chained(checked=False)
    pscan.segmented_reduce(x, torch.tensor([0, 9, 4, 16], device=DEV), policy=policy)
    with pytest.raises(ValueError):
        pscan.synchronize(policy)
    pscan.synchronize(policy)  # reported once
    with pytest.raises(ValueError):
        pscan_torch.segment_reduce(x, "sum", lengths=torch.tensor([9, -5, 12], device=DEV),
                                   unsafe=True)
        pscan.synchronize()
