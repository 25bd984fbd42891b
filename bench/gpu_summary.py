#!/usr/bin/env python3
"""Compares clsel's kernels with torch.where on the same GPU (ci/gpu.sh): per named
case, and over a sweep the distribution of the speedup.

    python bench/gpu_summary.py NAMED.json TORCH.json [SWEEP.json TORCH_SWEEP.json]
"""
import json
import statistics
import sys


def clsel_cases(path):
    with open(path) as f:
        data = json.load(f)
    reports = data if isinstance(data, list) else [data]
    report = next(r for r in reports if r["device_kind"] == "opencl")
    return report, {c["name"]: c for c in report["cases"]}


def torch_cases(path):
    with open(path) as f:
        entry = json.load(f)["peers"].get("torch", {})
    return {c["name"]: c for c in entry.get("cases", []) if "median_ms" in c}


def main(argv):
    report, named = clsel_cases(argv[1])
    torch = torch_cases(argv[2])
    print(f"{report['device']}: best copy {report['copy_gbps']:.0f} GB/s")
    print(f"{'case':24s} {'clsel ms':>10s} {'% copy':>7s} {'torch ms':>10s} {'speedup':>8s}")
    for name, c in named.items():
        t = torch.get(name)
        print(f"{name:24s} {c['median_ms']:10.3f} {c['pct_of_copy']:6.1f}% "
              + (f"{t['median_ms']:10.3f} {t['median_ms'] / c['median_ms']:7.2f}x" if t else f"{'-':>10s}"))
    if len(argv) > 4:
        _, sweep = clsel_cases(argv[3])
        torch_sweep = torch_cases(argv[4])
        ratios = sorted((torch_sweep[n]["median_ms"] / c["median_ms"], n) for n, c in sweep.items() if n in torch_sweep)
        if ratios:
            faster = sum(r > 1 for r, _ in ratios)
            print(f"\nsweep: clsel faster than torch.where on {faster} of {len(ratios)} patterns; speedup "
                  f"min {ratios[0][0]:.2f}x ({ratios[0][1]}), median {statistics.median(r for r, _ in ratios):.2f}x, "
                  f"max {ratios[-1][0]:.2f}x")
            for r, n in ratios[:5]:
                print(f"  {n}: {r:.2f}x  {sweep[n]['what']}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
