#!/usr/bin/env python3
"""Joins a benchmark run into docs/performance.md and a chart: `clsel bench --json` for
the OpenCL device and the CPU path (one thread), the CPU path again on every core, and
bench/peers.py's figures. The report is generated whole; the hand-written analysis of
its figures is docs/performance_analysis.md, which the report links to and this script
never touches.

    python bench/report.py --clsel build/bench/clsel.json \\
        --clsel-threads build/bench/clsel_threads.json --peers build/bench/peers.json \\
        --markdown docs/performance.md --chart docs/performance.png [--gpu FILE]...
        [--sweep build/bench/sweep.json --sweep-peers build/bench/sweep_peers.json
         --sweep-chart docs/performance_sweep.png]

Comparisons are like for like: numpy.where (one thread) against the clsel CPU path on
one thread, ONNX Runtime and OpenVINO (every core) against the CPU path on every core,
PyOpenCL against clsel on the same OpenCL device. Every figure is a median of timed
runs; the targets (TARGET_* below: the share of the copy bandwidth each path must
reach, and the host costs of a call) are checked on cases of >= 1M elements.
--gpu adds the GPU runs kept in bench/results/ (bench/gpu_bench.py's JSON) as their own
section, between markers; with --gpu-section alone (no --clsel) only that section of the
file is rewritten (bench/run.sh --gpu), since the GPU runs come from lent machines and the
rest of the report from this one. --sweep adds the distribution over random patterns
(bench/sweep_report.py), which is what the README's claims rest on.
"""
import argparse
import datetime
import json
import os
import sys

import markdown_section
import sweep_report

ANALYSIS = "docs/performance_analysis.md"  # hand-written, beside the report; linked, not included
BIG = 1 << 20  # targets apply to cases with at least this many output elements
PEER_NAMES = {"numpy": "numpy.where", "onnxruntime": "ONNX Runtime Where", "openvino": "OpenVINO Select",
              "pyopencl": "PyOpenCL kernel"}
TARGET_OPENCL, TARGET_OPENCL_SAME, TARGET_CPU, TARGET_ENQUEUE_US = 85.0, 90.0, 80.0, 5.0
TARGET_PLAN_US = 20.0


def load(path):
    with open(path) as f:
        return json.load(f)


def reports_by_kind(data):
    reports = data if isinstance(data, list) else [data]
    return {r["device_kind"]: r for r in reports}


def by_name(cases):
    return {c["name"]: c for c in cases}


def fmt_ms(ms):
    return "-" if ms is None else (f"{ms:.3f}" if ms < 10 else f"{ms:.1f}")


def fmt_x(ratio):
    return "-" if ratio is None else f"{ratio:.2f}x"


class Run:
    """Everything one report needs, keyed by case name."""

    def __init__(self, clsel, threads, peers):
        kinds = reports_by_kind(clsel)
        self.opencl = kinds.get("opencl")
        self.cpu = kinds.get("cpu")
        self.cpu_threads = reports_by_kind(threads).get("cpu") if threads else None
        self.peers = peers or {"peers": {}}
        self.names = [c["name"] for c in (self.opencl or self.cpu)["cases"]]
        self.specs = by_name((self.opencl or self.cpu)["cases"])
        self.case = {k: by_name(r["cases"]) if r else {} for k, r in
                     (("opencl", self.opencl), ("cpu", self.cpu), ("cpu_threads", self.cpu_threads))}
        self.peer_case = {p: by_name([c for c in v["cases"] if "median_ms" in c])
                          for p, v in self.peers["peers"].items()}

    def clsel_for(self, peer):
        """The clsel configuration a peer is compared with."""
        return {"numpy": "cpu", "pyopencl": "opencl"}.get(peer, "cpu_threads")

    def speedup(self, peer, name):
        mine = self.case[self.clsel_for(peer)].get(name)
        theirs = self.peer_case.get(peer, {}).get(name)
        if not mine or not theirs:
            return None
        return theirs["median_ms"] / mine["median_ms"]


def pct(entry):
    return "-" if not entry else f"{entry['pct_of_copy']:.0f}%"


def headline(run):
    peers = [p for p in PEER_NAMES if p in run.peer_case]
    head = ["case", "elements", "clsel OpenCL ms (% copy)", "clsel CPU 1 thread ms (% memcpy)"]
    if run.cpu_threads:
        head.append(f"clsel CPU {run.cpu_threads.get('threads', '?')} threads ms (% memcpy)")
    head += [f"{PEER_NAMES[p]} ms (clsel speedup)" for p in peers]
    lines = ["| " + " | ".join(head) + " |", "|" + "---|" * 2 + "---:|" * (len(head) - 2)]
    for name in run.names:
        spec = run.specs[name]
        cells = [f"`{name}`", f"{spec['elements']:,}"]
        for kind in ("opencl", "cpu", "cpu_threads"):
            if kind == "cpu_threads" and not run.cpu_threads:
                continue
            e = run.case[kind].get(name)
            cells.append("-" if not e else f"{fmt_ms(e['median_ms'])} ({pct(e)})")
        for p in peers:
            e = run.peer_case[p].get(name)
            cells.append("-" if not e else f"{fmt_ms(e['median_ms'])} ({fmt_x(run.speedup(p, name))})")
        lines.append("| " + " | ".join(cells) + " |")
    return "\n".join(lines)


def target_lines(run):
    """One bullet per target: met or not, with the cases that miss it and their figures."""
    out = []
    big = [n for n in run.names if run.specs[n]["elements"] >= BIG]

    def misses(kind, floor_for):
        bad = []
        for n in big:
            e = run.case[kind].get(n)
            if e and e["pct_of_copy"] < floor_for(n):
                bad.append(f"`{n}` {e['pct_of_copy']:.0f}%")
        return bad

    def verdict(bad, total):
        return "**met**" if not bad else f"**missed** on {len(bad)} of {total}: " + ", ".join(bad)

    if run.opencl:
        bad = misses("opencl", lambda n: TARGET_OPENCL_SAME if n.startswith("same_") else TARGET_OPENCL)
        out.append(f"- OpenCL >= {TARGET_OPENCL:.0f}% of the best copy (same-shape >= {TARGET_OPENCL_SAME:.0f}%), "
                   f"{len(big)} cases of >= 1M elements: {verdict(bad, len(big))}")
    if run.cpu:
        bad = misses("cpu", lambda n: TARGET_CPU)
        out.append(f"- CPU path (1 thread) >= {TARGET_CPU:.0f}% of memcpy: {verdict(bad, len(big))}")
    if run.cpu_threads:
        bad = misses("cpu_threads", lambda n: TARGET_CPU)
        out.append(f"- CPU path ({run.cpu_threads.get('threads')} threads) >= {TARGET_CPU:.0f}% of memcpy on as many "
                   f"threads: {verdict(bad, len(big))}")
    for p in PEER_NAMES:
        if p not in run.peer_case:
            continue
        slower = [f"`{n}` {run.speedup(p, n):.2f}x" for n in big
                  if run.speedup(p, n) is not None and run.speedup(p, n) <= 1.0]
        ran = sum(1 for n in big if run.speedup(p, n) is not None)
        mine = {"cpu": "CPU path, 1 thread", "cpu_threads": "CPU path, every core",
                "opencl": "OpenCL, same device"}[run.clsel_for(p)]
        out.append(f"- Faster than {PEER_NAMES[p]} (clsel {mine}), median against median: "
                   + ("**met**" if not slower else f"**missed** on {len(slower)} of {ran}: " + ", ".join(slower))
                   + f" ({ran} cases run)")
    if run.cpu and run.cpu.get("plan_us"):
        us = run.cpu["plan_us"]
        out.append(f"- Host cost of one `clsel_plan_create` (median, a rank-8 pattern): {us:.2f} us "
                   + ("**met**" if us <= TARGET_PLAN_US else "**missed**") + f" (target <= {TARGET_PLAN_US:.0f} us)")
    if run.opencl:
        us = run.opencl.get("enqueue_us")
        out.append(f"- Host cost of one `clsel_cl_enqueue` (median): {us:.2f} us "
                   + ("**met**" if us <= TARGET_ENQUEUE_US else "**missed**") + f" (target <= {TARGET_ENQUEUE_US:.0f} us)")
        out.append(f"- A `clsel_cl_context` and its f32 program (reported, not gated): "
                   f"{run.opencl.get('build_first_ms', 0):.0f} ms cold (empty PoCL kernel cache), "
                   f"{run.opencl.get('build_again_ms', 0):.0f} ms warm (cached); other widths build when first used")
    return "\n".join(out)


def detail(report, title):
    lines = [f"### {title}", "",
             f"Device: {report['device']}. Best copy at the start: {report['copy_gbps']:.1f} GB/s "
             f"({report.get('copy_method', '')}).", "",
             "| case | dtype | elements | bytes | median ms | min ms | GB/s | copy GB/s (same run) | % of copy | "
             "first call ms |", "|---|---|---:|---:|---:|---:|---:|---:|---:|---:|"]
    for c in report["cases"]:
        lines.append(f"| `{c['name']}` | {c['dtype']} | {c['elements']:,} | {c['bytes']:,} | {fmt_ms(c['median_ms'])} | "
                     f"{fmt_ms(c['min_ms'])} | {c['gbps']:.2f} | {c.get('copy_gbps', report['copy_gbps']):.2f} | "
                     f"{c['pct_of_copy']:.1f}% | {c['first_call_ms']:.2f} |")
    return "\n".join(lines)


def peer_detail(run):
    lines = ["| case | " + " | ".join(PEER_NAMES[p] + " ms / GB/s" for p in PEER_NAMES if p in run.peers["peers"])
             + " |", "|---|" + "---:|" * sum(1 for p in PEER_NAMES if p in run.peers["peers"])]
    for name in run.names:
        cells = [f"`{name}`"]
        for p in PEER_NAMES:
            if p not in run.peers["peers"]:
                continue
            e = next((c for c in run.peers["peers"][p]["cases"] if c["name"] == name), None)
            if not e:
                cells.append("-")
            elif "error" in e:
                cells.append("not run: " + e["error"].replace("|", "/")[:60])
            else:
                cells.append(f"{fmt_ms(e['median_ms'])} / {e['gbps']:.2f}")
        lines.append("| " + " | ".join(cells) + " |")
    devices = [f"{PEER_NAMES[p]} {v.get('version') or ''} on {v.get('device', '?')}"
               for p, v in run.peers["peers"].items() if p in PEER_NAMES]
    return "\n".join(lines) + "\n\nPeers as run: " + "; ".join(devices) + "."


def thresholds_section(run):
    """The measurements behind the library's two size thresholds."""
    t = (run.cpu_threads or {}).get("thresholds")
    if not t:
        return ""
    rows = ["| elements | bytes moved | CPU path, 1 thread ms | CPU path, %d threads ms | runtime round trip ms "
            "| runtime, AUTO ms | AUTO / best other |" % t["threads"], "|---:|---:|---:|---:|---:|---:|---:|"]
    for r in t["rows"]:
        rt = "-" if r["runtime_ms"] < 0 else f"{r['runtime_ms']:.4f}"
        best = min(x for x in (r["cpu_ms"], r["threads_ms"], r["runtime_ms"]) if x > 0)
        auto = f"{r['auto_ms']:.4f} | {r['auto_ms'] / best:.2f}" if "auto_ms" in r else "- | -"
        rows.append(f"| {r['elements']:,} | {r['bytes']:,} | {r['cpu_ms']:.4f} | {r['threads_ms']:.4f} | {rt} "
                    f"| {auto} |")
    chunked = t.get("chunked")
    if chunked:
        rows += ["", f"Past the device's allocation limit ({chunked['max_alloc']:,} bytes): a u8 select of "
                     f"{chunked['elements']:,} elements ({chunked['bytes'] / 1e9:.2f} GB moved) through "
                     f"`clsel_runtime_run`, in chunks: {chunked['runtime_ms']:.0f} ms "
                     f"({chunked['bytes'] / (chunked['runtime_ms'] * 1e6):.2f} GB/s), against {chunked['cpu_ms']:.0f} ms "
                     "for the CPU path on the same tensors (one run each)."]
    fixed = [r["runtime_ms"] for r in t["rows"] if r["runtime_ms"] >= 0]
    lines = ["### Thresholds", "",
             "`clsel bench --device cpu --threads N --thresholds`: same-shape f32, medians of 21 runs. The runtime "
             f"column is `clsel_runtime_run` on {t['runtime_device'] or 'no OpenCL device'} with every size sent "
             "to the device (zero copy on a device that works in host memory, else buffers, upload, launch, "
             "blocking download); AUTO is `clsel_runtime_run` as `clsel_runtime_create(CLSEL_DEVICE_AUTO)` makes it, "
             f"every default kept (it ran on: {t.get('auto_device', '?')}). The library starts its own threads only "
             "for runs that move 32 MiB or more (`CPU_THREADS_MIN_BYTES`, host/common/tuning_constants.h), "
             "and the runtime "
             "sends runs under 1 MiB to the CPU path (`CLSEL_RUNTIME_MIN_DEVICE_BYTES`).", ""] + rows
    if fixed:
        lines += ["", f"Smallest runtime round trip in this run: {min(fixed):.3f} ms, against "
                      f"{next((r['cpu_ms'] for r in t['rows'] if r['bytes'] >= 1 << 20), float('nan')):.3f} ms for the "
                      "CPU path on the first size of 1 MiB or more."]
    return "\n".join(lines)


FIRST_CALL_STATES = {
    "cold": "both caches empty; clsel's in its default mode",
    "pocl-warm": "PoCL's cache warm; clsel's default mode (no entries for a CPU device)",
    "cold, on": "both empty; `CLSEL_KERNEL_CACHE=on` (writes the entry)",
    "warm, on": "both warm; `CLSEL_KERNEL_CACHE=on` (loads the entry)",
}


def first_call_section(runs):
    """The first select of a process on the OpenCL device, by cache state
    (bench/first_call.sh)."""
    import statistics

    states = []
    for r in runs:
        if r["state"] not in states:
            states.append(r["state"])
    device = runs[0]["run"]["device"] if runs else "?"
    lines = ["## First select after process start", "",
             "`bench/first_call.sh`: `clsel bench --first-call` in a fresh process per run (f32, "
             f"{runs[0]['run']['elements'] if runs else 0:,} elements, on {device}), medians of "
             f"{len(runs) // max(len(states), 1)} runs per state, ms. The platform start is `clGetPlatformIDs` "
             "(the ICD loader and the driver starting, before clsel is called); clsel's share is "
             "`clsel_runtime_create` and the first run, which builds the program of the f32 width (or loads "
             "it from a cache).", "",
             "| caches | platform start | runtime create | first run | second run | first select | clsel's share |",
             "|---|---:|---:|---:|---:|---:|---:|"]
    for state in states:
        rs = [r["run"] for r in runs if r["state"] == state]
        med = {k: statistics.median(r[k] for r in rs)
               for k in ("platform_ms", "create_ms", "first_run_ms", "second_run_ms")}
        total = med["platform_ms"] + med["create_ms"] + med["first_run_ms"]
        lines.append(f"| {FIRST_CALL_STATES.get(state, state)} | {med['platform_ms']:.1f} | {med['create_ms']:.1f} | "
                     f"{med['first_run_ms']:,.1f} | {med['second_run_ms']:.3f} | {total:,.1f} | "
                     f"{med['create_ms'] + med['first_run_ms']:,.1f} |")
    return "\n".join(lines)


GPU_BEGIN, GPU_END = "<!-- gpu: written by bench/report.py (bench/run.sh --gpu) -->", "<!-- /gpu -->"


def gpu_section(paths):
    """The GPU runs kept in bench/results/ (bench/gpu_bench.py's JSON: `ci/gpu.sh OUT --bench`), newest first."""
    import gpu_bench

    parts = [GPU_BEGIN, "## GPU", "",
             "Runs of `ci/gpu.sh OUT --bench` on lent GPUs, each kept as its per-pattern JSON in bench/results/: "
             "clsel's kernels (and the previous commit's) beside torch.where and a CUDA device copy on the same "
             "tensors, all timed by the device's clock.", ""]
    runs = [load(path) for path in paths]
    for run in sorted(runs, key=lambda r: r.get("date", ""), reverse=True):
        parts += [f"### {run['device']}", "", gpu_bench.markdown(run["cases"], run["device"], run["copy"],
                                                                 run.get("about", [])), ""]
    if not runs:
        parts += ["No run of the present kernels on a GPU yet (docs/performance_analysis.md, \"The GPU kernels\").", ""]
    return "\n".join(parts).rstrip("\n") + "\n" + GPU_END


def chart(run, path):
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    import numpy as np

    names = [n for n in run.names if run.specs[n]["elements"] >= BIG]
    x = np.arange(len(names))
    fig, (top, bottom) = plt.subplots(2, 1, figsize=(14, 9), sharex=True)
    series = [("opencl", "clsel OpenCL (% of best device copy)"), ("cpu", "clsel CPU, 1 thread (% of memcpy)")]
    if run.cpu_threads:
        series.append(("cpu_threads", f"clsel CPU, {run.cpu_threads.get('threads')} threads (% of memcpy)"))
    width = 0.8 / len(series)
    for i, (kind, label) in enumerate(series):
        values = [run.case[kind].get(n, {}).get("pct_of_copy", 0) for n in names]
        top.bar(x + (i - (len(series) - 1) / 2) * width, values, width, label=label)
    top.axhline(TARGET_OPENCL, color="black", linewidth=0.8, linestyle="--")
    top.axhline(TARGET_CPU, color="grey", linewidth=0.8, linestyle=":")
    top.set_ylabel("% of copy bandwidth")
    top.set_title("clsel: bandwidth against the same run's copy (cases of >= 1M elements)")
    top.legend(fontsize=8, loc="lower left")
    peers = [p for p in PEER_NAMES if p in run.peer_case]
    width = 0.8 / max(1, len(peers))
    for i, p in enumerate(peers):
        values = [run.speedup(p, n) or 0 for n in names]
        bottom.bar(x + (i - (len(peers) - 1) / 2) * width, values, width, label=f"over {PEER_NAMES[p]}")
    bottom.axhline(1.0, color="black", linewidth=0.8)
    bottom.set_yscale("log")
    bottom.set_ylabel("clsel speedup (median time ratio)")
    bottom.legend(fontsize=8, loc="upper left")
    bottom.set_xticks(x)
    bottom.set_xticklabels(names, rotation=45, ha="right", fontsize=8)
    fig.tight_layout()
    fig.savefig(path, dpi=90)


def markdown(run, options):
    when = datetime.date.today().isoformat()
    opencl_device = run.opencl["device"] if run.opencl else "none"
    quick = " --quick" if (run.opencl or run.cpu).get("quick") else ""
    parts = [
        f"<!-- Generated by bench/report.py from one run of bench/run.sh{quick} (the Strided tensors section at the "
        f"end by bench/strided.py); do not edit by hand. The hand-written analysis is {ANALYSIS}. -->",
        "# Performance",
        "",
        f"Generated by `bench/report.py` on {when} from one run of `bench/run.sh{quick}`. "
        f"Machine: {run.peers.get('machine', 'see below')}; OpenCL device: {opencl_device}. "
        "Timings on this shared virtual machine drift by 10-20 % between runs, so every "
        "ratio below is between figures measured side by side in the same run (the copy "
        "baseline is re-timed between each case's runs). What the figures mean, how the code "
        f"reaches them and where and why it misses: [{os.path.basename(ANALYSIS)}]({os.path.basename(ANALYSIS)}) "
        "(hand-written).",
        "",
        "Reproduce (after `ci/setup.sh` and a build):",
        "",
        "```sh",
        "bench/run.sh            # full sizes, about 25 minutes; bench/run.sh --quick: seconds",
        "```",
        "",
        "which runs `clsel bench --device all --json build/bench/clsel.json`, "
        "`clsel bench --device cpu --threads $(nproc) --json build/bench/clsel_threads.json`, "
        "`bench/peers.py --cases build/bench/clsel.json --json build/bench/peers.json`, "
        "`clsel bench --sweep 100 --seed 1 --json build/bench/sweep.json`, "
        "`bench/peers.py --cases build/bench/sweep.json --peer numpy --json build/bench/sweep_peers.json` "
        "and this script.",
        "",
        "## Targets",
        "",
        target_lines(run),
        "",
        sweep_report.section(load(options.sweep), load(options.sweep_peers) if options.sweep_peers else None,
                             os.path.basename(options.sweep_chart) if options.sweep_chart else None)
        if options.sweep else "",
        "",
        "## The named cases",
        "",
        "Median milliseconds per case. Percentages: of the best copy on the same device in the same run "
        "(clEnqueueCopyBuffer, a copy kernel, CLBlast Xcopy for OpenCL; memcpy, on as many threads, for the CPU path). "
        "Speedups: the peer's median over clsel's, like for like (numpy.where against the CPU path on one "
        "thread, ONNX Runtime and OpenVINO against the CPU path on every core, PyOpenCL against clsel's "
        "OpenCL kernels on the same device).",
        "",
        headline(run),
        "",
        f"![% of copy bandwidth and speedup over each peer]({os.path.basename(options.chart)})" if options.chart else "",
        "",
        "## Details",
        "",
    ]
    for report, title in ((run.opencl, "clsel, OpenCL"), (run.cpu, "clsel, CPU path, 1 thread"),
                          (run.cpu_threads, "clsel, CPU path, every core")):
        if report:
            parts += [detail(report, title), ""]
    if run.peer_case:
        parts += ["### Peers", "", peer_detail(run), ""]
    parts += [thresholds_section(run), ""]
    if options.first_call:
        parts += [first_call_section(load(options.first_call)), ""]
    return "\n".join(parts)


def main(argv=None):
    parser = argparse.ArgumentParser(description="docs/performance.md from a benchmark run")
    parser.add_argument("--clsel", help="clsel bench --device all --json output (required but with --gpu-section)")
    parser.add_argument("--clsel-threads", help="clsel bench --device cpu --threads N --json output")
    parser.add_argument("--peers", help="bench/peers.py --json output")
    parser.add_argument("--gpu", action="append", help="bench/gpu_bench.py JSON of a GPU run (bench/results/)")
    parser.add_argument("--markdown", required=True, help="the report to write")
    parser.add_argument("--chart", help="the PNG chart to write beside it")
    parser.add_argument("--sweep", help="clsel bench --sweep N --json output")
    parser.add_argument("--sweep-peers", help="bench/peers.py --peer numpy on the sweep's file")
    parser.add_argument("--sweep-chart", help="the PNG of the sweep's distributions")
    parser.add_argument("--first-call", help="bench/first_call.sh's JSON")
    parser.add_argument("--gpu-section", action="store_true", help="rewrite only the GPU section of --markdown")
    options = parser.parse_args(argv)
    if not options.gpu_section and not options.clsel:
        parser.error("--clsel is required (or --gpu-section)")
    if not options.gpu_section:
        write_report(options)
    markdown_section.replace_section(options.markdown, GPU_BEGIN, GPU_END, gpu_section(options.gpu or []))
    return 0


def write_report(options):
    """The report but its GPU section, from this machine's run."""
    run = Run(load(options.clsel), load(options.clsel_threads) if options.clsel_threads else None,
              load(options.peers) if options.peers else None)
    if options.chart:
        chart(run, options.chart)
    if options.sweep and options.sweep_chart:
        sweep_report.chart(load(options.sweep), options.sweep_chart)
    with open(options.markdown, "w") as f:
        f.write(markdown(run, options).rstrip() + "\n")


if __name__ == "__main__":
    sys.exit(main())
