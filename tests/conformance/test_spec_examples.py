"""docs/semantics.md's own examples (and Select-1's), through every peer that can express them,
recorded in the report like the random cases."""
import numpy as np
import pytest

from cases import Case
from divergences import ort_expected, ov_expected, ov_pdpd_rejection
from peers import numpy_where, ort_where, ov_select, require

SELECT1_EXAMPLE = ((3, 2), (3, 2), (3, 2))
NUMPY_EXAMPLES = [
    ((4, 5), (2, 3, 4, 5), (2, 3, 4, 5)),  # cond one way onto r
    ((3, 1, 5), (2, 3, 4, 5), (2, 3, 4, 5)),
    ((3, 5), (2, 3, 4, 5), (2, 3, 4, 5)),  # rejected everywhere
    ((2, 3), (3,), (3,)),  # cond enlarges: only two-way
    ((1, 1, 3), (1, 3, 1), (3, 1, 1)),  # gives {3,3,3} two-way
    ((), (2, 3, 4, 5), (5,)),  # a rank-0 cond always passes
    ((), (), ()),  # all rank 0
    ((), (1,), ()),  # [] and [1] stay distinct
    ((1,), (0, 3), (1, 3)),  # 1 with 0 gives 0
    ((), (0, 3), (2, 3)),  # 0 with 2: rejected
]
PDPD_EXAMPLES = [  # (cond, then, else, axis), then {2,3,4,5} unless stated
    ((), (2, 3, 4, 5), (3, 4), 1), ((), (2, 3, 4, 5), (3, 1), 1), ((), (2, 3, 4, 5), (4, 5), -1),
    ((), (2, 3, 4, 5), (4, 5), 2), ((), (2, 3, 4, 5), (1, 3), 0), ((), (2, 3, 4, 5), (), -1),
    ((), (2, 3, 4, 5), (5,), -1), ((), (2, 3, 4, 5), (5,), 3), ((), (8, 1, 6, 1), (7, 1, 5), 1),
    ((), (2, 3), (3, 1), 1), ((3,), (3, 3), (3,), 0),
]


def spec_cases(dtype):
    yield Case("numpy", -1, "one-way", SELECT1_EXAMPLE, dtype, 1)
    for i, shapes in enumerate(NUMPY_EXAMPLES):
        yield Case("numpy", -1, "one-way", shapes, dtype, 10 + i)


def test_numpy_where(check):
    require("ml_dtypes")
    for case in spec_cases("int32"):
        check("numpy", case, numpy_where)
    for i, (c, t, e, axis) in enumerate(PDPD_EXAMPLES):
        check("numpy", Case("pdpd", axis, "one-way", (c, t, e), "float32", 100 + i), numpy_where)


def test_onnxruntime_where(check):
    require("onnx")
    require("onnxruntime")
    for case in spec_cases("int32"):
        check("onnxruntime", case, ort_where, expected=ort_expected)


def test_openvino_select(check):
    require("openvino")
    for case in spec_cases("int32"):
        check("openvino", case, ov_select, expected=ov_expected)
    for i, (c, t, e, axis) in enumerate(PDPD_EXAMPLES):
        check("openvino", Case("pdpd", axis, "one-way", (c, t, e), "float32", 100 + i), ov_select,
              expected=ov_expected, documented_rejection=ov_pdpd_rejection)


def test_select1_example_values():
    """The numbers of Select-1's example, straight."""
    import clsel

    cond = np.array([[False, False], [True, False], [True, True]])
    then = np.array([[-1, 0], [1, 2], [3, 4]], np.int32)
    else_ = np.array([[11, 10], [9, 8], [7, 6]], np.int32)
    assert clsel.select(cond, then, else_).tolist() == [[11, 10], [1, 8], [3, 4]]
    assert np.where(cond, then, else_).tolist() == [[11, 10], [1, 8], [3, 4]]
