"""The runtime section of the benchmark: host memory in, host memory out, through the
Python binding as a user calls it. For several output sizes and three broadcast
patterns, times clsel.select with device="auto" (the default), "cpu" and "opencl"
beside numpy.where, in one process, alternating the four so that drift hits them alike.

    PYTHONPATH=python build/venv/bin/python bench/runtime.py [--json FILE] [--quick]

Each figure is the median of the calls after a warm-up call (the OpenCL device's
kernels are built during the warm-up). The CPU path and numpy.where share the
machine's cores; OpenCL here is whatever AUTO would not take (PoCL on the CI box).
The OpenCL calls are timed after the others, not between them: PoCL's worker threads
keep spinning for a while after a run and would slow whatever came next. Last, the fixed
cost of one small call, called back to back (fixed_cost).
"""
import argparse
import json
import platform

import numpy as np

import bench_timing
import clsel

# Output elements (f32 and u8 alike), from the fixed cost of a call to DRAM-sized runs.
SIZES = [1_000, 16_384, 262_144, 1_048_576, 4_194_304, 33_554_432]


def shapes_for(pattern, n):
    """(cond, then, else) shapes and dtype of a pattern with an output of about n elements."""
    if pattern == "same":  # every tensor the output's shape
        return ((n,), (n,), (n,)), np.float32
    if pattern == "rows":  # then full, else one row, cond one column: a typical masked fill
        cols = 256 if n >= 256 else n
        rows = max(n // cols, 1)
        return ((rows, 1), (rows, cols), (cols,)), np.float32
    if pattern == "scalar_u8":  # 1-byte data, else a scalar
        return ((n,), (n,), ()), np.uint8
    raise ValueError(pattern)


def make_inputs(pattern, n, rng):
    (cs, ts, es), dtype = shapes_for(pattern, n)
    cond = rng.integers(0, 2, size=cs).astype(bool)
    if dtype == np.float32:
        then = rng.standard_normal(ts).astype(dtype)
        else_ = rng.standard_normal(es).astype(dtype)
    else:
        then = rng.integers(0, 256, size=ts).astype(dtype)
        else_ = rng.integers(0, 256, size=es).astype(dtype)
    return cond, then, else_


def repeats_for(out_bytes, quick):
    if out_bytes <= 1 << 20:
        return 30 if quick else 200
    if out_bytes <= 16 << 20:
        return 8 if quick else 30
    return 3 if quick else 9


def time_calls(funcs, repeats):
    """Median seconds per call of each function, calls interleaved round by round (one
    warm-up each first: kernels built, pages touched)."""
    samples = bench_timing.time_calls(funcs, repeats)[1]
    return {name: float(np.median(s)) / 1e3 for name, s in samples.items()}


def fixed_cost(quick):
    """The fixed cost of one call: a 1,000-element same-shape f32 select called back to back
    (as a model's loop calls it), seconds per call as the best of 5 rounds, for
    clsel.select with default arguments, with out=, and numpy.where. The table's figures
    time each call alone, interleaved with the other functions, which adds the cost of
    cold caches and branch predictors to every function alike."""
    import timeit

    rng = np.random.default_rng(7)
    cond = rng.integers(0, 2, size=1000).astype(bool)
    then = rng.standard_normal(1000).astype(np.float32)
    else_ = rng.standard_normal(1000).astype(np.float32)
    out = np.empty_like(then)
    funcs = {"auto": lambda: clsel.select(cond, then, else_), "auto_out": lambda: clsel.select(cond, then, else_, out=out),
             "numpy": lambda: np.where(cond, then, else_)}
    number = 500 if quick else 5000
    result = {}
    for name, f in funcs.items():
        f()
        result[name] = min(timeit.repeat(f, number=number, repeat=5)) / number
    return result


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--json", help="write the results here")
    parser.add_argument("--quick", action="store_true", help="fewer repeats and sizes (CI)")
    args = parser.parse_args()
    rng = np.random.default_rng(2026)
    have_opencl = any(True for _ in clsel.devices())
    auto_kind, auto_name = clsel.runtime_device("auto")
    sizes = SIZES[:4] if args.quick else SIZES
    rows = []
    print(f"auto runs on: {auto_kind} ({auto_name}); OpenCL devices: {have_opencl}")
    print(f"{'pattern':<10} {'elements':>11} {'auto us':>10} {'cpu us':>10} {'opencl us':>10} "
          f"{'numpy us':>10} {'auto/cpu':>8} {'auto/numpy':>10}")
    for pattern in ("same", "rows", "scalar_u8"):
        for n in sizes:
            cond, then, else_ = make_inputs(pattern, n, rng)
            out = np.empty(np.broadcast_shapes(cond.shape, then.shape, else_.shape), then.dtype)
            funcs = {
                "auto": lambda: clsel.select(cond, then, else_),
                "cpu": lambda: clsel.select(cond, then, else_, device="cpu"),
                "numpy": lambda: np.where(cond, then, else_),
                "auto_out": lambda: clsel.select(cond, then, else_, out=out),
            }
            repeats = repeats_for(out.nbytes, args.quick)
            medians = time_calls(funcs, repeats)
            if have_opencl:
                medians.update(time_calls({"opencl": lambda: clsel.select(cond, then, else_, device="opencl")},
                                          repeats))
            row = {"pattern": pattern, "elements": int(out.size), "out_bytes": int(out.nbytes),
                   **{f"{k}_us": v * 1e6 for k, v in medians.items()}}
            rows.append(row)
            opencl = f"{row['opencl_us']:10.1f}" if have_opencl else f"{'-':>10}"
            print(f"{pattern:<10} {out.size:>11,} {row['auto_us']:10.1f} {row['cpu_us']:10.1f} {opencl} "
                  f"{row['numpy_us']:10.1f} {row['auto_us'] / row['cpu_us']:8.2f} "
                  f"{row['auto_us'] / row['numpy_us']:10.2f}")
    fixed = {f"{k}_us": v * 1e6 for k, v in fixed_cost(args.quick).items()}
    print("fixed cost of one call back to back (1,000 f32, best of 5 rounds): "
          + ", ".join(f"{k} {v:.2f} us" for k, v in fixed.items()))
    if args.json:
        with open(args.json, "w") as f:
            json.dump({"machine": platform.node(), "processor": platform.processor(), "auto": [auto_kind, auto_name],
                       "rows": rows, "fixed_cost": fixed}, f, indent=1)


if __name__ == "__main__":
    main()
