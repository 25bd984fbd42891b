#!/usr/bin/env python3
"""clsel's kernels beside a CUDA device-to-device copy and torch.where on the same GPU and
the same tensors, per pattern (ci/gpu.sh --bench).

For every case of the `clsel bench --device opencl --json` files given (named cases, a
sweep, views), the tensors are made again on the CUDA device and two things are timed
with CUDA events (median of --repeat runs after warm-up): torch.where into a preallocated
output, and a copy of as many bytes as the output has (torch's copy_ between two CUDA
tensors: cudaMemcpy device to device). clsel's own figure is its event-timed median (the
OpenCL queue's profiling clock), of the new kernels (--after) and, where given, of the
previous commit's (--before). Each time is also given as a percentage of the copy:

    (bytes the case moves, clsel's STREAM count) / time  over  2 x output bytes / copy time

Without PyTorch or a CUDA device (CI runs this on the CPU device), the torch and copy
columns are empty and the percentages are of clsel's own copy (clEnqueueCopyBuffer).
Writes one JSON record per pattern and a markdown table with the targets' summary.

  python bench/gpu_bench.py --after NAMED.json SWEEP.json VIEWS.json
      [--before NAMED.json SWEEP.json ...] [--repeat N] [--about TEXT]... --json OUT.json --markdown OUT.md

--about adds a line about the run (the driver, the commits compared: ci/gpu.sh passes them) to
both. bench/report.py renders the JSON of the runs kept in bench/results/ into
docs/performance.md.
"""
import argparse
import datetime
import json
import math
import os
import statistics
import sys

import numpy as np

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "tests", "conformance"))
from cases import CLSEL_NAMES, pdpd_aligned  # noqa: E402  (the one place that knows pdpd's placement for numpy)

# clsel dtype name -> element width in bytes; torch.where copies bits, so each case runs on
# the signed integer type of its width (torch lacks some unsigned kernels).
WIDTH = {clsel: (2 if numpy == "bfloat16" else np.dtype(numpy).itemsize) for numpy, clsel in CLSEL_NAMES.items()}
TORCH_BITS = {1: "uint8", 2: "int16", 4: "int32", 8: "int64"}


# ---- the cases, as clsel ran them ---------------------------------------------------------

def load(paths):
    """name -> (group, case record) over `clsel bench --json` files: group is "sweep" for a
    sweep's report, "view" for a view case, else "named"."""
    cases = {}
    for path in paths:
        with open(path) as f:
            data = json.load(f)
        for report in data if isinstance(data, list) else [data]:
            if report.get("device_kind") != "opencl":
                continue
            for case in report["cases"]:
                group = "sweep" if "sweep" in report else "view" if case.get("view") else "named"
                cases[case["name"]] = (group, case)
    return cases


def numpy_shapes(case):
    """The shapes numpy broadcasting needs for the same result (pdpd inputs placed inside
    then, docs/semantics.md)."""
    shapes = [tuple(s) for s in case["shapes"]]
    if case["broadcast"] != "pdpd":
        return shapes
    rank = len(shapes[1])
    return [pdpd_aligned(shapes[0], rank, case["axis"]), shapes[1], pdpd_aligned(shapes[2], rank, case["axis"])]


def is_broadcast(case):
    """Whether some input has fewer elements than the output (a broadcast pattern)."""
    shapes = numpy_shapes(case)
    out = np.broadcast_shapes(*shapes)
    return any(math.prod(s) != math.prod(out) for s in shapes)


# ---- the same tensors on the CUDA device -------------------------------------------------

def cond_values(case, shape, torch, device):
    pattern = case["pattern"]
    if pattern in ("all_true", "all_false"):
        return torch.full(shape, pattern == "all_true", dtype=torch.bool, device=device)
    share = 0.1 if pattern == "random10" else 0.5
    return torch.rand(shape, device=device) < share


def view_of(view, rows, cols, torch, make):
    """A tensor of R x C laid out as `view` lays each input (tools/bench/bench_cases.c),
    made by make(shape) and viewed; None where torch has no such view (negative strides)."""
    if view == "padded rows":
        return make((rows, cols + 64))[:, :cols]
    if view in ("transposed", "transposed->C"):
        return make((cols, rows)).t()
    if view == "every other":
        return make((rows, 2 * cols))[:, ::2]
    if view in ("dense", "broadcast_to"):
        return make((rows, cols))
    return None


def torch_tensors(case, torch, device):
    """cond, then, else and out for torch.where, as clsel's case lays them; None where torch
    cannot lay them so."""
    bits = getattr(torch, TORCH_BITS[WIDTH[case["dtype"]]])
    values = lambda shape, v: torch.full(shape, v, dtype=bits, device=device)  # noqa: E731
    view = case.get("view", "")
    if not view:
        cshape, tshape, eshape = numpy_shapes(case)
        out_shape = np.broadcast_shapes(cshape, tshape, eshape)
        return (cond_values(case, cshape, torch, device), values(tshape, 3), values(eshape, 5),
                torch.empty(out_shape, dtype=bits, device=device))
    rows, cols = case["shapes"][0]
    cond = view_of(view, rows, cols, torch, lambda s: cond_values(case, s, torch, device))
    then = view_of(view, rows, cols, torch, lambda s: values(s, 3))
    else_ = view_of(view, rows, cols, torch, lambda s: values(s, 5))
    if view == "broadcast_to":
        then = values((cols,), 3).expand(rows, cols)
    out_view = view if view in ("padded rows", "transposed") else "dense"
    out = view_of(out_view, rows, cols, torch, lambda s: torch.empty(s, dtype=bits, device=device))
    if cond is None or then is None or else_ is None:
        return None
    return cond, then, else_, out


def cuda_ms(run, repeat, torch):
    """The median of `repeat` runs timed by CUDA events, after three untimed."""
    for _ in range(3):
        run()
    torch.cuda.synchronize()
    times = []
    for _ in range(repeat):
        start, end = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
        start.record()
        run()
        end.record()
        end.synchronize()
        times.append(start.elapsed_time(end))
    return statistics.median(times)


def time_torch(case, repeat, torch):
    """(torch.where ms or None, the copy's ms) on this case's tensors."""
    device = torch.device("cuda")
    tensors = torch_tensors(case, torch, device)
    out_bytes = case["elements"] * WIDTH[case["dtype"]]
    source = torch.empty(out_bytes, dtype=torch.uint8, device=device)
    target = torch.empty_like(source)
    copy_ms = cuda_ms(lambda: target.copy_(source), repeat, torch)
    where_ms = None
    if tensors is not None:
        cond, then, else_, out = tensors
        where_ms = cuda_ms(lambda: torch.where(cond, then, else_, out=out), repeat, torch)
    return where_ms, copy_ms


# ---- the table ----------------------------------------------------------------------------

def pct_of_copy(record, ms):
    """The case's bytes per second over the copy's, in percent."""
    if ms is None or not ms:
        return None
    if record["copy_ms"]:
        copy_bytes_per_ms = 2 * record["elements"] * WIDTH[record["dtype"]] / record["copy_ms"]
        return 100.0 * record["bytes"] / ms / copy_bytes_per_ms
    # No CUDA copy: the case's own figure against clsel's copy (clEnqueueCopyBuffer).
    return record["clsel_copy_pct"] * record["after_ms"] / ms


def percentile(values, share):
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * (len(ordered) - 1) + 0.5))] if ordered else None


def geomean(values):
    return math.exp(sum(math.log(v) for v in values) / len(values)) if values else None


def summary(records):
    """The issue's targets, as measured by this run: lines of text."""
    by_name = {r["name"]: r for r in records}
    sweep = [r["after_pct"] for r in records if r["group"] == "sweep"]
    lines = []
    if sweep:
        lines.append(f"sweep of {len(sweep)}: % of the copy min {min(sweep):.1f}, p10 {percentile(sweep, 0.1):.1f}, "
                     f"median {statistics.median(sweep):.1f} (targets 30 / 50 / 75)")
        before = [r["before_pct"] for r in records if r["group"] == "sweep" and r["before_pct"] is not None]
        if before:
            lines.append(f"  before: min {min(before):.1f}, p10 {percentile(before, 0.1):.1f}, "
                         f"median {statistics.median(before):.1f}")
    same = by_name.get("same_f32")
    if same and same["torch_ms"]:
        lines.append(f"same_f32: {same['torch_ms'] / same['after_ms']:.2f}x torch.where (target >= 1)")
    speedups = [r["torch_ms"] / r["after_ms"] for r in records
                if r["torch_ms"] and r["group"] != "view" and r["broadcast_pattern"]]
    if speedups:
        lines.append(f"broadcast patterns ({len(speedups)}): {geomean(speedups):.2f}x torch.where by geometric mean "
                     f"(target >= 1.5)")
    dense, padded = by_name.get("view_dense"), by_name.get("view_padded")
    if dense and padded:
        lines.append(f"padded view: {100 * dense['after_ms'] / padded['after_ms']:.0f} % of dense's speed (target >= 90)")
    for name in ("view_transposed", "view_transposed_c"):
        r = by_name.get(name)
        if r and r["torch_ms"]:
            lines.append(f"{name}: {r['torch_ms'] / r['after_ms']:.2f}x torch.where on the same view (target > 1)")
    return lines


def cell(value, form):
    return format(value, form) if value is not None else "-"


def markdown(records, device, copy_kind, about=()):
    rows = [f"Device: {device}. Percentages are of {copy_kind} on the same bytes; times are event-timed medians.",
            *[f"{line}" for line in about],
            "", "| case | group | dtype | MB | clsel ms | % copy | before ms | before % | torch ms | torch % "
            "| vs torch |", "|---|---|---|---:|---:|---:|---:|---:|---:|---:|---:|"]
    for r in records:
        vs = r["torch_ms"] / r["after_ms"] if r["torch_ms"] else None
        rows.append(f"| {r['name']} | {r['group']} | {r['dtype']} | {r['bytes'] / 1e6:.1f} | {r['after_ms']:.4f} "
                    f"| {cell(r['after_pct'], '.1f')} | {cell(r['before_ms'], '.4f')} | {cell(r['before_pct'], '.1f')} "
                    f"| {cell(r['torch_ms'], '.4f')} | {cell(r['torch_pct'], '.1f')} | {cell(vs, '.2f')} |")
    return "\n".join(rows + ["", "Against the targets (docs/performance.md):", ""]
                     + [f"- {line}" for line in summary(records)]) + "\n"


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--after", nargs="+", required=True, help="clsel bench --json files of the kernels measured")
    parser.add_argument("--before", nargs="*", default=[], help="the same of the previous commit's kernels")
    parser.add_argument("--repeat", type=int, default=20, help="timed runs per case for torch and the copy")
    parser.add_argument("--about", action="append", default=[], help="a line about the run (driver, commits)")
    parser.add_argument("--json", required=True, help="one record per pattern")
    parser.add_argument("--markdown", required=True, help="the table")
    options = parser.parse_args(argv)

    after, before = load(options.after), load(options.before)
    try:
        import torch
        cuda = torch.cuda.is_available()
    except ImportError:
        torch, cuda = None, False
    with open(options.after[0]) as f:
        first = json.load(f)
    device = (first[0] if isinstance(first, list) else first).get("device", "?")
    if cuda:
        device += f" / {torch.cuda.get_device_name(0)} (CUDA, torch {torch.__version__})"
    records = []
    for name, (group, case) in after.items():
        old = before.get(name, (None, None))[1]
        same_case = old is not None and old["shapes"] == case["shapes"] and old["dtype"] == case["dtype"]
        where_ms, copy_ms = time_torch(case, options.repeat, torch) if cuda else (None, None)
        record = {"name": name, "group": group, "what": case.get("what", ""), "dtype": case["dtype"],
                  "shapes": case["shapes"], "broadcast": case["broadcast"], "view": case.get("view", ""),
                  "elements": case["elements"], "bytes": case["bytes"], "broadcast_pattern": is_broadcast(case),
                  "after_ms": case["event_median_ms"], "before_ms": old["event_median_ms"] if same_case else None,
                  "torch_ms": where_ms, "copy_ms": copy_ms, "clsel_copy_pct": case["event_pct_of_copy"]}
        record["after_pct"] = pct_of_copy(record, record["after_ms"])
        record["before_pct"] = pct_of_copy(record, record["before_ms"])
        record["torch_pct"] = pct_of_copy(record, where_ms)
        records.append(record)
        print(f"{name}: clsel {record['after_ms']:.4f} ms, torch {cell(where_ms, '.4f')} ms, "
              f"copy {cell(copy_ms, '.4f')} ms", file=sys.stderr)
    copy_kind = "a CUDA device-to-device copy" if cuda else "clsel's clEnqueueCopyBuffer (no CUDA device)"
    date = datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d %H:%M UTC")
    about = [f"Run {date}."] + options.about
    with open(options.json, "w") as f:
        json.dump({"device": device, "copy": copy_kind, "date": date, "about": about, "cases": records}, f, indent=1)
    with open(options.markdown, "w") as f:
        f.write(markdown(records, device, copy_kind, about))
    return 0


if __name__ == "__main__":
    sys.exit(main())
