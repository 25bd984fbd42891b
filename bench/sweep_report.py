"""The sweep's part of docs/performance.md (bench/report.py uses it): the distribution of
% of copy over random broadcast patterns per path, against the sweep's targets (median
>= 85 %, 10th percentile >= 70 %), the same in % of the traffic model's ceiling,
numpy.where on the same patterns, the worst patterns by name, and a chart of the
distributions (one curve per path).

Inputs: `clsel bench --sweep N --json` (a list of reports: OpenCL, CPU on one thread,
CPU on every core) and, optionally, bench/peers.py --peer numpy on that file.
"""
import json
import statistics

TARGET_MEDIAN, TARGET_P10 = 85.0, 70.0
WORST = 8


def load(path):
    with open(path) as f:
        return json.load(f)


def path_name(report):
    if report["device_kind"] == "opencl":
        return f"OpenCL ({report['device']})"
    threads = report.get("threads", 1)
    return f"CPU path, {threads} thread{'s' if threads != 1 else ''}"


def percentile(values, q):
    """Linear interpolation between closest ranks (numpy's default)."""
    values = sorted(values)
    at = (len(values) - 1) * q
    lo = int(at)
    hi = min(lo + 1, len(values) - 1)
    return values[lo] + (at - lo) * (values[hi] - values[lo])


def of_ceiling(case):
    return 100.0 * case["gbps"] / case["model_gbps"] if case.get("model_gbps") else 0.0


def capped(x):
    return min(x, 100.0)


def spread(figures):
    """min / 10th percentile / median as one table cell's text."""
    return " / ".join(f"{x:.0f}" for x in figures) + " %"


def distribution(cases, key):
    values = [capped(key(c)) for c in cases]
    return min(values), percentile(values, 0.1), statistics.median(values)


def ran(report):
    return [c for c in report["cases"] if c.get("median_ms", 0) > 0]


def numpy_cases(peers):
    if not peers:
        return {}
    entry = peers.get("peers", {}).get("numpy", {})
    return {c["name"]: c for c in entry.get("cases", []) if "median_ms" in c}


def ceiling_table(reports):
    """What the memory allows on each path: the three rates the traffic model rests on, how far
    the patterns' ceilings themselves reach (% of the copy), and the patterns against them."""
    lines = ["", "What the memory allows, per pattern: a roofline of three ceilings measured in the same run "
             "(all bytes at the copy's rate, the reads at the rate of reading alone, the writes at the rate of "
             "writing alone). A pattern whose bytes are mostly output cannot reach the copy where writing alone "
             "is slower than a copy, as on this machine. The ceilings themselves (% of the copy, capped at 100), "
             "and the same distributions as a % of each pattern's ceiling:",
             "", "| path | writing alone | reading alone | copy | ceilings: min / 10th / median | "
             "ceilings below 75 % | min | 10th percentile | median |",
             "|---|---:|---:|---:|---:|---:|---:|---:|---:|"]
    for r in reports:
        cases = [c for c in ran(r) if c.get("model_gbps")]
        if not cases:
            continue
        ceilings = distribution(cases, lambda c: c["ceiling_pct"])
        mn, p10, med = distribution(cases, of_ceiling)
        lines.append(f"| {path_name(r)} | {r.get('write_gbps', 0):.1f} GB/s | {r.get('read_gbps', 0):.1f} GB/s | "
                     f"{r['copy_gbps']:.1f} GB/s | {spread(ceilings)} | "
                     f"{sum(c['ceiling_pct'] < 75 for c in cases)} | {mn:.0f} % | {p10:.0f} % | {med:.0f} % |")
    return lines


def worst_table(report, title):
    """The report's slowest patterns by % of the copy, each with its ceiling."""
    cases = sorted(ran(report), key=lambda c: c["pct_of_copy"])[:WORST]
    if not cases:
        return []
    lines = ["", f"{title}, {path_name(report)}:", "",
             "| pattern | dtype | elements | ms | % of copy | ceiling (% of copy) | % of ceiling | shapes |",
             "|---|---|---:|---:|---:|---:|---:|---|"]
    for c in cases:
        lines.append(f"| `{c['name']}` | {c['dtype']} | {c['elements']:,} | {c['median_ms']:.2f} | "
                     f"{c['pct_of_copy']:.0f} % | {c.get('ceiling_pct', 0):.0f} % | {of_ceiling(c):.0f} % | "
                     f"{c['what']} |")
    return lines


def verdict(median, p10):
    ok = median >= TARGET_MEDIAN and p10 >= TARGET_P10
    return "**met**" if ok else "**missed**"


def section(sweep, peers=None, chart_name=None):
    reports = sweep if isinstance(sweep, list) else [sweep]
    first = reports[0]
    info = first.get("sweep", {})
    lines = ["## The sweep: random broadcast patterns", "",
             f"`clsel bench --sweep {info.get('patterns', '?')} --seed {info.get('seed', '?')}`: random patterns drawn "
             "from numpy (both cond rules), pdpd and none broadcasting, output ranks 1 to 8, dims of 1-64 and longer "
             "ones, every element width, random and constant conds, outputs of 64-128 MiB (tools/bench/bench_sweep.c "
             "gives the distribution). Each path is timed against a copy on the same device re-timed between its "
             "runs; a pattern's figure is the median of its runs, capped at 100 % (a ratio above the copy means "
             "the byte count overstates what had to move). The README's claims rest on this distribution.", "",
             "| path | patterns | min | 10th percentile | median | below 85 % | below 70 % | target "
             "(median >= 85 %, 10th >= 70 %) |",
             "|---|---:|---:|---:|---:|---:|---:|---|"]
    for r in reports:
        cases = ran(r)
        if not cases:
            continue
        mn, p10, med = distribution(cases, lambda c: c["pct_of_copy"])
        target = verdict(med, p10) if r["device_kind"] == "opencl" or r.get("threads", 1) == 1 else "(reported)"
        lines.append(f"| {path_name(r)} | {len(cases)} | {mn:.0f} % | {p10:.0f} % | {med:.0f} % | "
                     f"{sum(c['pct_of_copy'] < 85 for c in cases)} | {sum(c['pct_of_copy'] < 70 for c in cases)} | "
                     f"{target} |")
    lines += ceiling_table(reports)
    numpy = numpy_cases(peers)
    cpu1 = next((r for r in reports if r["device_kind"] == "cpu" and r.get("threads", 1) == 1), None)
    if numpy and cpu1:
        mine = {c["name"]: c for c in ran(cpu1)}
        ratios = sorted((numpy[n]["median_ms"] / c["median_ms"], n) for n, c in mine.items() if n in numpy)
        if ratios:
            slower = [f"`{n}` {x:.2f}x" for x, n in ratios if x < 1.0]
            lines += ["", f"numpy.where ({peers['peers']['numpy'].get('version') or ''}, one thread) on the same "
                      f"patterns against the CPU path on one thread: clsel is faster on {len(ratios) - len(slower)} "
                      f"of {len(ratios)}; speedup min {ratios[0][0]:.2f}x (`{ratios[0][1]}`), median "
                      f"{statistics.median(x for x, _ in ratios):.2f}x, max {ratios[-1][0]:.2f}x. "
                      + ("No pattern slower than numpy.where: **met**." if not slower
                         else "Slower than numpy.where on: " + ", ".join(slower) + " (**missed**).")]

    for r in reports:
        lines += worst_table(r, "Worst patterns")
    if chart_name:
        lines += ["", f"![distribution of % of copy over the sweep, per path]({chart_name})"]
    return "\n".join(lines)


def chart(sweep, path):
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    reports = sweep if isinstance(sweep, list) else [sweep]
    fig, (left, right) = plt.subplots(1, 2, figsize=(13, 5), sharey=True)
    for r in reports:
        cases = ran(r)
        if not cases:
            continue
        for axis, key in ((left, lambda c: c["pct_of_copy"]), (right, of_ceiling)):
            values = sorted(capped(key(c)) for c in cases)
            axis.step(values, [(i + 1) / len(values) for i in range(len(values))], where="post",
                      label=f"{path_name(r)} ({len(values)})")
    for axis, title in ((left, "% of the same-device copy"), (right, "% of the pattern's traffic ceiling")):
        axis.axvline(TARGET_MEDIAN, color="black", linewidth=0.8, linestyle="--")
        axis.axvline(TARGET_P10, color="grey", linewidth=0.8, linestyle=":")
        axis.axhline(0.5, color="black", linewidth=0.5)
        axis.axhline(0.1, color="grey", linewidth=0.5)
        axis.set_xlim(0, 102)
        axis.set_xlabel(title + " (capped at 100)")
        axis.grid(alpha=0.3)
    left.set_ylabel("fraction of patterns at or below")
    left.set_title("clsel over random broadcast patterns (CDF)")
    right.set_title("the same against what the memory allows")
    left.legend(fontsize=8, loc="upper left")
    fig.tight_layout()
    fig.savefig(path, dpi=90)
