"""Turns the last conformance run (build/conformance/results.json) into
docs/conformance.md: a table of peer x mode x dtype with the cases run, the identical
results, the shapes both rejected, and the documented divergences, then every
divergence with its smallest reproducing case.

    build/venv/bin/python tests/conformance/report.py [--results FILE] [--forced-results FILE] [--out FILE]
"""
import argparse
import collections
import json
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.normpath(os.path.join(HERE, "..", ".."))
sys.path.insert(0, HERE)

from divergences import DIVERGENCES  # noqa: E402

PEERS = {"numpy": "numpy.where", "onnxruntime": "ONNX Runtime Where (CPU EP)", "openvino": "OpenVINO Select (CPU)"}
MODE_ORDER = {"numpy": 0, "none": 1, "pdpd": 2}
DTYPE_ORDER = ["boolean", "u8", "i8", "u16", "i16", "f16", "bf16", "u32", "i32", "f32", "u64", "i64", "f64"]


def table(records):
    groups = collections.defaultdict(collections.Counter)
    for r in records:
        key = (r["peer"], r["mode"], r["dtype"])
        groups[key]["cases"] += 1
        outcome = r["outcome"]
        if outcome.startswith("divergence:"):
            for name in outcome.removeprefix("divergence:").split("+"):
                groups[key]["div:" + name] += 1
        else:
            groups[key][outcome] += 1
    lines = ["| peer | mode | dtype | cases | identical | rejected by both | documented divergences |",
             "|---|---|---|---:|---:|---:|---|"]
    for (peer, mode, dtype) in sorted(groups, key=lambda k: (k[0], MODE_ORDER[k[1]], DTYPE_ORDER.index(k[2]))):
        g = groups[(peer, mode, dtype)]
        divergences = ", ".join(f"`{k[4:]}` {v}" for k, v in sorted(g.items()) if k.startswith("div:")) or "-"
        lines.append(f"| {peer} | {mode} | {dtype} | {g['cases']} | {g['identical']} | {g['rejected by both']} | "
                     f"{divergences} |")
    return lines


def summary(records):
    lines = ["| peer | cases | identical | rejected by both | documented divergence | unexplained |",
             "|---|---:|---:|---:|---:|---:|"]
    for peer in PEERS:
        mine = [r for r in records if r["peer"] == peer]
        if not mine:
            continue
        count = collections.Counter("divergence" if r["outcome"].startswith("divergence:") else r["outcome"]
                                    for r in mine)
        lines.append(f"| {PEERS[peer]} | {len(mine)} | {count['identical']} | {count['rejected by both']} | "
                     f"{count['divergence']} | {count['mismatch']} |")
    return lines


def host_lines(host):
    """Which CPU the run was on and what OpenVINO did to float16 and bfloat16 there."""
    if not host:
        return []
    flags = ", ".join(host.get("flags", [])) or "none of those listed in host.py"
    lines = ["## The host", "",
             f"CPU: {host.get('cpu', 'unknown')} (flags that matter here: {flags}).",
             ]
    if host.get("forced"):
        lines.append(f"**Forced** with `CLSEL_CONFORMANCE_HOST={host['forced']}`: OpenVINO's outputs passed through "
                     "host.py's emulation of that CPU.")
    floats = host.get("openvino_floats")
    if floats:
        caps = ", ".join(host.get("openvino_capabilities", []))
        lines.append(f"OpenVINO's CPU plugin lists the capabilities {caps}. What it did to floats on this CPU, "
                     "from the probe (`tests/conformance/host.py`), which sets what the suite expects:")
        lines += ["", "| dtype | behaviour seen | documented for such a CPU |", "|---|---|---|"]
        for dtype, seen in floats.items():
            documented = seen.get("documented") or "not documented"
            lines.append(f"| {dtype} | {seen['behaviour']} | {documented} |")
    lines += ["", "The divergences `ov-f16-quiets-snan` and `ov-bf16-native-conversion` below say which CPUs convert "
              "which values; the tables count what this run's CPU did.", ""]
    return lines


def forced_lines(forced):
    """OpenVINO's float rows from a run with the other kind of CPU forced (host.py)."""
    if not forced:
        return []
    host = forced.get("host", {})
    rows = [r for r in forced["records"] if r["peer"] == "openvino" and r["dtype"] in ("f16", "bf16")]
    return ["## OpenVINO on a CPU with native bfloat16 conversion (forced)", "",
            f"The same OpenVINO cases run again with `CLSEL_CONFORMANCE_HOST={host.get('forced')}` (ctest "
            "`conformance_avx512_bf16`): OpenVINO reports `BF16` and its bfloat16 outputs pass through host.py's "
            "emulation of VCVTNEPS2BF16, which is what a CPU with AVX-512 BF16 does to them. This is how the branch "
            "for such CPUs is checked on a CPU without the feature; on a CPU with it, the main tables above show "
            "the real thing.", "", *table(rows), ""]


def render(results, forced=None):
    records = results["records"]
    versions = results["versions"]
    one_way_rejects = sum(1 for r in records if r.get("one_way") == "rejects")
    numpy_mode = sum(1 for r in records if r.get("one_way") is not None)
    out = [
        "# Conformance: clsel against OpenVINO, ONNX Runtime and numpy",
        "",
        "Generated by `tests/conformance/report.py` from the last run of the conformance suite",
        "(`tests/conformance/`, pytest). Do not edit by hand. To reproduce:",
        "",
        "```sh",
        "ci/setup.sh && cmake -S . -B build && cmake --build build -j",
        "(cd build && ctest -R conformance)",
        "build/venv/bin/python tests/conformance/report.py --results build/conformance/results.json \\",
        "    --forced-results build/conformance-avx512-bf16/results.json",
        "```",
        "",
        "Versions: " + ", ".join(f"{k} {v}" for k, v in sorted(versions.items())) + ".",
        f"clsel ran on its CPU path and on `{results['device']}` for every case; the two agreed bit for bit.",
        f"Random cases: {results['cases_per_peer']} per peer per run (seeded; `CLSEL_CONFORMANCE_CASES`,",
        "`CLSEL_CONFORMANCE_SEED`), ranks 0 to 6, every broadcast pattern, random bits with NaN payloads,",
        "signalling NaNs, -0.0, infinities and denormals, cond bytes 0x00/0x01/0x02/0x7F/0x80/0xFF where",
        "the peer takes them, shapes broken on purpose so that errors are compared too; plus docs/semantics.md's",
        "own examples.",
        "",
        "How to read it: *identical* means the peer's output equals clsel's bit for bit; *rejected by",
        "both* means both refused the shapes; a *documented divergence* means the peer's output (or",
        "refusal) differs from clsel's exactly as described below, which the suite asserts. Anything",
        "else fails the run.",
        "",
        "numpy.where, ONNX Runtime and OpenVINO broadcast cond two ways in numpy mode, so numpy-mode",
        "cases are compared with clsel's `cond_broadcast = bidirectional`; every case that is also valid",
        "under Select-1's one-way rule (clsel's default) gave the identical result with the default.",
        f"Of {numpy_mode} numpy-mode cases, {one_way_rejects} had a cond that enlarges the output: the peers",
        "accept those, clsel's default rejects them on purpose (docs/semantics.md, numpy mode).",
        "",
        *host_lines(results.get("host")),
        "## Summary",
        "",
        *summary(records),
        "",
        "## By peer, mode and dtype",
        "",
        "numpy.where has no pdpd mode: for pdpd, cond and else are reshaped to their place in then",
        "(docs/semantics.md, pdpd mode) before numpy.where. ONNX Where has no modes: `none` means equal shapes there.",
        "ONNX Runtime's CPU Where has no kernels for bool, u16, i16, bf16 and u64 data, so those are",
        "not run. OpenVINO's pdpd cases use explicit axes and axis -1 with rank(cond) == rank(else)",
        "(see `ov-pdpd-cond-axis` for the other case).",
        "",
        *table(records),
        "",
        *forced_lines(forced),
        "## Documented divergences",
        "",
        "Each is the peer's, not clsel's: clsel follows docs/semantics.md. Each has a test of its smallest case",
        "(`tests/conformance/test_divergences.py`).",
        "",
    ]
    for d in DIVERGENCES.values():
        out += [f"### `{d.id}` ({PEERS.get(d.peer, d.peer)})", "", d.summary, "",
                f"- Smallest case: {d.repro}", f"- Why: {d.whose}", ""]
    return "\n".join(out)


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--results", default=os.path.join(ROOT, "build", "conformance", "results.json"))
    parser.add_argument("--forced-results", help="results.json of a run with CLSEL_CONFORMANCE_HOST set")
    parser.add_argument("--out", default=os.path.join(ROOT, "docs", "conformance.md"))
    args = parser.parse_args()
    with open(args.results) as f:
        results = json.load(f)
    forced = None
    if args.forced_results:
        with open(args.forced_results) as f:
            forced = json.load(f)
    for run in (results, forced or {"records": []}):
        if any(r["outcome"] == "mismatch" for r in run["records"]):
            print("report.py: the run has unexplained differences; not writing a report", file=sys.stderr)
            return 1
    os.makedirs(os.path.dirname(os.path.abspath(args.out)), exist_ok=True)
    with open(args.out, "w") as f:
        f.write(render(results, forced))
    print(f"report.py: {len(results['records'])} outcomes -> {args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
