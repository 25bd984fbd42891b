"""clsel.opencl.select: PyOpenCL arrays on the caller's queue, against numpy.where."""
import numpy as np
import pytest

import clsel
from cases import bits_view, random_values
from peers import require


@pytest.fixture(scope="module")
def queue():
    cl = require("pyopencl")
    devices = [d for p in cl.get_platforms() for d in p.get_devices()]
    if not devices:
        pytest.skip("no OpenCL device")
    return cl.CommandQueue(cl.Context([devices[0]]))


def test_against_numpy_where(queue):
    require("ml_dtypes")
    import pyopencl.array as cla

    import clsel.opencl

    rng = np.random.default_rng(3)
    for name in ("bool", "uint8", "float16", "bfloat16", "int32", "float32", "float64"):
        then, else_ = random_values(rng, (6, 1, 5), name), random_values(rng, (7, 1), name)
        cond = rng.integers(0, 2, size=(1, 7, 5)).astype(bool)
        out, event = clsel.opencl.select(queue, cla.to_device(queue, cond), cla.to_device(queue, then),
                                         cla.to_device(queue, else_))
        event.wait()
        assert np.array_equal(bits_view(out.get()), bits_view(np.where(cond, then, else_))), name


def test_offsets_out_and_events(queue):
    import pyopencl as cl
    import pyopencl.array as cla

    import clsel.opencl

    pool = cla.to_device(queue, np.arange(64, dtype=np.float32))
    then, else_ = pool[3:13], pool[40:50]  # views at byte offsets 12 and 160 of one buffer
    assert then.offset == 12 and else_.offset == 160
    cond_host = np.array([1, 0, 1, 1, 0, 0, 1, 0, 1, 0], np.uint8)
    cond = cla.to_device(queue, np.concatenate([np.zeros(5, np.uint8), cond_host]))[5:]
    out_pool = cla.zeros(queue, 32, np.float32)
    out = out_pool[7:17]
    gate = cl.UserEvent(queue.context)  # nothing runs before the caller says so
    result, event = clsel.opencl.select(queue, cond, then, else_, out=out, wait_for=[gate])
    assert result is out
    assert event.command_execution_status != cl.command_execution_status.COMPLETE
    gate.set_status(cl.command_execution_status.COMPLETE)
    event.wait()
    want = np.where(cond_host.astype(bool), np.arange(3, 13), np.arange(40, 50)).astype(np.float32)
    got = out_pool.get()
    assert np.array_equal(got[7:17], want) and not got[:7].any() and not got[17:].any()
    # In place: out is then itself.
    in_place = cla.to_device(queue, np.arange(10, dtype=np.float32))
    clsel.opencl.select(queue, cond, in_place, else_, out=in_place)[1].wait()
    assert np.array_equal(in_place.get(), np.where(cond_host.astype(bool), np.arange(10), np.arange(40, 50)))


def test_errors(queue):
    import pyopencl as cl
    import pyopencl.array as cla

    import clsel.opencl

    cond = cla.to_device(queue, np.ones(4, bool))
    then = cla.to_device(queue, np.arange(4, dtype=np.float32))
    other_queue = cl.CommandQueue(cl.Context([queue.device]))
    foreign = cla.to_device(other_queue, np.zeros(4, np.float32))
    cases = [
        ((cond, then, foreign), {}, "CLSEL_ERROR_INVALID_ARGUMENT", "another OpenCL context"),
        ((cond, then, np.zeros(4, np.float32)), {}, "CLSEL_ERROR_INVALID_ARGUMENT", "pyopencl.array.Array"),
        ((cond, then, then), {"out": cla.empty(queue, 4, np.float64)}, "CLSEL_ERROR_INVALID_ARGUMENT", "dtype"),
        ((cond, then, cla.to_device(queue, np.zeros(4, np.int32))), {}, "CLSEL_ERROR_INVALID_DTYPE", ""),
    ]
    pool = cla.to_device(queue, np.arange(8, dtype=np.float32))
    cases.append(((cond, pool[0:4], then), {"out": pool[1:5]}, "CLSEL_ERROR_BUFFER", "overlap"))
    for args, kwargs, status, text in cases:
        with pytest.raises(clsel.ClselError) as error:
            clsel.opencl.select(queue, *args, **kwargs)
        assert error.value.status == status and text in error.value.message, error.value
    assert pool.get().tolist() == list(range(8))  # the refused overlapping call wrote nothing


def test_python_doc_example(queue, capsys):
    """docs/python.md's PyOpenCL example, as printed there."""
    import os
    import re

    page = open(os.path.join(os.path.dirname(__file__), "..", "..", "docs", "python.md")).read()
    block = re.search(r"<!-- run by tests/conformance/test_opencl_interop.py -->\n```python\n(.*?)```", page,
                      re.S).group(1)
    exec(compile(block, "docs/python.md", "exec"), {})
    assert capsys.readouterr().out.strip() == "[ 2. -1.  4.]"
