"""Reference results for the tests, on the host with numpy and plain Python.

Exact sums are Python integers in units of the format's smallest subnormal, rounded once to the
format by round_scaled (round to nearest even), so neither float32 nor float64 results suffer a
double rounding.
"""

import itertools
import math

import numpy as np

DTYPES = [np.int32, np.int64, np.float32, np.float64]
OPS = ["sum", "min", "max", "exact_sum"]

# (mantissa bits, exponent of the smallest subnormal, largest exponent)
_FORMATS = {np.dtype(np.float32): (24, -149, 127), np.dtype(np.float64): (53, -1074, 1023)}


def identity(op, dtype):
    """The operator's identity in dtype (the init a NULL init stands for)."""
    dtype = np.dtype(dtype)
    if op in ("sum", "exact_sum"):
        return dtype.type(0)
    if dtype.kind == "f":
        return dtype.type(np.inf if op == "min" else -np.inf)
    info = np.iinfo(dtype)
    return dtype.type(info.max if op == "min" else info.min)


def random_values(rng, dtype, n):
    """Awkward values: integers over the whole range (sums wrap); floats over 40 binades with
    huge terms that cancel later, so that a naive float sum loses everything in between."""
    dtype = np.dtype(dtype)
    if dtype.kind == "i":
        info = np.iinfo(dtype)
        return rng.integers(info.min, info.max, n, dtype=dtype, endpoint=True)
    x = rng.standard_normal(n) * np.exp2(rng.integers(-20, 20, n))
    big = 2.0 ** (40 if dtype == np.float32 else 60)
    i = np.arange(n)
    x[i % 97 == 13] = big
    x[i % 97 == 60] = -big
    x = x.astype(dtype)
    x[x == 0] = 1  # no signed zeros: the sign of an exact zero sum is not what is tested
    return x


def scaled_ints(x):
    """x's values as Python ints in units of the smallest subnormal (exact)."""
    _, low, _ = _FORMATS[x.dtype]
    unit = 1 << -low
    out = []
    for v in x.astype(np.float64).tolist():
        num, den = v.as_integer_ratio()
        out.append(num * (unit // den))
    return out


def scaled_int(value, dtype):
    return scaled_ints(np.array([value], dtype=dtype))[0]


def round_scaled(total, dtype):
    """The Python int total (in units of dtype's smallest subnormal) rounded once to dtype."""
    dtype = np.dtype(dtype)
    p, low, emax = _FORMATS[dtype]
    if total == 0:
        return dtype.type(0.0)
    negative = total < 0
    m = -total if negative else total
    e = max(m.bit_length() - p + low, low)  # the exponent of the result's last bit
    shift = e - low
    if shift > 0:
        q, r = m >> shift, m & ((1 << shift) - 1)
        half = 1 << (shift - 1)
        if r > half or (r == half and q & 1):
            q += 1
    else:
        q = m
    if q.bit_length() + e > emax + 1:
        v = math.inf
    else:
        v = math.ldexp(q, e)
    return dtype.type(-v if negative else v)


def exact_prefix(x, init=None):
    """Exact inclusive prefix sums of x (after init, when given) as scaled ints."""
    start = 0 if init is None else scaled_int(init, x.dtype)
    return list(itertools.accumulate(scaled_ints(x), initial=start))[1:]


def sample_positions(rng, n, limit=4097, count=1500):
    """All positions when n <= limit, else `count` random ones and the ends of 4096-blocks."""
    if n <= limit:
        return np.arange(n)
    edges = np.arange(4095, n, 4096)
    picked = np.concatenate([[0, 1, n - 2, n - 1], edges, edges + 1, rng.integers(0, n, count)])
    return np.unique(picked[picked < n])


def _accumulate(op, x, dtype):
    if op == "min":
        return np.minimum.accumulate(x)
    if op == "max":
        return np.maximum.accumulate(x)
    return np.cumsum(x, dtype=dtype)


def inclusive(op, x, init=None):
    """(expected, tolerance) of an inclusive scan of x from init. Integer sums wrap; a float
    "sum" gets a tolerance (any order of additions) around the float64 (or exact) result;
    everything else must match bitwise (tolerance None). Exact sums: see exact_positions."""
    dtype = x.dtype
    terms = x if init is None else np.concatenate([np.array([init], dtype), x])
    if dtype.kind == "f" and op == "sum":
        wide = terms.astype(np.float64)
        expected = np.cumsum(wide)
        eps = np.finfo(dtype).eps
        count = np.arange(1, len(terms) + 1)
        tol = 2 * count * eps * np.cumsum(np.abs(wide)) + np.finfo(dtype).smallest_subnormal
        if init is not None:
            expected, tol = expected[1:], tol[1:]
        return expected, tol
    if op == "exact_sum":
        assert dtype.kind == "i", "exact float sums: check_exact_scan"
        op = "sum"
    expected = _accumulate(op, terms, dtype).astype(dtype)
    return (expected if init is None else expected[1:]), None


def exclusive(op, x, init=None):
    """(expected, tolerance) of an exclusive scan of x from init (None: the identity)."""
    start = identity(op, x.dtype) if init is None else x.dtype.type(init)
    if len(x) == 0:
        float_sum = x.dtype.kind == "f" and op == "sum"
        return np.empty(0, x.dtype), (np.empty(0) if float_sum else None)
    expected, tol = inclusive(op, x[:-1], start)
    expected = np.concatenate([[start], expected])
    if tol is not None:
        tol = np.concatenate([[0.0], tol])
    return expected, tol


def reduce(op, x, init=None):
    """(expected, tolerance) of a reduction of x from init (None: the identity)."""
    if len(x) == 0:
        float_sum = x.dtype.kind == "f" and op == "sum"
        return (identity(op, x.dtype) if init is None else x.dtype.type(init)), \
            (0.0 if float_sum else None)
    expected, tol = inclusive(op, x, init)
    return expected[-1], (None if tol is None else tol[-1])


def check(got, expected, tol, what):
    """Asserts got matches: bitwise without tolerance, else |got - expected| <= tol."""
    got = np.asarray(got)
    expected = np.asarray(expected)
    assert got.shape == expected.shape, f"{what}: shape {got.shape} != {expected.shape}"
    if tol is None:
        if got.dtype.kind == "f":
            same = got.view(f"u{got.itemsize}") == expected.astype(got.dtype).view(
                f"u{got.itemsize}")
        else:
            same = got == expected
        bad = np.flatnonzero(~np.atleast_1d(same))
        assert bad.size == 0, (f"{what}: {bad.size} mismatches, first at {bad[0]}: got "
                               f"{np.atleast_1d(got)[bad[0]]!r}, expected "
                               f"{np.atleast_1d(expected)[bad[0]]!r}")
    else:
        err = np.abs(got.astype(np.float64) - expected.astype(np.float64))
        bad = np.flatnonzero(~np.atleast_1d(err <= tol))
        assert bad.size == 0, (f"{what}: {bad.size} outside rounding, first at {bad[0]}: got "
                               f"{np.atleast_1d(got)[bad[0]]!r}, expected about "
                               f"{np.atleast_1d(expected)[bad[0]]!r}")


def check_exact_scan(got, prefix, positions, dtype, inclusive_scan=True, init=None, what=""):
    """Asserts got[positions] is bitwise the correctly rounded exact scan whose exact inclusive
    prefix sums (exact_prefix(x), without init) are `prefix`, from init (None: 0)."""
    start = 0 if init is None else scaled_int(init, dtype)
    expected = []
    for i in positions.tolist():
        if inclusive_scan:
            total = prefix[i] + start
        else:
            total = (prefix[i - 1] if i > 0 else 0) + start
        expected.append(round_scaled(total, dtype))
    check(np.asarray(got)[positions], np.array(expected, dtype=dtype), None, what)


def exact_total(prefix, dtype, init=None):
    """The correctly rounded exact sum of all terms (and init)."""
    start = 0 if init is None else scaled_int(init, dtype)
    return round_scaled((prefix[-1] if prefix else 0) + start, dtype)


def runs_of(keys):
    """The start of each run of equal consecutive keys, and len(keys) at the end."""
    if len(keys) == 0:
        return np.zeros(1, np.int64)
    starts = np.flatnonzero(np.concatenate([[True], keys[1:] != keys[:-1]]))
    return np.concatenate([starts, [len(keys)]]).astype(np.int64)


def run_reduce(op, values, starts):
    """(expected, tolerance or None) of reducing each run [starts[r], starts[r+1]) of values;
    every run non-empty. Vectorised; exact float sums rounded once per run."""
    dtype = values.dtype
    heads = starts[:-1]
    if len(heads) == 0:
        return np.empty(0, dtype), (np.empty(0) if dtype.kind == "f" and op == "sum" else None)
    if dtype.kind == "f" and op == "exact_sum":
        prefix = exact_prefix(values)
        ends = starts[1:] - 1
        expected = [round_scaled(prefix[e] - (prefix[h - 1] if h else 0), dtype)
                    for h, e in zip(heads.tolist(), ends.tolist())]
        return np.array(expected, dtype), None
    if op == "min":
        return np.minimum.reduceat(values, heads), None
    if op == "max":
        return np.maximum.reduceat(values, heads), None
    if dtype.kind == "i":
        return np.add.reduceat(values, heads, dtype=dtype), None
    wide = values.astype(np.float64)
    counts = np.diff(starts).astype(np.float64)
    tol = (2 * counts * np.finfo(dtype).eps * np.add.reduceat(np.abs(wide), heads)
           + np.finfo(dtype).smallest_subnormal)
    return np.add.reduceat(wide, heads), tol


def segmented(kind, op, values, offsets, init=None, out=None):
    """Reference of a segmented call, `kind` one of "inclusive", "exclusive", "reduce":
    (expected, tolerance array or None). The scans start from `out` (positions outside the
    segments keep it); exact sums come out correctly rounded."""
    dtype = values.dtype
    nseg = max(len(offsets) - 1, 0)
    float_sum = dtype.kind == "f" and op == "sum"
    exact = dtype.kind == "f" and op == "exact_sum"
    prefix = exact_prefix(values) if exact and len(values) else []
    init_int = 0 if init is None else (scaled_int(init, dtype) if exact else None)
    if kind == "reduce":
        expected = np.empty(nseg, dtype)
        tol = np.zeros(nseg) if float_sum else None
    else:
        expected = out.copy()
        tol = np.zeros(len(values)) if float_sum else None
    for s in range(nseg):
        a, b = int(offsets[s]), int(offsets[s + 1])
        seg = values[a:b]
        if exact:
            before = prefix[a - 1] if a > 0 else 0
            if kind == "reduce":
                total = (prefix[b - 1] - before if b > a else 0) + init_int
                expected[s] = round_scaled(total, dtype)
            else:
                for i in range(a, b):
                    if kind == "inclusive":
                        total = prefix[i] - before + init_int
                    else:
                        total = (prefix[i - 1] - before if i > a else 0) + init_int
                    expected[i] = round_scaled(total, dtype)
            continue
        if kind == "reduce":
            e, t = reduce(op, seg, init)
            expected[s] = e
            if float_sum:
                tol[s] = t
        elif b > a:
            e, t = (inclusive(op, seg, init) if kind == "inclusive" else exclusive(op, seg, init))
            expected[a:b] = e
            if float_sum:
                tol[a:b] = t
    return expected, tol


def random_offsets(rng, n, layout):
    """Offsets over n values in one of the layouts the tests use."""
    if layout == "one":
        return np.array([0, n], np.int64)
    if layout == "singles":
        return np.arange(n + 1, dtype=np.int64)
    if layout == "none":
        return np.zeros(int(rng.integers(0, 2)), np.int64)
    if layout == "random":
        cuts = rng.integers(0, n + 1, min(max(n // 37, 1), 3000))
        return np.concatenate([[0], np.sort(cuts), [n]]).astype(np.int64)
    if layout == "empty_segments":
        # Runs of empty segments at the start, the end and in between.
        cuts = rng.integers(0, n + 1, min(max(n // 5, 3), 3000))
        cuts = np.repeat(np.sort(cuts), rng.integers(1, 4, len(cuts)))
        return np.concatenate([[0, 0, 0], cuts, [n, n]]).astype(np.int64)
    if layout == "inner":
        # Offsets that neither start at 0 nor end at n: values outside keep out's content.
        a = int(rng.integers(0, n // 3 + 1))
        b = n - int(rng.integers(0, n // 3 + 1))
        b = max(a, b)
        cuts = rng.integers(a, b + 1, min(max((b - a) // 29, 1), 2000))
        return np.concatenate([[a], np.sort(cuts), [b]]).astype(np.int64)
    raise ValueError(layout)
