"""The runtime section of the benchmark: host memory in, host memory out, through the
Python binding as a user calls it. For several output sizes and three broadcast
patterns, times clsel.select with device="auto" (the default), "cpu" and "opencl"
beside numpy.where, in one process, alternating the four so that drift hits them alike.

    PYTHONPATH=python:bench build/venv/bin/python bench/runtime.py [--json FILE] [--quick]
        [--markdown docs/performance.md]

With --markdown the section replaces (or is appended as) the one between the runtime
markers of that file; bench/run.sh runs it after bench/report.py, and
`bench/run.sh --runtime` runs only this.

Each figure is the median of the calls after a warm-up call (the OpenCL device's
kernels are built during the warm-up). The CPU path and numpy.where share the
machine's cores; OpenCL here is whatever AUTO would not take (PoCL on the CI box).
The OpenCL calls are timed after the others, not between them: PoCL's worker threads
keep spinning for a while after a run and would slow whatever came next. Last, the fixed
cost of one small call, called back to back (fixed_cost), for clsel.select and
clsel.where against numpy.where.
"""
import argparse
import datetime
import json
import platform

import numpy as np

import bench_timing
import clsel
from markdown_section import cpu_name, replace_section

BEGIN, END = "<!-- runtime: written by bench/runtime.py -->", "<!-- /runtime -->"
TARGET_CALL_RATIO = 1.5  # a 1,000-element call's time over numpy.where's, for select and where

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
    clsel.select with default arguments, with out=, clsel.where and numpy.where. The table's figures
    time each call alone, interleaved with the other functions, which adds the cost of
    cold caches and branch predictors to every function alike."""
    import timeit

    rng = np.random.default_rng(7)
    cond = rng.integers(0, 2, size=1000).astype(bool)
    then = rng.standard_normal(1000).astype(np.float32)
    else_ = rng.standard_normal(1000).astype(np.float32)
    out = np.empty_like(then)
    funcs = {"auto": lambda: clsel.select(cond, then, else_), "auto_out": lambda: clsel.select(cond, then, else_, out=out),
             "where": lambda: clsel.where(cond, then, else_), "numpy": lambda: np.where(cond, then, else_)}
    number = 500 if quick else 5000
    result = {}
    for name, f in funcs.items():
        f()
        result[name] = min(timeit.repeat(f, number=number, repeat=5)) / number
    return result


def section(data):
    """The runtime section of docs/performance.md, between its markers."""
    kind, name = data["auto"]
    lines = [BEGIN, "## Runtime: host memory in and out", "",
             f"Written by `bench/runtime.py` on {data.get('date', '?')} ({data.get('cpu', '?')}; "
             "`bench/run.sh --runtime` reruns only this section): `clsel.select` as a Python user calls it "
             "(default arguments = AUTO; `device=\"cpu\"`; `device=\"opencl\"`, in place on a device that works "
             "in host memory, as PoCL does), beside `numpy.where`, medians in microseconds, the first three "
             f"interleaved call by call and OpenCL timed after them. AUTO ran on: {kind} ({name}). With PoCL "
             "the only OpenCL device, AUTO and `cpu` are the same code (the CPU runtime on every core); their "
             "ratio shows the order effects of this machine, not a difference. `auto, out=` writes into a "
             "preallocated array, which spares the page faults a fresh result pays on its first write (the "
             "large sizes).", "",
             "| pattern | elements | auto us | auto, out= us | cpu us | opencl us | numpy.where us | auto / numpy |",
             "|---|---:|---:|---:|---:|---:|---:|---:|"]
    for r in data["rows"]:
        opencl = f"{r['opencl_us']:,.1f}" if "opencl_us" in r else "-"
        lines.append(f"| {r['pattern']} | {r['elements']:,} | {r['auto_us']:,.1f} | {r['auto_out_us']:,.1f} | "
                     f"{r['cpu_us']:,.1f} | {opencl} | {r['numpy_us']:,.1f} | {r['auto_us'] / r['numpy_us']:.2f} |")
    fixed = data["fixed_cost"]
    ratios = {k: fixed[f"{k}_us"] / fixed["numpy_us"] for k in ("auto", "where")}
    met = "**met**" if max(ratios.values()) <= TARGET_CALL_RATIO else "**missed**"
    lines += ["", "Fixed cost of one call, 1,000 f32 elements called back to back as a model's loop calls them "
                  "(`timeit`, best of 5 rounds; the table above times each call alone, interleaved with the "
                  "others, which makes every function slower alike): `clsel.select` "
                  f"{fixed['auto_us']:.2f} us ({ratios['auto']:.2f}x numpy.where), `clsel.where` "
                  f"{fixed['where_us']:.2f} us ({ratios['where']:.2f}x), `numpy.where` {fixed['numpy_us']:.2f} us: "
                  f"{met} (target: both within {TARGET_CALL_RATIO}x numpy.where); `clsel.select` with `out=` "
                  f"{fixed['auto_out_us']:.2f} us.", "", END]
    return "\n".join(lines)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--json", help="write the results here")
    parser.add_argument("--quick", action="store_true", help="fewer repeats and sizes (CI)")
    parser.add_argument("--markdown", help="a Markdown file whose runtime section this replaces")
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
    data = {"machine": platform.node(), "processor": platform.processor(), "cpu": cpu_name(),
            "date": datetime.date.today().isoformat(), "auto": [auto_kind, auto_name], "rows": rows,
            "fixed_cost": fixed}
    if args.json:
        with open(args.json, "w") as f:
            json.dump(data, f, indent=1)
    if args.markdown:
        replace_section(args.markdown, BEGIN, END, section(data))


if __name__ == "__main__":
    main()
