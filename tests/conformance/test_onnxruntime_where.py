"""clsel against ONNX Runtime's Where (CPU execution provider), which broadcasts all three
inputs numpy-style two ways, in the dtypes its CPU kernels take. Two documented
divergences apply (see divergences.py): a selected -0.0 from X becomes +0.0, and cond
bytes other than 0/1 give 0."""
import os

import numpy as np
import pytest

from cases import none_case, numpy_case
from conftest import CASES_PER_PEER, note_version
from divergences import ort_expected
from peers import ORT_DTYPES, ort_where, require

SEED = int(os.environ.get("CLSEL_CONFORMANCE_SEED", "2026"))


@pytest.fixture(scope="module", autouse=True)
def peer_present():
    ort = require("onnxruntime")
    require("onnx")
    note_version("onnxruntime", ort.__version__)


def test_numpy_mode(check):
    rng = np.random.default_rng(SEED + 11)
    for i in range(CASES_PER_PEER * 8 // 10):
        dtype = ORT_DTYPES[i % len(ORT_DTYPES)]
        kind = i % 6
        case = numpy_case(rng, dtype, SEED * 10**6 + 3 * 10**5 + i, enlarging_cond=kind == 4, broken=kind == 5)
        check("onnxruntime", case, ort_where, expected=ort_expected, canonical_cond=i % 5 != 0)


def test_none_mode(check):
    rng = np.random.default_rng(SEED + 12)
    for i in range(CASES_PER_PEER * 2 // 10):
        case = none_case(rng, ORT_DTYPES[i % len(ORT_DTYPES)], SEED * 10**6 + 4 * 10**5 + i, broken=i % 4 == 3)
        check("onnxruntime", case, ort_where, expected=ort_expected, canonical_cond=i % 5 != 0)
