"""pytest setup for the conformance suite: the clsel binding on the path, the comparison
of one case between clsel and a peer, and the record of every outcome that
report.py turns into docs/conformance.md."""
import json
import os
import platform
import sys

import numpy as np
import pytest

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.normpath(os.path.join(HERE, "..", ".."))
sys.path.insert(0, os.path.join(ROOT, "python"))
sys.path.insert(0, HERE)

import clsel  # noqa: E402
import host  # noqa: E402
from cases import CLSEL_NAMES, bits_view, make_data  # noqa: E402
from divergences import DIVERGENCES  # noqa: E402
from peers import PeerRejected  # noqa: E402

RESULTS = os.environ.get("CLSEL_CONFORMANCE_OUT", os.path.join(ROOT, "build", "conformance", "results.json"))
CASES_PER_PEER = int(os.environ.get("CLSEL_CONFORMANCE_CASES", "1200"))

_records = []
_versions = {}


def _device_request():
    """What clsel's CPU path is compared with in every case: the OpenCL device where there
    is one (asked for by name, so that small runs go there too and AUTO's preference for
    the CPU path over a CPU device does not skip it); AUTO where there is none, unless
    CLSEL_REQUIRE_OPENCL=1."""
    try:
        clsel.runtime_device("opencl")
        return "opencl"
    except clsel.ClselError:
        if os.environ.get("CLSEL_REQUIRE_OPENCL") == "1":
            raise
        return "auto"


DEVICE = _device_request()


def pytest_sessionfinish(session, exitstatus):
    if not _records:
        return
    os.makedirs(os.path.dirname(RESULTS), exist_ok=True)
    payload = {
        "versions": dict(_versions, clsel=clsel.version(), numpy=np.__version__, python=platform.python_version()),
        "device": " / ".join(clsel.runtime_device(DEVICE)),
        "host": _host(),
        "cases_per_peer": CASES_PER_PEER,
        "records": _records,
        "exit_status": int(exitstatus),
    }
    with open(RESULTS, "w") as f:
        json.dump(payload, f, indent=0)


def _host():
    """The CPU and what OpenVINO does to floats on it (host.py), when OpenVINO ran."""
    if "openvino" not in _versions:
        return {"cpu": host.cpu_name(), "flags": sorted(f for f in host.RELEVANT_FLAGS if f in host.cpu_flags())}
    from peers import ov_core

    return host.describe(ov_core())


def note_version(name, version):
    _versions[name] = version


def _clsel(case, cond, then, else_, cond_broadcast):
    """clsel on the CPU path and on the default device (OpenCL where there is one), which
    must agree bit for bit; None when clsel rejects the case."""
    kwargs = dict(broadcast=case.mode, axis=case.axis, cond_broadcast=cond_broadcast)
    try:
        ours = clsel.select(cond, then, else_, device="cpu", **kwargs)
    except clsel.ClselError as error:
        return None, error
    device_out = clsel.select(cond, then, else_, device=DEVICE, **kwargs)
    assert np.array_equal(bits_view(device_out), bits_view(ours)), f"clsel CPU and device differ: {case.label()}"
    return ours, None


def compare(peer, case, run_peer, expected=None, documented_rejection=None, canonical_cond=False, two_way=True):
    """Runs one case through clsel and a peer and records the outcome. Returns None when
    the outcome is explained (identical, rejected by both, or a documented divergence),
    else a description of the unexplained difference.

    two_way: the peer broadcasts cond two ways in numpy mode, so clsel runs with
    cond_broadcast=bidirectional for the comparison; cases valid one way must then give
    the same result with clsel's default too.
    expected(case, cond, then, out) -> (bits, [divergence ids]): the peer's output
    derived from clsel's under the documented divergences.
    documented_rejection(case) -> divergence id or None: the peer rejects a case clsel
    accepts, for a documented reason.
    """
    cond, then, else_ = make_data(case, canonical_cond)
    cond_broadcast = "bidirectional" if (two_way and case.mode == "numpy") else case.cond_broadcast
    ours, our_error = _clsel(case, cond, then, else_, cond_broadcast)
    one_way = None
    if case.mode == "numpy" and two_way:
        default, _ = _clsel(case, cond, then, else_, "one-way")
        one_way = "rejects" if default is None else "same"
        if default is not None and ours is not None and not np.array_equal(bits_view(default), bits_view(ours)):
            return f"{case.label()}: one-way and bidirectional clsel differ on a one-way case"
    try:
        theirs, their_error = run_peer(case, cond, then, else_), None
    except PeerRejected as error:
        theirs, their_error = None, error

    record = {"peer": peer, "mode": case.mode, "dtype": CLSEL_NAMES[case.dtype], "one_way": one_way}
    problem = None
    if ours is None and theirs is None:
        record["outcome"] = "rejected by both"
    elif ours is None:
        record["outcome"] = "mismatch"
        problem = f"{case.label()}: clsel rejects ({our_error.message}), {peer} accepts"
    elif theirs is None:
        reason = documented_rejection(case) if documented_rejection else None
        record["outcome"] = f"divergence:{reason}" if reason else "mismatch"
        if not reason:
            problem = f"{case.label()}: {peer} rejects ({their_error}), clsel accepts"
    else:
        want, applied = expected(case, cond, then, else_, ours) if expected else (bits_view(ours), [])
        alternatives = want if isinstance(want, tuple) else (want,)
        if theirs.shape != ours.shape or theirs.dtype.itemsize != ours.dtype.itemsize:
            record["outcome"] = "mismatch"
            problem = f"{case.label()}: {peer} gives {theirs.dtype}{theirs.shape}, clsel {ours.dtype}{ours.shape}"
        elif np.array_equal(bits_view(theirs), bits_view(ours)):
            record["outcome"] = "identical"  # whatever the divergences would have allowed
        elif not np.logical_or.reduce([bits_view(theirs) == alt for alt in alternatives]).all():
            record["outcome"] = "mismatch"
            where = np.argwhere(bits_view(theirs) != alternatives[0])[:3].tolist()
            problem = (f"{case.label()}: {peer} differs from clsel beyond the documented divergences "
                       f"{applied} at {where}")
        else:
            record["outcome"] = "divergence:" + "+".join(applied) if applied else "identical"
    for divergence in record["outcome"].removeprefix("divergence:").split("+"):
        assert record["outcome"] in ("identical", "rejected by both", "mismatch") or divergence in DIVERGENCES
    _records.append(record)
    return problem


@pytest.fixture
def check():
    """Collects unexplained differences across many cases; fails the test at the end."""
    problems = []

    def run(*args, **kwargs):
        problem = compare(*args, **kwargs)
        if problem:
            problems.append(problem)

    yield run
    assert not problems, f"{len(problems)} unexplained differences:\n" + "\n".join(problems[:25])
