#!/usr/bin/env python3
"""Kernel variants against a control timed in the same loop (ci/gpu.sh --bench --variant).

    python bench/gpu_variants.py VARIANTS_DIR [--after AFTER_DIR] [--markdown FILE]

VARIANTS_DIR holds one folder per variant and one named `control` (the tree's own kernels,
timed after the variants), each with `clsel bench --json` files (named.json, sweep.json).
Prints, and writes to FILE, each variant's time per pattern as a ratio to the control's
(event-timed medians) and, per variant and group (named cases, sweep), the geometric mean,
the range and how many patterns moved by 5 % or more. With --after (the run's own figures of
the tree, taken before the variants), the control's agreement with them: the noise between
two loops of the same kernels, against which a variant's ratios are read.
"""
import argparse
import pathlib
import sys

import gpu_bench

MOVED = 0.05  # a ratio this far from 1 counts as a pattern that moved


def cases_in(folder):
    """name -> (group, case) over the clsel bench JSON files in folder (gpu_bench.load)."""
    return gpu_bench.load(sorted(pathlib.Path(folder).glob("*.json")))


def times(cases):
    """name -> event-timed median of cases_in's cases."""
    return {name: case["event_median_ms"] for name, (_, case) in cases.items() if case.get("event_median_ms")}


def summary(ratios):
    """Geometric mean, range and the patterns moved, of a list of ratios."""
    if not ratios:
        return "-"
    mean = gpu_bench.geomean(ratios)
    faster = sum(r <= 1 - MOVED for r in ratios)
    slower = sum(r >= 1 + MOVED for r in ratios)
    return (f"{mean:.3f} ({min(ratios):.2f}-{max(ratios):.2f}; "
            f"{faster} faster, {slower} slower of {len(ratios)})")


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("folder", help="the variants' folders and control/")
    parser.add_argument("--after", help="the run's own after/ folder, timed before the variants")
    parser.add_argument("--markdown", help="where to write the tables")
    args = parser.parse_args()
    root = pathlib.Path(args.folder)
    control_cases = cases_in(root / "control")
    control = times(control_cases)
    if not control:
        print(f"gpu_variants: no control figures in {root / 'control'}", file=sys.stderr)
        return 1
    names = sorted(d.name for d in root.iterdir() if d.is_dir() and d.name != "control")
    runs = {name: times(cases_in(root / name)) for name in names}
    group_of = {name: group for name, (group, _) in control_cases.items()}
    cases = list(control)
    lines = ["Each variant's event-timed median as a ratio to the control's (the tree's own kernels, "
             "timed in the same loop after the variants): below 1 is faster. A summary is the "
             f"geometric mean, the range and the patterns that moved by {MOVED:.0%} or more.", ""]
    if args.after:
        after = times(cases_in(args.after))
        noise = [control[c] / after[c] for c in cases if c in after]
        lines += [f"Noise: the control against the run's own figures of the same kernels, "
                  f"{summary(noise)}.", ""]
    lines += ["| variant | named cases | sweep |", "|---|---|---|"]
    for name in names:
        cells = []
        for group in ("named", "sweep"):
            ratios = [runs[name][c] / control[c] for c in cases if group_of[c] == group and c in runs[name]]
            cells.append(summary(ratios))
        lines.append(f"| {name} | {cells[0]} | {cells[1]} |")
    lines += ["", "| case | control ms | " + " | ".join(names) + " |",
              "|---|---:|" + "---:|" * len(names)]
    for case in cases:
        cells = [f"{runs[n][case] / control[case]:.2f}" if case in runs[n] else "-" for n in names]
        lines.append(f"| {case} | {control[case]:.4f} | " + " | ".join(cells) + " |")
    text = "\n".join(lines) + "\n"
    print(text, end="")
    if args.markdown:
        pathlib.Path(args.markdown).write_text(text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
