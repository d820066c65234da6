#!/usr/bin/env python3
"""pscan against torch on the GPU: segment sums, cumsum, and pscan's Python overhead per call.

Two times per call, medians of --runs CUDA-event timings on the current stream after warm-up:
- device time: the L2 cache flushed before each run (as pscan-compare does) and a sleep kernel
  queued after the flush, so that the host prepares the call while the device is busy and the
  time is the device's; a wait inside the call (pscan's checked offsets) still shows in full;
- call time: the device idle when the call starts, the host's work included.
Prints a Markdown table and, with --json PATH, writes every number there.

  python3 python/benchmarks/bench_torch.py                 # n = 2^26 float32
  python3 python/benchmarks/bench_torch.py --quick         # n = 2^22, 20 runs
  python3 python/benchmarks/bench_torch.py --sizes 2^24,2^26 --json results.json
"""

import argparse
import ctypes
import json
import math
import os
import statistics
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

import torch  # noqa: E402

import pscan  # noqa: E402
import pscan.torch  # noqa: E402
from pscan import _capi  # noqa: E402


def parse_size(text):
    text = text.strip()
    if "^" in text:
        base, exponent = text.split("^")
        return int(base) ** int(exponent)
    return int(float(text))


def fit(lengths, n):
    """The first segments of `lengths` cut so that they cover exactly n values."""
    ends = torch.cumsum(lengths, 0)
    k = int(torch.searchsorted(ends, torch.tensor([n], device=ends.device)).item())
    if k >= len(lengths):
        raise RuntimeError("too few segments drawn")
    lengths = lengths[:k + 1].clone()
    lengths[k] -= int(ends[k].item()) - n
    return lengths


def uniform_lengths(n, mean, gen):
    """Lengths uniform in [1, 2 * mean - 1] (mean `mean`), covering n values."""
    count = int(n / mean * 1.2) + 64
    lengths = torch.randint(1, 2 * mean, (count,), device="cuda", generator=gen)
    return fit(lengths, n)


def log_uniform_lengths(n, gen):
    count = 64
    while True:
        u = torch.rand(count, device="cuda", generator=gen, dtype=torch.float64)
        lengths = torch.exp(u * math.log(2**24)).floor().clamp_(1, 2**24 - 1).long()
        if int(lengths.sum().item()) > n:
            return fit(lengths, n)
        count *= 4


def gap_lengths(n, gen):
    """Every other segment empty; the others uniform in [1, 399]: mean 100 over all segments."""
    count = int(n / 100 * 1.2) + 64
    lengths = torch.randint(1, 400, (count,), device="cuda", generator=gen)
    lengths[0::2] = 0
    return fit(lengths, n)


DISTRIBUTIONS = [
    ("mean 1", lambda n, g: torch.ones(n, dtype=torch.int64, device="cuda")),
    ("mean 8", lambda n, g: uniform_lengths(n, 8, g)),
    ("mean 100", lambda n, g: uniform_lengths(n, 100, g)),
    ("mean 1000", lambda n, g: uniform_lengths(n, 1000, g)),
    ("mean 2^16", lambda n, g: uniform_lengths(n, 2**16, g)),
    ("mean 2^20", lambda n, g: uniform_lengths(n, 2**20, g)),
    ("one segment", lambda n, g: torch.tensor([n], dtype=torch.int64, device="cuda")),
    ("log-uniform [1, 2^24)", log_uniform_lengths),
    ("gaps (mean 100)", gap_lengths),
]


# A sleep longer than any host work of one call (about 150 us at H100/H200 clocks).
AHEAD_SLEEP_CYCLES = 300_000


class Timer:
    """CUDA-event times of calls on the current stream, in milliseconds (see the module's doc)."""

    def __init__(self, runs, warmup):
        self.runs, self.warmup = runs, warmup
        l2 = getattr(torch.cuda.get_device_properties(torch.cuda.current_device()),
                     "L2_cache_size", 64 << 20)
        self.flush = torch.empty(2 * l2 // 4, dtype=torch.float32, device="cuda")

    def _median(self, fn, before):
        for _ in range(self.warmup):
            fn()
        torch.cuda.synchronize()
        start, end = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
        times = []
        for _ in range(self.runs):
            before()
            start.record()
            fn()
            end.record()
            end.synchronize()
            times.append(start.elapsed_time(end))
        return statistics.median(times)

    def device_ms(self, fn):
        def before():
            self.flush.zero_()
            torch.cuda._sleep(AHEAD_SLEEP_CYCLES)
        return self._median(fn, before)

    def call_ms(self, fn):
        def before():
            self.flush.zero_()
            torch.cuda.synchronize()
        return self._median(fn, before)


def check_sums(ours, theirs, x, offsets, what):
    """Warns when pscan's and torch's segment sums differ by more than rounding."""
    wide = torch.zeros(len(offsets) - 1, dtype=torch.float64, device="cuda")
    absolute = torch.zeros_like(wide)
    segment = torch.repeat_interleave(torch.arange(len(wide), device="cuda"),
                                      offsets[1:] - offsets[:-1], output_size=len(x))
    wide.index_add_(0, segment, x.double())
    absolute.index_add_(0, segment, x.double().abs())
    count = (offsets[1:] - offsets[:-1]).double()
    tol = 2 * count * torch.finfo(x.dtype).eps * absolute + 1e-30
    for name, got in (("pscan", ours), ("torch", theirs)):
        if not bool(((got.double() - wide).abs() <= tol).all()):
            print(f"warning: {what}: {name}'s sums differ from float64 sums by more than "
                  f"rounding", file=sys.stderr)


def bench_segments(n, timer, gen):
    x = torch.rand(n, device="cuda", generator=gen) - 0.5
    rows = []
    for name, draw in DISTRIBUTIONS:
        lengths = draw(n, gen)
        offsets = torch.zeros(len(lengths) + 1, dtype=torch.int64, device="cuda")
        torch.cumsum(lengths, 0, out=offsets[1:])
        del lengths

        def ours(unsafe=False, exact=False):
            return pscan.torch.segment_reduce(x, "sum", offsets=offsets, unsafe=unsafe,
                                              exact=exact)

        def theirs():
            return torch.segment_reduce(x, "sum", offsets=offsets)

        check_sums(ours(), theirs(), x, offsets, name)
        row = {"case": name, "n": n, "segments": len(offsets) - 1}
        row["torch_ms"] = timer.device_ms(theirs)
        row["pscan_ms"] = timer.device_ms(ours)
        row["pscan_unsafe_ms"] = timer.device_ms(lambda: ours(unsafe=True))
        row["pscan_exact_ms"] = timer.device_ms(lambda: ours(exact=True))
        row["torch_call_ms"] = timer.call_ms(theirs)
        row["pscan_call_ms"] = timer.call_ms(ours)
        row["pscan_unsafe_call_ms"] = timer.call_ms(lambda: ours(unsafe=True))
        rows.append(row)
        print(f"  {name}: torch {row['torch_ms']:.3f} ms, pscan {row['pscan_ms']:.3f} ms",
              file=sys.stderr)
    return rows


def bench_cumsum(n, timer, gen):
    x = torch.rand(n, device="cuda", generator=gen) - 0.5
    out = torch.empty_like(x)
    return {
        "case": "cumsum", "n": n, "segments": None,
        "torch_ms": timer.device_ms(lambda: torch.cumsum(x, 0, out=out)),
        "pscan_ms": timer.device_ms(lambda: pscan.cumsum(x, out=out)),
        "pscan_exact_ms": timer.device_ms(lambda: pscan.cumsum(x, exact=True, out=out)),
        "torch_call_ms": timer.call_ms(lambda: torch.cumsum(x, 0, out=out)),
        "pscan_call_ms": timer.call_ms(lambda: pscan.cumsum(x, out=out)),
    }


def host_us_per_call(fn, calls=1000, batch=100, sleep_cycles=50_000_000):
    """Host time per call, in microseconds, while the GPU is kept busy by a sleep kernel queued
    before each batch: the calls only queue their launches, so what is timed is the host's work
    (batches of 100 keep the launch queue from filling)."""
    total = 0.0
    for _ in range(calls // batch):
        torch.cuda._sleep(sleep_cycles)
        t0 = time.perf_counter()
        for _ in range(batch):
            fn()
        total += time.perf_counter() - t0
        torch.cuda.synchronize()
    return total / calls * 1e6


def bench_overhead():
    x = torch.rand(1024, device="cuda")
    out = torch.empty_like(x)
    policy = _capi.Policy(_capi.CUDA_CHAINED, 0, torch.cuda.current_stream().cuda_stream or None,
                          0, 1)
    ref = ctypes.byref(policy)
    c_call = _capi.inclusive_scan
    x_ptr, out_ptr = x.data_ptr(), out.data_ptr()

    def raw():
        status = c_call(ref, _capi.FLOAT32, _capi.SUM, x_ptr, out_ptr, 1024)
        if status:
            _capi.raise_status(status, "pscan_inclusive_scan")

    for fn in (raw, lambda: pscan.cumsum(x), lambda: torch.cumsum(x, 0)):
        fn()  # first calls load kernels
    torch.cuda.synchronize()
    result = {
        "c_call_us": host_us_per_call(raw),
        "pscan_cumsum_out_us": host_us_per_call(lambda: pscan.cumsum(x, out=out)),
        "pscan_cumsum_us": host_us_per_call(lambda: pscan.cumsum(x)),
        "torch_cumsum_out_us": host_us_per_call(lambda: torch.cumsum(x, 0, out=out)),
        "torch_cumsum_us": host_us_per_call(lambda: torch.cumsum(x, 0)),
    }
    result["python_overhead_us"] = result["pscan_cumsum_us"] - result["c_call_us"]
    result["python_overhead_out_us"] = result["pscan_cumsum_out_us"] - result["c_call_us"]
    return result


def ratio(a, b):
    return f"{a / b:.2f}x" if a and b else "-"


def ms(value):
    return f"{value:.3f}" if value else "-"


def markdown(rows, overhead, device):
    lines = [f"pscan vs torch on {device}, float32, median CUDA-event times (ms); speed-up = "
             f"torch / pscan. Device time: the host's work hidden behind a busy device; a "
             f"wait inside the call (checked offsets) still counts. Call time: the device idle "
             f"when the call starts.", "",
             "| case | n | segments | torch | pscan | speed-up | pscan unsafe | speed-up | "
             "pscan exact | call: torch | pscan | speed-up | pscan unsafe | speed-up |",
             "| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: "
             "| ---: | ---: |"]
    for r in rows:
        unsafe, unsafe_call = r.get("pscan_unsafe_ms"), r.get("pscan_unsafe_call_ms")
        lines.append(
            f"| {r['case']} | 2^{math.log2(r['n']):.4g} | {r['segments'] or '-'} | "
            f"{ms(r['torch_ms'])} | {ms(r['pscan_ms'])} | {ratio(r['torch_ms'], r['pscan_ms'])} "
            f"| {ms(unsafe)} | {ratio(r['torch_ms'], unsafe)} | {ms(r['pscan_exact_ms'])} | "
            f"{ms(r['torch_call_ms'])} | {ms(r['pscan_call_ms'])} | "
            f"{ratio(r['torch_call_ms'], r['pscan_call_ms'])} | {ms(unsafe_call)} | "
            f"{ratio(r['torch_call_ms'], unsafe_call)} |")
    o = overhead
    lines += ["", "Host time per call on a 1024-element float32 tensor (µs), 1000 calls queued "
              "behind a sleep kernel, so that only the host's work is timed:", "",
              "| call | µs |", "| --- | ---: |",
              f"| C call alone (ctypes, arguments prepared) | {o['c_call_us']:.2f} |",
              f"| pscan.cumsum(x, out=out) | {o['pscan_cumsum_out_us']:.2f} |",
              f"| pscan.cumsum(x) (allocates) | {o['pscan_cumsum_us']:.2f} |",
              f"| torch.cumsum(x, 0, out=out) | {o['torch_cumsum_out_us']:.2f} |",
              f"| torch.cumsum(x, 0) | {o['torch_cumsum_us']:.2f} |",
              f"| pscan's Python overhead (pscan.cumsum(x) - C call) | "
              f"{o['python_overhead_us']:.2f} |",
              f"| the same with out= | {o['python_overhead_out_us']:.2f} |"]
    return "\n".join(lines)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", help="comma-separated element counts (2^26, 1e6, ...); "
                        "default 2^26 (2^22 with --quick)")
    parser.add_argument("--quick", action="store_true", help="n = 2^22 and 20 runs")
    parser.add_argument("--runs", type=int, help="timed runs per case (at least 20)")
    parser.add_argument("--json", help="write the results to this path")
    args = parser.parse_args()
    if not torch.cuda.is_available():
        sys.exit("bench_torch: torch sees no CUDA device")
    if not pscan.backend_available("cuda_chained"):
        sys.exit("bench_torch: libpscan_c has no CUDA backend (built with PSCAN_ENABLE_CUDA=ON?)")
    sizes = ([parse_size(s) for s in args.sizes.split(",")] if args.sizes
             else [2**22 if args.quick else 2**26])
    runs = max(args.runs or (20 if args.quick else 30), 20)
    warmup = 3 if args.quick else 5
    gen = torch.Generator(device="cuda")
    gen.manual_seed(1)
    device = torch.cuda.get_device_name()

    rows = []
    with torch.no_grad():
        for n in sizes:
            print(f"n = {n}", file=sys.stderr)
            timer = Timer(runs, warmup)
            rows += bench_segments(n, timer, gen)
            rows.append(bench_cumsum(n, timer, gen))
        overhead = bench_overhead()
    print(markdown(rows, overhead, device))
    if args.json:
        with open(args.json, "w") as f:
            json.dump({"device": device, "torch": torch.__version__, "runs": runs,
                       "warmup": warmup, "dtype": "float32", "rows": rows,
                       "overhead": overhead}, f, indent=2)


if __name__ == "__main__":
    main()
