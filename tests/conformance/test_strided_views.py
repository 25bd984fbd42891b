"""Strided tensors through the Python binding: numpy views (transposed, stepped, reversed,
broadcast_to, Fortran order, padded rows) read and written where they lie, identical to
numpy.where, with no copy of any input; PyOpenCL arrays with strides."""
import tracemalloc

import numpy as np
import pytest

import clsel
from cases import bits_view, random_values
from peers import require


def random_view(rng, shape, make):
    """A view of `shape` over a larger array: each axis stepped (1-3), reversed at random,
    with 0-2 positions of padding, the axes in a random order in memory."""
    order = rng.permutation(len(shape))
    steps = rng.integers(1, 4, size=len(shape))
    pads = rng.integers(0, 3, size=len(shape))
    base_shape = [int(shape[a] * steps[a] + pads[a]) for a in order]
    base = make(base_shape).transpose(np.argsort(order))
    index = []
    for a, n in enumerate(shape):
        s = int(steps[a])
        if rng.integers(0, 4) == 0:
            index.append(slice(s * (n - 1), None, -s) if n > 0 else slice(0, 0))
        else:
            index.append(slice(0, s * n, s))
    view = base[tuple(index)]
    assert view.shape == tuple(shape)
    return view


def test_random_views_against_numpy_where():
    require("ml_dtypes")
    rng = np.random.default_rng(29)
    for case in range(300):
        rank = int(rng.integers(1, 5))
        shape = tuple(int(d) for d in rng.integers(1, 9, size=rank))
        name = ("bool", "uint8", "int16", "float16", "bfloat16", "float32", "int64", "float64")[case % 8]
        then = random_view(rng, shape, lambda s: random_values(rng, s, name))
        # else_ broadcast along the leading axes (numpy's broadcast_to makes stride-0 views too)
        tail = shape[int(rng.integers(0, rank)):]
        else_ = random_view(rng, tail, lambda s: random_values(rng, s, name))
        if rng.integers(0, 3) == 0:
            else_ = np.broadcast_to(else_, shape)
        cond = random_view(rng, shape, lambda s: rng.integers(0, 2, size=s).astype(bool))
        want = np.where(cond, then, else_)
        for device in ("cpu", "auto"):
            got = clsel.where(cond, then, else_, device=device)
            assert np.array_equal(bits_view(got), bits_view(want)), (case, name, device)
        out_base = np.full([d * 2 + 1 for d in shape], 7, dtype=want.dtype)
        inside = tuple(slice(0, 2 * d, 2) for d in shape)
        out, before = out_base[inside], out_base.copy()
        assert clsel.select(cond, then, else_, out=out) is out
        assert np.array_equal(bits_view(out), bits_view(want)), (case, name, "out view")
        untouched = np.ones(out_base.shape, bool)
        untouched[inside] = False
        assert np.array_equal(bits_view(out_base[untouched]), bits_view(before[untouched])), \
            (case, name, "wrote between the out view's elements")


def test_named_layouts():
    rng = np.random.default_rng(3)
    a = rng.standard_normal((64, 48)).astype(np.float32)
    b = rng.standard_normal((64, 48)).astype(np.float32)
    c = rng.random((64, 48)) > 0.5
    padded = np.zeros((64, 64), np.float32)[:, :48]
    padded[...] = b
    layouts = {
        "transposed": (c.T, a.T, b.T),
        "fortran": (np.asfortranarray(c), np.asfortranarray(a), np.asfortranarray(b)),
        "every other": (c[:, ::2], a[:, ::2], b[:, 1::2]),
        "reversed": (c[::-1], a[::-1, ::-1], b),
        "padded rows": (c, a, padded),
        "broadcast_to": (c, np.broadcast_to(a[0], (64, 48)), b),
    }
    for name, (cond, x, y) in layouts.items():
        got = clsel.where(cond, x, y)
        assert np.array_equal(got, np.where(cond, x, y)), name
    # a result laid out as its inputs (numpy's order="K"): transposed in, transposed out
    assert clsel.where(c.T, a.T, b.T).flags.f_contiguous


def test_views_are_not_copied():
    rng = np.random.default_rng(4)
    big = rng.standard_normal((1024, 1024)).astype(np.float32)
    cond = rng.random((1024, 1024)) > 0.5
    out = np.empty((1024, 1024), np.float32)
    clsel.where(cond.T, big.T, big[::-1], out=out)  # plans made and cached before measuring
    tracemalloc.start()
    try:
        clsel.where(cond.T, big.T, big[::-1], out=out)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert peak < big.nbytes // 16, f"{peak} bytes allocated for {big.nbytes}-byte views"
    assert np.array_equal(out, np.where(cond.T, big.T, big[::-1]))


def test_out_view_rules():
    a = np.arange(24, dtype=np.float32).reshape(4, 6)
    c = np.ones((4, 6), bool)
    in_place = a.copy()[:, ::-1]  # out may be then itself, a view too
    assert clsel.select(~c, in_place, np.float32(-1), out=in_place) is in_place
    assert (in_place == -1).all()
    pool = np.arange(48, dtype=np.float32)
    then_view, out_view = pool[0:48:2].reshape(4, 6), pool[1:48:2].reshape(4, 6)  # interleaved
    before = pool.copy()
    with pytest.raises(clsel.ClselError) as error:
        clsel.select(c, then_view, a, out=out_view)
    assert error.value.status == "CLSEL_ERROR_BUFFER" and "overlap" in error.value.message
    assert np.array_equal(pool, before)
    with pytest.raises(clsel.ClselError) as error:  # a view that repeats an element cannot be written
        clsel.select(c, a, a, out=np.broadcast_to(np.zeros(6, np.float32), (4, 6)))
    assert "read-only" in error.value.message


def test_pyopencl_strided_arrays():
    cl = require("pyopencl")
    import pyopencl.array as cla

    import clsel.opencl

    devices = [d for p in cl.get_platforms() for d in p.get_devices()]
    if not devices:
        pytest.skip("no OpenCL device")
    queue = cl.CommandQueue(cl.Context([devices[0]]))
    rng = np.random.default_rng(6)
    a = rng.standard_normal((32, 40)).astype(np.float32)
    b = rng.standard_normal((32, 40)).astype(np.float32)
    c = rng.random((32, 40)) > 0.5
    dev = [cla.to_device(queue, x) for x in (c, a, b)]
    for index in ((slice(None), slice(None, None, 2)), (slice(1, None, 3), slice(None)), (slice(None), slice(3, 7))):
        out, event = clsel.opencl.select(queue, *(x[index] for x in dev))
        event.wait()
        assert np.array_equal(out.get(), np.where(c[index], a[index], b[index])), index
    target = cla.zeros(queue, (32, 80), np.float32)
    out, event = clsel.opencl.select(queue, *dev, out=target[:, ::2])
    event.wait()
    whole = target.get()
    assert np.array_equal(whole[:, ::2], np.where(c, a, b)) and not whole[:, 1::2].any()
