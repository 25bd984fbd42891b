#!/usr/bin/env python3
"""clsel.where against numpy.where by size, in one process: per pattern and element
count, the median of interleaved timed calls of each (after a warm-up), and the ratio.

  PYTHONPATH=python build/venv/bin/python bench/where.py [--repeat N] [--device auto|cpu]
      [--threads-note TEXT]

The patterns are what numpy users write: a float mask against two arrays, a bool mask
against an array and a Python scalar (a masked fill), and an int cond broadcast over rows.
numpy.where runs on one thread; clsel.where with device "auto" uses the CPU path on every
core (the machine's cores are printed), "cpu" the same path.
"""
import argparse
import os
import statistics

import numpy as np

import bench_timing
import clsel

SIZES = [1024, 4096, 16384, 65536, 262144, 1048576, 4194304, 16777216]


def patterns(rng, n):
    rows = max(n // 64, 1)
    return {
        "float mask, f32 arrays": (rng.random(n) - 0.5, rng.random(n).astype(np.float32),
                                   rng.random(n).astype(np.float32)),
        "bool mask, f32 array, Python scalar": (rng.random(n) < 0.5, rng.random(n).astype(np.float32), -1e9),
        "int64 cond [rows,1], f64 [rows,64], f64 [64]": (rng.integers(0, 2, (rows, 1)),
                                                          rng.random((rows, 64)), rng.random(64)),
    }


def timed(function, repeat):
    """Median seconds per call."""
    return statistics.median(bench_timing.time_calls({"f": function}, repeat)[1]["f"]) / 1e3


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=21)
    parser.add_argument("--device", default="auto", choices=["auto", "cpu"])
    options = parser.parse_args()
    rng = np.random.default_rng(1)
    print(f"clsel {clsel.version()}, numpy {np.__version__}, {os.cpu_count()} cores, device {options.device}")
    print(f"{'pattern':48} {'elements':>10} {'numpy us':>10} {'clsel us':>10} {'speedup':>8}")
    for n in SIZES:
        for name, (cond, x, y) in patterns(rng, n).items():
            want = np.where(cond, x, y)
            got = clsel.where(cond, x, y, device=options.device)
            assert got.dtype == want.dtype and got.tobytes() == want.tobytes(), name
            numpy_s, clsel_s = [], []
            for _ in range(3):  # interleaved rounds, so that drift hits both alike
                numpy_s.append(timed(lambda: np.where(cond, x, y), options.repeat))
                clsel_s.append(timed(lambda: clsel.where(cond, x, y, device=options.device), options.repeat))
            a, b = min(numpy_s), min(clsel_s)
            print(f"{name:48} {want.size:>10} {a * 1e6:>10.1f} {b * 1e6:>10.1f} {a / b:>7.2f}x")


if __name__ == "__main__":
    main()
