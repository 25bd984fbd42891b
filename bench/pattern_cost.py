#!/usr/bin/env python3
"""The CPU path's own cost on broadcast patterns, in cache: ns per KB of output, so that two
builds of the gather and row loops can be ranked where whole-sweep timings are too noisy.

  PYTHONPATH=python build/venv/bin/python bench/pattern_cost.py [--lib PATH]... [--rounds N]
      [--kb KB] [PATTERN]...

A PATTERN is "DTYPE COND THEN ELSE" with numpy-style shapes, e.g. "i8 [89080,1,7,13] [7,13]
[89080,13,1,1]" (the cond broadcasts both ways, as the sweep's numpy2 rule allows). The
leading dim of the output is cut down so that the output is about KB kilobytes (default 1024:
in L2 and below the size from which the CPU path streams its stores), so the figure is the
loops' cost, not memory's. Without patterns: the short-row tail's worst patterns of the short
draw, seeds 1-9, that docs/performance_analysis.md measured ("What the tail's worst patterns
pay for").

Each --lib (a libclsel.so; default build/lib/libclsel.so) runs in a process of its own; builds
alternate pattern by pattern, and each figure is the median over --rounds (default 3) of the
best of 15 timings of 20 calls on one thread. Every output is checked against numpy.where.
"""
import argparse
import os
import statistics
import subprocess
import sys

TAIL_WORST = [
    "i8 [89080,1,7,13] [7,13] [89080,13,1,1]",
    "i8 [25293,8,1,4,1,7] [25293,8,1,1,16,7] [1,1,4,1,1]",
    "boolean [24192,16,1,1] [5] [24192,16,40,1]",
    "i8 [92460,1,1,16] [92460,16,1,16] [1,1,5,1]",
    "u8 [13,40,3] [1,1] [28499,3,1,1,3]",
    "f16 [1,1,16,2,2,1] [45285,4,1,1,1,5] []",
    "f16 [21744,1,1,4,4,16] [4,1] [21744,3,4,4,1,16]",
    "i16 [1606614,1,13] [1,2,13] [1606614,1,1]",
    "u8 [1,31,1,1] [202049,1,4,5] [1]",
    "f64 [3] [3] [2921209,1]",
    "u8 [3221,1,40,40,1] [4,40,40,1] [3221,4,1,1,5]",
    "i8 [3,1,2,7,7] [88115,3,1,1,7,7] [3,2,7,1]",
]

# bf16 travels as its 16 bits: the loops move bytes, whatever they mean.
DTYPES = {"boolean": "bool", "u8": "uint8", "i8": "int8", "u16": "uint16", "i16": "int16",
          "f16": "float16", "bf16": "uint16", "u32": "uint32", "i32": "int32", "f32": "float32",
          "u64": "uint64", "i64": "int64", "f64": "float64"}


def shape(text):
    inner = text.strip().strip("[]").strip()
    return [int(d) for d in inner.split(",")] if inner else []


def measure(pattern, kb):
    """Runs in the child: the pattern's best ns per KB, printed."""
    import time

    import numpy as np

    import clsel

    words = pattern.split()
    dtype = np.dtype(DTYPES[words[0]])
    shapes = [shape(s) for s in words[1:4]]
    rank = max(len(s) for s in shapes)
    shapes = [[1] * (rank - len(s)) + s for s in shapes]
    out_shape = np.broadcast_shapes(*map(tuple, shapes))
    row_bytes = int(np.prod(out_shape[1:], dtype=np.int64)) * dtype.itemsize if rank else 1
    lead = max(1, int(kb * 1024 / max(row_bytes, 1)))
    for s in shapes:
        if rank and s[0] == out_shape[0] and s[0] > 1:
            s[0] = lead
    rng = np.random.default_rng(1)
    cond = rng.integers(0, 2, shapes[0]).astype(bool)
    then = rng.integers(0, 100, shapes[1]).astype(dtype)
    else_ = rng.integers(0, 100, shapes[2]).astype(dtype)
    out = np.empty(np.broadcast_shapes(*map(tuple, shapes)), dtype)

    def call():
        clsel.select(cond, then, else_, device="cpu", out=out, cond_broadcast="bidirectional")

    call()
    if not np.array_equal(out, np.where(cond, then, else_)):
        sys.exit(f"{pattern}: the output differs from numpy.where")
    best = float("inf")
    for _ in range(15):
        start = time.perf_counter()
        for _ in range(20):
            call()
        best = min(best, (time.perf_counter() - start) / 20)
    print(best * 1e9 / (out.nbytes / 1024))


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("patterns", nargs="*", metavar="PATTERN")
    parser.add_argument("--lib", action="append", help="a libclsel.so (repeatable)")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--kb", type=float, default=1024)
    parser.add_argument("--child", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        measure(args.child, args.kb)
        return
    libs = args.lib or [os.path.join("build", "lib", "libclsel.so")]
    patterns = args.patterns or TAIL_WORST
    print("ns per KB of output (in cache, one thread); columns:", " | ".join(libs))
    for pattern in patterns:
        figures = {lib: [] for lib in libs}
        for _ in range(args.rounds):
            for lib in libs:
                env = dict(os.environ, CLSEL_LIBRARY=os.path.abspath(lib))
                child = subprocess.run([sys.executable, __file__, "--child", pattern,
                                        "--kb", str(args.kb)], env=env, capture_output=True,
                                       text=True)
                if child.returncode:
                    sys.exit(child.stderr.strip() or f"{pattern}: failed under {lib}")
                figures[lib].append(float(child.stdout.split()[-1]))
        medians = [statistics.median(figures[lib]) for lib in libs]
        ratio = f"  ({medians[-1] / medians[0]:.2f}x)" if len(libs) > 1 else ""
        print(f"{pattern:52s}", " ".join(f"{m:7.1f}" for m in medians) + ratio, flush=True)


if __name__ == "__main__":
    main()
