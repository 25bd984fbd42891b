"""Keeps the benchmark pipeline working (CI runs it): `clsel bench --quick` on both
devices with the size thresholds, its JSON checked field by field, then
bench/peers.py on a few of its cases, a quick sweep, bench/first_call.sh (one run per
kernel-cache state), bench/report.py on the lot and bench/tail_report.py on the sweep, and
bench/compare_builds.py (this build under two names), into a scratch folder. The figures
themselves are not judged here (timings on a shared machine are no test); that they are present,
consistent and computed is.

    python bench_check.py PATH/TO/clsel SCRATCH_DIR
Exits 77 (skipped) when numpy is not installed.
"""
import json
import math
import os
import subprocess
import sys

try:
    import numpy  # noqa: F401  (peers.py needs it)
except ImportError:
    print("skipped: numpy is not installed")
    sys.exit(77)

ROOT = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".."))
CASE_FIELDS = {"name": str, "dtype": str, "elements": int, "bytes": int, "median_ms": float, "min_ms": float,
               "gbps": float, "pct_of_copy": float, "first_call_ms": float}
failures = []


def check(ok, message):
    if not ok:
        failures.append(message)
        print("FAIL:", message)


def check_report(report, sweep=False):
    kind = report.get("device_kind")
    check(kind in ("opencl", "cpu"), f"device_kind is {kind!r}")
    check(isinstance(report.get("device"), str) and report["device"], "device name missing")
    check(isinstance(report.get("copy_gbps"), float) and report["copy_gbps"] > 0, f"{kind}: copy_gbps missing")
    cases = report.get("cases", [])
    check(len(cases) >= (6 if sweep else 20), f"{kind}: only {len(cases)} cases")
    for case in cases:
        for field, kind_of in CASE_FIELDS.items():
            value = case.get(field)
            check(isinstance(value, kind_of) or (kind_of is float and isinstance(value, int)),
                  f"{kind} {case.get('name')}: {field} is {value!r}")
        if case["median_ms"] > 0:
            check(case["min_ms"] <= case["median_ms"], f"{kind} {case['name']}: min above median")
            check(math.isclose(case["gbps"], case["bytes"] / (case["median_ms"] * 1e6), rel_tol=1e-3, abs_tol=1e-4),
                  f"{kind} {case['name']}: gbps is not bytes / median")
        check(len(case.get("shapes", [])) == 3, f"{kind} {case['name']}: shapes missing")
    if kind == "opencl":
        check(0 < report.get("enqueue_us", 0) < 1e6, "enqueue_us missing")
        check(report.get("build_first_ms", 0) > 0, "build_first_ms missing")
        for case in cases:  # timed by the device's clock too (event profiling), the copy likewise
            check(case.get("event_median_ms", 0) > 0 and case.get("event_pct_of_copy", 0) > 0,
                  f"opencl {case.get('name')}: event timing missing")
    return kind


def check_compare_builds(tool, scratch):
    """bench/compare_builds.py with this build under two names, on two quick named cases: a row
    and a time ratio per case, the geometric mean and each build's distribution; and a folder
    without the library refused before anything runs."""
    lib = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(tool))), "lib")
    script = os.path.join(ROOT, "bench", "compare_builds.py")
    done = subprocess.run([sys.executable, script, "--lib", f"base={lib}", "--lib", f"same={lib}", "--rounds", "2",
                           "--tool", tool, "--keep", os.path.join(scratch, "compare"), "--", "--quick", "--device",
                           "cpu", "--repeat", "3", "--case", "same_f32", "--case", "mutual"],
                          capture_output=True, text=True)
    out = done.stdout
    check(done.returncode == 0, f"compare_builds.py failed: {done.stderr}")
    for case in ("same_f32", "mutual"):
        row = [line for line in out.splitlines() if line.startswith(case + " ")]
        check(len(row) == 1 and "(" in row[0] and float(row[0].split()[3]) > 0, f"compare_builds.py: no ratio for {case}")
    check("geometric mean of same / base time" in out, "compare_builds.py printed no geometric mean")
    check(out.count("10th percentile") == 2, "compare_builds.py printed no distribution per build")
    check(len(os.listdir(os.path.join(scratch, "compare"))) == 4, "compare_builds.py kept no JSON per round and build")
    refused = subprocess.run([sys.executable, script, "--lib", f"base={lib}", "--lib", f"none={scratch}", "--tool", tool,
                              "--", "--quick"], capture_output=True, text=True)
    check(refused.returncode != 0 and "no libclsel.so.0.1" in refused.stderr,
          f"compare_builds.py ran with a folder that has no library: {refused.stderr}")


def main():
    tool, scratch = sys.argv[1], sys.argv[2]
    os.makedirs(scratch, exist_ok=True)
    clsel_json = os.path.join(scratch, "clsel.json")
    subprocess.run([tool, "bench", "--device", "all", "--quick", "--repeat", "3", "--threads", "2", "--thresholds",
                    "--json", clsel_json], check=True, stdout=subprocess.DEVNULL)
    with open(clsel_json) as f:
        reports = json.load(f)
    check(isinstance(reports, list), "--device all must write a list")
    kinds = [check_report(r) for r in reports]
    require_opencl = os.environ.get("CLSEL_REQUIRE_OPENCL") == "1"
    check("cpu" in kinds and ("opencl" in kinds or not require_opencl), f"reports for {kinds}")
    cpu = next(r for r in reports if r["device_kind"] == "cpu")
    rows = cpu.get("thresholds", {}).get("rows", [])
    check(len(rows) >= 8 and all(r["cpu_ms"] > 0 for r in rows), "thresholds rows missing")

    peers_json = os.path.join(scratch, "peers.json")
    subprocess.run([sys.executable, os.path.join(ROOT, "bench", "peers.py"), "--cases", clsel_json,
                    "--case", "same_f32", "--case", "both_scalar", "--case", "pdpd_axis1", "--case", "rank8",
                    "--repeat", "2", "--json", peers_json], check=True)
    with open(peers_json) as f:
        peers = json.load(f)
    for name, entry in peers["peers"].items():
        ran = [c for c in entry["cases"] if "median_ms" in c]
        check(len(ran) == 4, f"{name} ran {len(ran)} of 4 cases: {entry['cases']}")

    # The sweep at quick sizes on every path, numpy.where on its patterns.
    sweep_json = os.path.join(scratch, "sweep.json")
    subprocess.run([tool, "bench", "--sweep", "6", "--seed", "3", "--quick", "--repeat", "2", "--json", sweep_json],
                   check=True, stdout=subprocess.DEVNULL)
    with open(sweep_json) as f:
        sweep = json.load(f)
    check(isinstance(sweep, list) and len(sweep) >= 2, "the sweep must write one report per path")
    for report in sweep:
        check_report(report, sweep=True)
        stats = report.get("sweep", {})
        check(stats.get("patterns") == 6 and stats.get("seed") == 3, f"sweep figures: {stats}")
        check(0 <= stats.get("min", -1) <= stats.get("p10", -1) <= stats.get("median", -1) <= 100,
              f"sweep distribution out of order: {stats}")
        if report.get("device_kind") == "opencl":
            check(0 < stats.get("event_min", -1) <= stats.get("event_p10", -1) <= stats.get("event_median", -1) <= 100,
                  f"sweep event distribution out of order: {stats}")
    names = [[c["name"] for c in r["cases"]] for r in sweep]
    check(all(n == names[0] for n in names), "the paths timed different patterns")
    sweep_peers = os.path.join(scratch, "sweep_peers.json")
    subprocess.run([sys.executable, os.path.join(ROOT, "bench", "peers.py"), "--cases", sweep_json, "--peer", "numpy",
                    "--repeat", "2", "--json", sweep_peers], check=True)

    # The first select of a process, one run per kernel-cache state, where there is OpenCL.
    first_call = []
    if "opencl" in kinds:
        first_call_json = os.path.join(scratch, "first_call.json")
        subprocess.run([os.path.join(ROOT, "bench", "first_call.sh"), "1", first_call_json], check=True,
                       env=dict(os.environ, CLSEL_TOOL=tool))
        with open(first_call_json) as f:
            runs = json.load(f)
        check(len(runs) == 4 and all(r["run"]["first_run_ms"] > 0 and r["run"]["platform_ms"] > 0 for r in runs),
              f"first-call figures: {runs}")
        first_call = ["--first-call", first_call_json]
    rows = cpu.get("thresholds", {}).get("rows", [])
    check(all(r.get("auto_ms", 0) > 0 for r in rows), "thresholds: AUTO column missing")

    markdown, chart = os.path.join(scratch, "performance.md"), os.path.join(scratch, "performance.png")
    sweep_chart = os.path.join(scratch, "performance_sweep.png")
    subprocess.run([sys.executable, os.path.join(ROOT, "bench", "report.py"), "--clsel", clsel_json,
                    "--clsel-threads", clsel_json, "--peers", peers_json, "--markdown", markdown, "--chart", chart,
                    "--sweep", sweep_json, "--sweep-peers", sweep_peers, "--sweep-chart", sweep_chart] + first_call,
                   check=True)
    text = open(markdown).read()
    for heading in ("## Targets", "## The sweep", "## The named cases", "### Thresholds", "### Peers"):
        check(heading in text, f"the report has no '{heading}'")
    check("numpy.where" in text.split("## The sweep")[1], "the sweep section does not compare with numpy.where")
    check(not first_call or "## First select after process start" in text, "the report has no first-call section")
    check("ceilings below 75 %" in text.split("## The sweep")[1], "the sweep section has no ceilings")
    # The tail's section from the same sweep, as two rounds (bench/run.sh gives it the short draw).
    subprocess.run([sys.executable, os.path.join(ROOT, "bench", "tail_report.py"), sweep_json, sweep_json,
                    "--markdown", markdown], check=True)
    tail = open(markdown).read().split("## The short-row tail")
    check(len(tail) == 2, "the report has no tail section")
    for table in ("ceilings below 75 %", "Worst tail patterns, CPU path, 1 thread"):
        check(len(tail) == 2 and table in tail[1], f"the tail section has no '{table}'")
    check_compare_builds(tool, scratch)
    check(os.path.getsize(chart) > 10000, "the chart is missing or empty")
    check(os.path.getsize(sweep_chart) > 10000, "the sweep chart is missing or empty")
    print(f"bench_check: {len(failures)} failures")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
