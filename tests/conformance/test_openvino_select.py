"""clsel against OpenVINO's opset1 Select, compiled for the CPU device: numpy (OpenVINO
broadcasts cond two ways, so clsel runs bidirectional, and one-way-valid cases must
match clsel's default too), none, and pdpd with explicit axes and with -1. The CPU
plugin's precision conversions (f16 through f32, f64 as f32, i64/u64 as i32) and the
pdpd shapes it rejects are documented divergences (divergences.py)."""
import os

import numpy as np
import pytest

from cases import none_case, numpy_case, pdpd_case
from conftest import CASES_PER_PEER, note_version
from divergences import ov_expected, ov_pdpd_rejection
from peers import OV_DTYPES, ov_select, require

SEED = int(os.environ.get("CLSEL_CONFORMANCE_SEED", "2026"))


@pytest.fixture(scope="module", autouse=True)
def peer_present():
    ov = require("openvino")
    note_version("openvino", ov.__version__)


def test_numpy_mode(check):
    rng = np.random.default_rng(SEED + 21)
    for i in range(CASES_PER_PEER * 55 // 100):
        dtype = OV_DTYPES[i % len(OV_DTYPES)]
        kind = i % 6
        case = numpy_case(rng, dtype, SEED * 10**6 + 5 * 10**5 + i, enlarging_cond=kind == 4, broken=kind == 5)
        check("openvino", case, ov_select, expected=ov_expected)


def test_none_mode(check):
    rng = np.random.default_rng(SEED + 22)
    for i in range(CASES_PER_PEER * 15 // 100):
        case = none_case(rng, OV_DTYPES[i % len(OV_DTYPES)], SEED * 10**6 + 6 * 10**5 + i, broken=i % 4 == 3)
        check("openvino", case, ov_select, expected=ov_expected)


def test_pdpd_mode(check):
    """Explicit axes (with and without trailing 1s), and -1 with rank(cond) == rank(else)
    (where OpenVINO's cond placement agrees with docs/semantics.md; the other case is
    test_divergences.py's ov-pdpd-cond-axis)."""
    rng = np.random.default_rng(SEED + 23)
    for i in range(CASES_PER_PEER * 3 // 10):
        dtype = OV_DTYPES[i % len(OV_DTYPES)]
        explicit = i % 2 == 0
        case = pdpd_case(rng, dtype, SEED * 10**6 + 7 * 10**5 + i, explicit_axis=explicit, equal_ranks=not explicit,
                         trailing_ones=explicit and i % 4 == 0, broken=i % 5 == 4)
        check("openvino", case, ov_select, expected=ov_expected, documented_rejection=ov_pdpd_rejection)
