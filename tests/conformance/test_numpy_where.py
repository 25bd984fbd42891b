"""clsel against numpy.where: every dtype (bfloat16 through ml_dtypes), numpy and none
mode, and pdpd with cond and else reshaped to their place first (numpy has no pdpd).
numpy.where broadcasts cond two ways; cond bytes other than 0/1 are true in both."""
import os

import numpy as np
import pytest

from cases import ALL_DTYPES, none_case, numpy_case, pdpd_case
from conftest import CASES_PER_PEER
from peers import numpy_where, require

SEED = int(os.environ.get("CLSEL_CONFORMANCE_SEED", "2026"))


@pytest.fixture(scope="module", autouse=True)
def peer_present():
    require("ml_dtypes")


def test_numpy_mode(check):
    rng = np.random.default_rng(SEED + 1)
    for i in range(CASES_PER_PEER * 6 // 10):
        dtype = ALL_DTYPES[i % len(ALL_DTYPES)]
        kind = i % 6
        case = numpy_case(rng, dtype, SEED * 10**6 + i, enlarging_cond=kind == 4, broken=kind == 5)
        check("numpy", case, numpy_where)


def test_none_mode(check):
    rng = np.random.default_rng(SEED + 2)
    for i in range(CASES_PER_PEER * 15 // 100):
        case = none_case(rng, ALL_DTYPES[i % len(ALL_DTYPES)], SEED * 10**6 + 10**5 + i, broken=i % 4 == 3)
        check("numpy", case, numpy_where)


def test_pdpd_mode(check):
    rng = np.random.default_rng(SEED + 3)
    for i in range(CASES_PER_PEER * 25 // 100):
        dtype = ALL_DTYPES[i % len(ALL_DTYPES)]
        case = pdpd_case(rng, dtype, SEED * 10**6 + 2 * 10**5 + i, explicit_axis=i % 2 == 0,
                         trailing_ones=i % 4 == 0, broken=i % 5 == 4)
        check("numpy", case, numpy_where)
