"""The short-row tail's section of docs/performance.md: `clsel bench --sweep N --draw short`
(patterns whose gathers repeat with a short period: an element repeated over a short dim, a
short row tiled, interleaved; tools/bench/bench_sweep.c gives the draw) per path, against
the tail's targets (min >= 50 %, 10th percentile >= 75 %, median >= 90 % of the copy on one
thread), what the memory allows each path (the traffic model's ceilings), and the worst
patterns by name.

Usage: bench/tail_report.py TAIL_JSON... [--markdown docs/performance.md]
Several TAIL_JSON are rounds of the same sweep: each pattern reads as the median of its rounds
(its % of the copy and its time), so that one round on a busy machine does not move the
figures (on the 2-core CI box one pattern read 41 % in one round and 66-79 % in three more).
Without --markdown the section is printed; with it, it replaces (or is appended as) the
section between the tail markers of that file. bench/run.sh runs it after bench/report.py,
and `bench/run.sh --tail` runs only the tail's sweep and this section.
"""
import argparse
import datetime
import os
import statistics

import sweep_report
from markdown_section import cpu_name, replace_section

TARGET_MIN, TARGET_P10, TARGET_MEDIAN = 50.0, 75.0, 90.0
BEGIN, END = "<!-- tail: written by bench/tail_report.py -->", "<!-- /tail -->"


def meets(mn, p10, med):
    return mn >= TARGET_MIN and p10 >= TARGET_P10 and med >= TARGET_MEDIAN


def verdict(report, figures):
    """Met or missed by the report's figures (min, 10th percentile, median of % of the copy), and
    where missed, whether the patterns' own ceilings (the traffic model's, % of the copy) already
    miss the target: then no loop can meet it on that device."""
    if meets(*figures):
        return "**met**"
    modelled = [c for c in sweep_report.ran(report) if c.get("model_gbps")]
    if modelled:
        ceilings = sweep_report.distribution(modelled, lambda c: c["ceiling_pct"])
        if not meets(*ceilings):
            return f"**missed**; the ceilings themselves read {sweep_report.spread(ceilings)}"
    return "**missed**"


# What each pattern reads as: the median of its rounds (gbps and model_gbps give its % of the ceiling).
MERGED = ("pct_of_copy", "median_ms", "gbps", "model_gbps", "ceiling_pct")


def merge_rounds(rounds):
    """One report per path: each pattern's median over the rounds of each figure in MERGED, and
    the path's rates (writing alone, reading alone, the copy) as the median of its rounds."""
    merged = []
    for reports in zip(*rounds):
        first = dict(reports[0])
        by_name = {}
        for r in reports:
            for c in sweep_report.ran(r):
                by_name.setdefault(c["name"], []).append(c)
        cases = []
        for c in sweep_report.ran(first):
            seen = by_name[c["name"]]
            cases.append(dict(c, **{key: statistics.median(x.get(key, 0) for x in seen) for key in MERGED}))
        first["cases"] = cases
        for rate in ("write_gbps", "read_gbps", "copy_gbps"):
            first[rate] = statistics.median(r.get(rate, 0) for r in reports)
        merged.append(first)
    return merged


def section(reports, rounds):
    info = reports[0].get("sweep", {})
    command = (f"clsel bench --device all --threads 1 --sweep {info.get('patterns', '?')} --draw short "
               f"--seed {info.get('seed', '?')}")
    lines = [BEGIN, "## The short-row tail", "",
             f"Written by `bench/tail_report.py` on {datetime.date.today()} ({cpu_name()}, {os.cpu_count()} cores) "
             f"from `{command}`, {rounds} round{'s' if rounds != 1 else ''}, each pattern the median of its "
             "rounds (bench/run.sh; `bench/run.sh --tail` reruns only this section): the sweep's "
             "short draw, where the CPU path gathers short periodic runs (an element repeated over a short dim, a "
             "short row tiled, both interleaved) instead of streaming rows, outputs of 64-128 MiB. % of the copy "
             "on the same device, capped at 100 %, as in the sweep above.", "",
             "| path | patterns | min | 10th percentile | median | below 75 % | target (min >= 50 %, "
             "10th >= 75 %, median >= 90 %) |",
             "|---|---:|---:|---:|---:|---:|---|"]
    for r in reports:
        cases = sweep_report.ran(r)
        if not cases:
            continue
        mn, p10, med = sweep_report.distribution(cases, lambda c: c["pct_of_copy"])
        one_thread = r["device_kind"] == "opencl" or r.get("threads", 1) == 1
        target = verdict(r, (mn, p10, med)) if one_thread else "(reported)"
        lines.append(f"| {sweep_report.path_name(r)} | {len(cases)} | {mn:.0f} % | {p10:.0f} % | {med:.0f} % | "
                     f"{sum(c['pct_of_copy'] < 75 for c in cases)} | {target} |")
    lines += sweep_report.ceiling_table(reports)
    for r in reports:
        lines += sweep_report.worst_table(r, "Worst tail patterns")
    lines += ["", END]
    return "\n".join(lines)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("tail", nargs="+",
                        help="clsel bench --sweep N --draw short --json output, one per round")
    parser.add_argument("--markdown", help="a Markdown file whose tail section this replaces")
    options = parser.parse_args()
    rounds = []
    for path in options.tail:
        reports = sweep_report.load(path)
        rounds.append(reports if isinstance(reports, list) else [reports])
    text = section(merge_rounds(rounds), len(rounds))
    if options.markdown:
        replace_section(options.markdown, BEGIN, END, text)
    else:
        print(text)


if __name__ == "__main__":
    main()
