#!/usr/bin/env python3
"""Two runs of bench/gpu_model.sh side by side (their --json files, the same pattern set):
per pattern class, the median and worst LLVM IR executed per output byte and the fewest
bytes per global access, then the whole set's median, worst and how many patterns meet the
targets (docs/gpu_model.md). Markdown on stdout.

    python bench/gpu_model_compare.py BEFORE.json AFTER.json [--per-pattern]
"""
import argparse
import json
import statistics

IR_PER_BYTE_MOST = 8.0       # every pattern at or under this (issue 33's target)
BYTES_PER_ACCESS_LEAST = 6.0  # and at least this many bytes per global load or store


def load(path):
    with open(path) as f:
        run = json.load(f)
    return {p["name"]: p for p in run["patterns"] if not p.get("error")}


def figures(patterns):
    ir = [p["ir_per_byte"] for p in patterns]
    access = [p["bytes_per_access"] for p in patterns]
    return statistics.median(ir), max(ir), min(access)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("before")
    parser.add_argument("after")
    parser.add_argument("--per-pattern", action="store_true", help="a row per pattern as well")
    options = parser.parse_args()
    before, after = load(options.before), load(options.after)
    names = [n for n in after if n in before]
    classes = sorted({after[n]["class"] for n in names})
    print("| class | patterns | IR/B median, before -> after | IR/B worst | fewest B/access |")
    print("|---|---:|---|---|---|")
    for cls in classes + ["all"]:
        chosen = [n for n in names if cls == "all" or after[n]["class"] == cls]
        b, a = figures([before[n] for n in chosen]), figures([after[n] for n in chosen])
        print(f"| {cls} | {len(chosen)} | {b[0]:.2f} -> {a[0]:.2f} | {b[1]:.1f} -> {a[1]:.1f} | {b[2]:.1f} -> {a[2]:.1f} |")
    for label, run in (("before", before), ("after", after)):
        chosen = [run[n] for n in names]
        within = sum(p["ir_per_byte"] <= IR_PER_BYTE_MOST for p in chosen)
        wide = sum(p["bytes_per_access"] >= BYTES_PER_ACCESS_LEAST for p in chosen)
        print(f"\n{label}: {within} of {len(chosen)} patterns at <= {IR_PER_BYTE_MOST:g} IR per output byte, "
              f"{wide} at >= {BYTES_PER_ACCESS_LEAST:g} bytes per access", end="")
    print()
    if options.per_pattern:
        print("\n| pattern | dtype | what | IR/B before -> after | B/access before -> after |")
        print("|---|---|---|---|---|")
        for n in names:
            b, a = before[n], after[n]
            print(f"| {n} | {a['dtype']} | {a['what']} | {b['ir_per_byte']:.2f} -> {a['ir_per_byte']:.2f} "
                  f"| {b['bytes_per_access']:.1f} -> {a['bytes_per_access']:.1f} |")


if __name__ == "__main__":
    main()
