#!/usr/bin/env python3
"""Plots and tables from pscan-compare's results.json.

Usage: plot_results.py RESULTS.json [--out DIR] [--every-cell]

Writes into DIR (default: the JSON's folder):
  headline.png                     inclusive_scan i32 (GPU if measured, else CPU)
  <target>_inclusive_scan_affine.png  the same for the non-commutative affine type
  <target>_<algorithm>_<type>.png  with --every-cell: throughput (GB/s) vs size per
                                   implementation, log2 x axis, one panel per segment length for
                                   the segmented algorithms
  headline.md                      GB/s at the largest size of every cell, with the speedup
  papers.md                        Harris' and LightScan's tables next to today's measurements
Needs python3 and matplotlib (the .md files are written even without matplotlib).
"""

import argparse
import json
import math
import os
import sys
from collections import defaultdict

# Harris, Sengupta, Owens, "Parallel Prefix Sum (Scan) with CUDA", GPU Gems 3 ch. 39 / NVIDIA
# whitepaper (April 2007), Table 2: the work-efficient, bank-conflict-free CUDA scan (float) on a
# GeForce 8800 GTX against a sequential C++ scan on one core of an Intel Core Duo Extreme 2.93 GHz.
# (elements, CPU ms, GPU ms). The paper prints 8388688 for the row that is 2^23 = 8388608.
HARRIS_TABLE = [
    (1024, 0.002231, 0.079492), (32768, 0.072663, 0.106159), (65536, 0.146326, 0.137006),
    (131072, 0.726429, 0.200257), (262144, 1.454742, 0.326900), (524288, 2.911067, 0.624104),
    (1048576, 5.900097, 1.118091), (2097152, 11.848376, 2.099666), (4194304, 23.835931, 4.062923),
    (8388608, 47.390906, 7.987311), (16777216, 94.794598, 15.854781),
]

# Liu and Aluru, "LightScan: Faster Scan Primitive on CUDA Compatible Manycore Processors"
# (Georgia Institute of Technology): inclusive scan with +, Tesla K40c, CUDA 7.0, in GEPS
# (10^9 elements per second). Table 2: LightScan by size; Table 3: average and maximum over the
# sizes 32M..512M for every evaluated implementation (TBB on 16 Xeon E5-2650 cores / a Xeon Phi).
LIGHTSCAN_TYPES = ["i32", "i64", "f32", "f64"]  # the paper's Int32, Int64, Float, Double
LIGHTSCAN_TABLE2 = {
    2**25: [24.1, 12.4, 24.5, 12.6], 2**26: [24.8, 12.6, 25.1, 12.9],
    2**27: [25.3, 12.7, 25.5, 13.0], 2**28: [25.5, 12.7, 25.6, 13.0],
    2**29: [25.5, 12.8, 25.7, 13.0],
}
LIGHTSCAN_TABLE3 = {
    "Average": {
        "LightScan": [25.0, 12.7, 25.3, 12.9], "CUDPP": [12.7, 6.5, 12.7, 6.5],
        "Thrust": [10.6, 7.1, 9.5, 7.6], "ModernGPU": [18.2, 8.3, 16.7, 8.4],
        "CUB": [21.6, 11.0, 21.6, 11.2], "TBB (16 CPU cores)": [3.0, 1.6, 3.0, 1.5],
        "TBB (Xeon Phi)": [0.4, 0.4, 0.6, 0.4],
    },
    "Maximum": {
        "LightScan": [25.5, 12.8, 25.7, 13.0], "CUDPP": [13.2, 6.6, 13.2, 6.6],
        "Thrust": [10.8, 7.2, 9.7, 7.7], "ModernGPU": [18.4, 8.3, 16.9, 8.5],
        "CUB": [21.8, 11.1, 21.8, 11.2], "TBB (16 CPU cores)": [3.1, 1.6, 3.1, 1.6],
        "TBB (Xeon Phi)": [0.7, 0.7, 1.0, 0.6],
    },
}


def size_label(n):
    log = int(math.log2(n)) if n > 0 else 0
    if n >= 1024 and 2**log == n:
        return f"2^{log}"
    return str(n)


def fmt(value, digits=2):
    return "" if value is None else f"{value:.{digits}f}"


def load(path):
    with open(path) as f:
        data = json.load(f)
    results = data.get("results", [])
    impls = data.get("implementations") or roles_from_rows(results)
    return data.get("provenance", {}), results, impls


def roles_from_rows(results):
    """The implementations list of a results.json without one: the copy by its library, the
    baseline by the rows' "baseline" field, the rest contenders."""
    baselines = {r.get("baseline") for r in results if r.get("baseline")}
    listed = {}
    for r in results:
        name = r["implementation"]
        role = ("copy" if r["library"] == "copy" else
                "baseline" if name in baselines else "contender")
        listed.setdefault((name, r["target"]), {"name": name, "library": r["library"],
                                                "target": r["target"], "role": role})
    return list(listed.values())


def names(impls, target, roles=("contender", "baseline"), library=None):
    """The implementations of a target with one of these roles (and library), in report order."""
    return [i["name"] for i in impls if i["target"] == target and i["role"] in roles and
            (library is None or i["library"] == library)]


def measured(results, candidates, **match):
    """The candidates with a row matching every field, in the candidates' order."""
    present = {r["implementation"] for r in results if all(r.get(k) == v for k, v in match.items())}
    return [c for c in candidates if c in present]


def ok_rows(results, **match):
    return [r for r in results
            if r["status"] == "ok" and all(r.get(k) == v for k, v in match.items())]


def median_ms(results, target, algorithm, type_, n, impl):
    rows = ok_rows(results, target=target, algorithm=algorithm, type=type_, n=n, implementation=impl)
    return rows[0]["median_ms"] if rows else None


def provenance_line(provenance):
    keys = ["gpu", "cpu", "cuda_runtime", "cccl_version", "git_commit", "date"]
    return "; ".join(f"{k}: {provenance[k]}" for k in keys if k in provenance)


def plot_cell(plt, results, impls, target, algorithm, type_, path, title=None):
    rows = [r for r in results
            if r["target"] == target and r["algorithm"] == algorithm and r["type"] == type_]
    segments = list(dict.fromkeys(r.get("segments") for r in rows))  # in the run's order
    fig, axes = plt.subplots(1, len(segments), figsize=(6.4 * len(segments), 4.4), squeeze=False)
    for ax, seg in zip(axes[0], segments):
        by_impl = defaultdict(list)
        failed = defaultdict(list)
        for r in rows:
            if r.get("segments") != seg:
                continue
            if r["status"] == "ok":
                by_impl[r["implementation"]].append((r["n"], r["gb_per_s"]))
            else:
                failed[r["implementation"]].append(r["n"])
        limits = {i["name"]: i["role"] for i in impls if i["role"] in ("copy", "floor")}
        for impl, points in sorted(by_impl.items()):
            points.sort()
            style = (dict(color="black", linestyle="--") if limits.get(impl) == "copy" else
                     dict(color="gray", linestyle=":") if limits.get(impl) == "floor" else
                     dict(marker="o"))
            ax.plot([p[0] for p in points], [p[1] for p in points], label=impl, markersize=3, **style)
        for impl, sizes in sorted(failed.items()):  # failures stay visible, at the bottom
            ax.scatter(sizes, [0] * len(sizes), marker="x", color="red", label=f"{impl} FAILED/ERROR")
        ax.set_xscale("log", base=2)
        ax.set_xlabel("elements")
        ax.set_ylabel("GB/s (bytes read + written)")
        panel = f"segments {seg}" if seg else ""
        ax.set_title(" ".join(x for x in [title or f"{target} {algorithm} {type_}", panel] if x))
        ax.grid(True, which="both", alpha=0.3)
        ax.legend(fontsize=8)
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)


def write_plots(results, impls, out, every_cell):
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        print("plot_results.py: matplotlib not found, no plots (tables written)", file=sys.stderr)
        return
    cells = sorted({(r["target"], r["algorithm"], r["type"]) for r in results})
    target = next((t for t in ("gpu", "cpu") if (t, "inclusive_scan", "i32") in cells), None)
    # By default two plots: the headline and the non-commutative affine scan beside it.
    affine = (target, "inclusive_scan", "affine")
    chosen = cells if every_cell else [c for c in cells if c == affine]
    for target_, algorithm, type_ in chosen:
        plot_cell(plt, results, impls, target_, algorithm, type_,
                  os.path.join(out, f"{target_}_{algorithm}_{type_}.png"))
    if target:
        plot_cell(plt, results, impls, target, "inclusive_scan", "i32",
                  os.path.join(out, "headline.png"),
                  title=f"inclusive_scan of int32 ({target})")
    print(f"plot_results.py: {len(chosen) + (target is not None)} plots in {out}")


def write_headline(provenance, results, impls, out):
    """GB/s at the largest size of each (target, algorithm, type, segment distribution)."""
    baselines = ", ".join(f"{name} ({target})" for target in ("gpu", "cpu")
                          for name in names(impls, target, roles=("baseline",)))
    groups = defaultdict(list)
    for r in results:
        groups[(r["target"], r["algorithm"], r["type"], r.get("segments") or "")].append(r)
    lines = ["# Headline: throughput at the largest size", "",
             provenance_line(provenance), "",
             "GB/s (bytes read + written) at the largest measured size; in parentheses the speedup "
             f"over {baselines} = t(baseline) / t(implementation); ! the machine was busy "
             "(median over 1.5x the fastest run); < a parallel CPU row slower than seq in the same "
             "cell; ~ the copy was disturbed (the cell has no % of copy).", ""]
    for target in ("gpu", "cpu"):
        keys = [k for k in groups if k[0] == target]  # results.json's order
        if not keys:
            continue
        impls = []
        for k in keys:
            for r in groups[k]:
                if r["implementation"] not in impls:
                    impls.append(r["implementation"])
        lines += [f"## {target}", "", "| algorithm | type | segments | n | " + " | ".join(impls) + " |",
                  "|---|---|---:|---:|" + "---:|" * len(impls)]
        for k in keys:
            n = max(r["n"] for r in groups[k])
            cells = {}
            for r in groups[k]:
                if r["n"] != n:
                    continue
                text = fmt(r["gb_per_s"], 1) if r["status"] == "ok" else r["status"]
                if r.get("speedup_vs_baseline"):
                    text += f" ({r['speedup_vs_baseline']:.2f}x)"
                marks = ("!" if r.get("busy") else "") + ("<" if r.get("slower_than_seq") else "") + \
                    ("~" if r.get("copy_disturbed") and r["implementation"] == "copy" else "")
                cells[r["implementation"]] = text + (" " + marks if marks else "")
            seg = k[3] or "-"
            lines.append(f"| {k[1]} | {k[2]} | {seg} | {size_label(n)} | " +
                         " | ".join(cells.get(i, "") for i in impls) + " |")
        lines.append("")
    with open(os.path.join(out, "headline.md"), "w") as f:
        f.write("\n".join(lines))


def harris_section(results, impls):
    gpu_impls = measured(results, names(impls, "gpu"), algorithm="exclusive_scan", type="f32")
    seq = (names(impls, "cpu", roles=("reference",)) or ["seq"])[0]
    lines = ["## Harris (GPU Gems 3, ch. 39), Table 2, re-measured", "",
             "Paper: float scan, GeForce 8800 GTX vs one core of a Core Duo Extreme 2.93 GHz (2007). "
             f"Today: `exclusive_scan` of f32, {seq} (pscan's sequential reference) on one CPU "
             f"core vs the GPU implementations (median ms; speedup = {seq} / implementation).", "",
             "| " + " | ".join(["elements", "paper CPU ms", "paper GPU ms", "paper speedup",
                                f"{seq} ms"] + [f"{i} ms" for i in gpu_impls] +
                               [f"speedup {i}" for i in gpu_impls]) + " |",
             "|---:|---:|---:|---:|---:|" + "---:|" * (2 * len(gpu_impls))]
    found = False
    for n, cpu, gpu in HARRIS_TABLE:
        seq_ms = median_ms(results, "cpu", "exclusive_scan", "f32", n, seq)
        gpu_ms = [median_ms(results, "gpu", "exclusive_scan", "f32", n, i) for i in gpu_impls]
        found = found or seq_ms is not None or any(gpu_ms)
        speedups = [seq_ms / t if seq_ms and t else None for t in gpu_ms]
        lines.append("| " + " | ".join([str(n), f"{cpu:.6f}", f"{gpu:.6f}", f"{cpu / gpu:.2f}",
                                        fmt(seq_ms, 6)] + [fmt(t, 6) for t in gpu_ms] +
                                       [fmt(s, 1) for s in speedups]) + " |")
    if not found:
        lines += ["", "_Not measured in this run: `scripts/compare --preset papers`._"]
    return lines


def geps(results, target, type_, n, impl):
    rows = ok_rows(results, target=target, algorithm="inclusive_scan", type=type_, n=n,
                   implementation=impl)
    return rows[0]["gelem_per_s"] if rows else None


def lightscan_section(results, impls):
    gpu_impls = measured(results, names(impls, "gpu"), algorithm="inclusive_scan")
    cpu_impls = measured(results, names(impls, "cpu", roles=("contender",), library="pscan"),
                         algorithm="inclusive_scan")
    lines = ["## LightScan (Liu and Aluru), Tables 2 and 3, re-measured", "",
             "Paper: inclusive scan with +, Tesla K40c, CUDA 7.0. Today: `inclusive_scan`, in GEPS "
             "(10^9 elements/s, median time).", ""]
    sizes = sorted(LIGHTSCAN_TABLE2)
    for t, type_ in enumerate(LIGHTSCAN_TYPES):
        lines += [f"### Table 2 layout, {type_}", "",
                  "| " + " | ".join(["N", "LightScan (K40c, paper)"] + gpu_impls) + " |",
                  "|---:|---:|" + "---:|" * len(gpu_impls)]
        for n in sizes:
            lines.append("| " + " | ".join([f"{n // 2**20}M", f"{LIGHTSCAN_TABLE2[n][t]:.1f}"] +
                                           [fmt(geps(results, "gpu", type_, n, i), 1)
                                            for i in gpu_impls]) + " |")
        lines.append("")
    measured_rows = ([(f"{i}, today", "gpu", i) for i in gpu_impls] +
                     [(f"{i} (CPU), today", "cpu", i) for i in cpu_impls])
    for measure, paper in LIGHTSCAN_TABLE3.items():
        lines += [f"### Table 3 layout: {measure} over 32M..512M", "",
                  "| implementation | Int32 | Int64 | Float | Double |", "|---|---:|---:|---:|---:|"]
        for name, values in paper.items():
            lines.append(f"| {name}, paper | " + " | ".join(f"{v:.1f}" for v in values) + " |")
        for label, target, impl in measured_rows:
            per_type = []
            for type_ in LIGHTSCAN_TYPES:
                values = [v for v in (geps(results, target, type_, n, impl) for n in sizes) if v]
                if not values:
                    per_type.append(None)
                else:
                    per_type.append(sum(values) / len(values) if measure == "Average" else max(values))
            lines.append(f"| {label} | " + " | ".join(fmt(v, 1) for v in per_type) + " |")
        lines.append("")
    return lines


def write_papers(provenance, results, impls, out):
    lines = ["# The papers' tables, re-measured", "", provenance_line(provenance), ""]
    lines += harris_section(results, impls) + [""] + lightscan_section(results, impls)
    with open(os.path.join(out, "papers.md"), "w") as f:
        f.write("\n".join(lines) + "\n")


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("results", help="results.json written by pscan-compare")
    parser.add_argument("--out", help="output folder (default: the JSON's folder)")
    parser.add_argument("--every-cell", action="store_true",
                        help="one plot per target, algorithm and type, not only the two defaults")
    args = parser.parse_args()
    out = args.out or os.path.dirname(os.path.abspath(args.results))
    os.makedirs(out, exist_ok=True)
    provenance, results, impls = load(args.results)
    write_headline(provenance, results, impls, out)
    write_papers(provenance, results, impls, out)
    write_plots(results, impls, out, args.every_cell)


if __name__ == "__main__":
    main()
