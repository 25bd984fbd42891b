#!/usr/bin/env python3
"""Two or more builds of the library side by side on the same `clsel bench` run, in rounds that
alternate the builds' order (ABBA...), so that a machine whose bandwidth drifts between runs hits
each build alike. On the 2-core CI box an untouched pattern's time moves 1.3-1.8x between rounds
(docs/performance_analysis.md), more than most changes: one build against another is read as the
median over rounds of each pattern's time ratio, never as two runs' figures.

  bench/compare_builds.py --lib base=DIR --lib new=DIR [--rounds N] [--tool CLSEL] [--keep DIR]
      -- BENCH_ARGS...

Each --lib is NAME=DIR, DIR the folder of a build's libclsel.so.0.1 (a build tree's lib/); the
first is the base. One `clsel` binary (--tool, default build/bin/clsel) runs every round, with
LD_LIBRARY_PATH naming the build; it must load the library from there (checked with ldd, as a
binary that links it statically or by an absolute path would time one build under every name).
BENCH_ARGS are those of `clsel bench` without --json, e.g.

  -- --sweep 60 --draw short --seed 1 --device cpu --threads 1

Printed: per path and pattern, each build's % of the copy (the median of its rounds, capped at
100 as the reports cap it) and each later build's time against the base (the median of the
rounds' ratios, and their range); per path and build, the geometric mean of those ratios and the
distribution of the patterns' % of the copy (min / 10th percentile / median, as bench/sweep_report.py
computes it) with the count below 75 %. --keep DIR keeps each round's JSON there.
"""
import argparse
import collections
import json
import os
import statistics
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import sweep_report  # noqa: E402

LIBRARY = "libclsel.so.0.1"


def parse_args(argv):
    if "--" not in argv:
        sys.exit("compare_builds.py: the bench's arguments follow `--`")
    split = argv.index("--")
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--lib", action="append", required=True, help="NAME=DIR, the first the base")
    parser.add_argument("--rounds", type=int, default=4)
    parser.add_argument("--tool", default="build/bin/clsel")
    parser.add_argument("--keep", help="a folder for each round's JSON")
    args = parser.parse_args(argv[:split])
    args.bench = argv[split + 1:]
    if "--json" in args.bench:
        sys.exit("compare_builds.py: leave --json out of the bench's arguments (the script sets it)")
    builds = []
    for spec in args.lib:
        name, sep, folder = spec.partition("=")
        if not sep or not name or not folder:
            sys.exit(f"compare_builds.py: --lib {spec!r} is not NAME=DIR")
        builds.append((name, os.path.abspath(folder)))
    if len(builds) < 2 or len({name for name, _ in builds}) != len(builds):
        sys.exit("compare_builds.py: give two or more --lib, each with a name of its own")
    if args.rounds < 1:
        sys.exit(f"compare_builds.py: --rounds {args.rounds} is not a count of rounds")
    args.builds = builds
    return args


def environment(folder):
    return dict(os.environ, LD_LIBRARY_PATH=folder)


def check_loads(tool, name, folder):
    """Exits unless `tool` under LD_LIBRARY_PATH=folder loads the library from folder."""
    if not os.path.isfile(os.path.join(folder, LIBRARY)):
        sys.exit(f"compare_builds.py: {name}: no {LIBRARY} in {folder}")
    listing = subprocess.run(["ldd", tool], env=environment(folder), capture_output=True, text=True)
    for line in listing.stdout.splitlines():
        if line.strip().startswith(LIBRARY):
            loaded = line.split("=>")[-1].split("(")[0].strip()
            if os.path.dirname(os.path.realpath(loaded)) == os.path.realpath(folder):
                return
            sys.exit(f"compare_builds.py: {name}: {tool} loads {loaded}, not the one in {folder}")
    sys.exit(f"compare_builds.py: {tool} does not load {LIBRARY} dynamically (ldd: "
             f"{listing.stdout.strip() or listing.stderr.strip()})")


def run_round(args, name, folder, path):
    command = [args.tool, "bench", *args.bench, "--json", path]
    done = subprocess.run(command, env=environment(folder), capture_output=True, text=True)
    if done.returncode != 0:
        sys.exit(f"compare_builds.py: {name}: {' '.join(command)} failed ({done.returncode}):\n"
                 f"{done.stderr.strip()}")
    with open(path) as f:
        data = json.load(f)
    return data if isinstance(data, list) else [data]


def measure(args, folder_for_json):
    """{(path, pattern): {build: [ms per round]}}, {(path, pattern): {build: [% per round]}}."""
    times = collections.defaultdict(lambda: collections.defaultdict(list))
    pct = collections.defaultdict(lambda: collections.defaultdict(list))
    for r in range(args.rounds):
        order = args.builds if r % 2 == 0 else args.builds[::-1]
        for name, folder in order:
            reports = run_round(args, name, folder, os.path.join(folder_for_json, f"r{r}_{name}.json"))
            for report in reports:
                path = sweep_report.path_name(report)
                for case in sweep_report.ran(report):
                    times[(path, case["name"])][name].append(case["median_ms"])
                    pct[(path, case["name"])][name].append(sweep_report.capped(case["pct_of_copy"]))
    return times, pct


def report(args, times, pct):
    names = [name for name, _ in args.builds]
    base, later = names[0], names[1:]
    ratios = collections.defaultdict(list)  # (path, build): each pattern's median ratio
    width = max(len(pattern) for _, pattern in times)
    header = f"{'pattern':{width}}  " + "  ".join(f"{n + ' %':>9}" for n in names)
    header += "".join(f"  {n + ' / ' + base + ' time':>24}" for n in later)
    for path in sorted({p for p, _ in times}):
        print(f"\n{path}, {args.rounds} round{'s' if args.rounds != 1 else ''}")
        print(header)
        for key in sorted(k for k in times if k[0] == path):
            if any(len(times[key][n]) != args.rounds for n in names):
                continue  # a pattern that did not run in every round of every build
            cells = [f"{statistics.median(pct[key][n]):9.1f}" for n in names]
            for n in later:
                each = [t / b for t, b in zip(times[key][n], times[key][base])]
                ratios[(path, n)].append(statistics.median(each))
                cells.append(f"{statistics.median(each):10.3f} ({min(each):.2f}-{max(each):.2f})")
            print(f"{key[1]:{width}}  " + "  ".join(cells))
        for n in later:
            values = ratios[(path, n)]
            if values:
                print(f"geometric mean of {n} / {base} time: {statistics.geometric_mean(values):.3f} "
                      f"over {len(values)} patterns")
        for n in names:
            medians = [statistics.median(pct[k][n]) for k in times if k[0] == path and pct[k][n]]
            if medians:
                below = sum(m < 75 for m in medians)
                print(f"{n}: % of the copy min {min(medians):.0f} / 10th percentile "
                      f"{sweep_report.percentile(medians, 0.1):.0f} / median {statistics.median(medians):.0f}, "
                      f"{below} of {len(medians)} below 75 %")


def main(argv):
    args = parse_args(argv)
    for name, folder in args.builds:
        check_loads(args.tool, name, folder)
    if args.keep:
        os.makedirs(args.keep, exist_ok=True)
        times, pct = measure(args, args.keep)
    else:
        with tempfile.TemporaryDirectory() as folder:
            times, pct = measure(args, folder)
    if not times:
        sys.exit("compare_builds.py: the bench ran no case")
    report(args, times, pct)


if __name__ == "__main__":
    main(sys.argv[1:])
