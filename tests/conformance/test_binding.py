"""The Python binding itself (python/clsel): results, dtypes, layouts, errors."""
import numpy as np
import pytest

import clsel
from cases import ALL_DTYPES, bits_view, random_values
from peers import require


def test_every_dtype_against_numpy_where():
    require("ml_dtypes")
    rng = np.random.default_rng(5)
    for name in ALL_DTYPES:
        then, else_ = random_values(rng, (3, 4), name), random_values(rng, (4,), name)
        cond = rng.integers(0, 2, size=(3, 1)).astype(bool)
        for device in ("cpu", "auto"):
            out = clsel.select(cond, then, else_, device=device)
            assert out.dtype == then.dtype and out.shape == (3, 4)
            assert np.array_equal(bits_view(out), bits_view(np.where(cond, then, else_))), (name, device)


def test_layouts_and_scalars():
    then = np.arange(12, dtype=np.float32).reshape(3, 4).T  # not contiguous
    else_ = np.array(-1.0, dtype=">f4")  # big-endian scalar
    cond = np.array([True, False, True])
    out = clsel.select(cond, then, else_)
    assert out.tolist() == np.where(cond, then, np.float32(-1)).tolist()
    assert clsel.select(np.array(True), 1.5, 2.5).shape == ()  # rank 0 stays rank 0
    assert clsel.select(np.zeros((0, 3), bool), np.zeros((0, 3)), np.zeros(3)).shape == (0, 3)
    cond_u8 = np.array([0, 2, 255], np.uint8)  # uint8 cond, nonzero = true
    assert clsel.select(cond_u8, np.array([1, 2, 3]), np.array([9, 9, 9])).tolist() == [9, 2, 3]


def test_modes():
    then, else_, cond = np.arange(9).reshape(3, 3), np.array([-1, -2, -3]), np.array([True, False, True])
    assert clsel.select(cond, then, else_).tolist() == np.where(cond, then, else_).tolist()
    rows = clsel.select(cond, then, else_, broadcast="pdpd", axis=0)
    assert rows.tolist() == np.where(cond[:, None], then, else_[:, None]).tolist()
    assert clsel.select(np.ones((3, 3), bool), then, then, broadcast="explicit").shape == (3, 3)
    with pytest.raises(clsel.ClselError) as error:
        clsel.select(np.ones((2, 3), bool), np.ones(3), np.ones(3))
    assert error.value.status == "CLSEL_ERROR_INVALID_SHAPE" and "bidirectional would accept it" in error.value.message
    assert clsel.select(np.ones((2, 3), bool), np.ones(3), np.ones(3), cond_broadcast="bidirectional").shape == (2, 3)


def test_infer_shape():
    assert clsel.infer_shape((4, 5), (2, 3, 4, 5), (5,)) == (2, 3, 4, 5)
    assert clsel.infer_shape((2, 3), (3,), (3,), cond_broadcast="bidirectional") == (2, 3)
    assert clsel.infer_shape((), (2, 3), (3, 1), broadcast="pdpd", axis=1) == (2, 3)
    with pytest.raises(clsel.ClselError, match=r"numpy broadcast: cond \{3,5\} cannot be broadcast to \{2,3,4,5\}"):
        clsel.infer_shape((3, 5), (2, 3, 4, 5), (2, 3, 4, 5))


def test_errors():
    with pytest.raises(clsel.ClselError) as error:
        clsel.select(np.zeros(3), np.zeros(3), np.zeros(3))
    assert error.value.status == "CLSEL_ERROR_INVALID_DTYPE" and "cond must be boolean or u8" in error.value.message
    with pytest.raises(clsel.ClselError, match="CLSEL_ERROR_INVALID_DTYPE: then and else must have the same dtype"):
        clsel.select(np.ones(3, bool), np.zeros(3, np.float32), np.zeros(3, np.float64))
    with pytest.raises(clsel.ClselError, match="CLSEL_ERROR_INVALID_ARGUMENT"):
        clsel.select(np.ones(3, bool), np.zeros(3), np.zeros(3), broadcast="bogus")
    with pytest.raises(clsel.ClselError, match="CLSEL_ERROR_INVALID_ARGUMENT"):
        clsel.select(np.ones(3, bool), np.zeros(3), np.zeros(3), device="tpu")
    with pytest.raises(clsel.ClselError, match="CLSEL_ERROR_INVALID_ARGUMENT: pdpd broadcast: axis -2 is invalid"):
        clsel.select(np.ones(3, bool), np.zeros(3), np.zeros(3), broadcast="pdpd", axis=-2)
    with pytest.raises(clsel.ClselError, match="CLSEL_ERROR_INVALID_SHAPE: cond rank 9"):
        clsel.infer_shape((1,) * 9, (), ())


def test_devices():
    devices = clsel.devices()
    assert isinstance(devices, list)
    for d in devices:
        assert {"name", "type", "platform", "fp16", "fp64", "auto_choice", "max_alloc_bytes"} <= set(d)
    assert sum(d["auto_choice"] for d in devices) <= 1
    kind, name = clsel.runtime_device("auto")
    assert kind in ("opencl", "cpu") and name
    if kind == "opencl":
        assert any(d["auto_choice"] and d["name"] == name for d in devices)
    assert clsel.version().count(".") == 2


def test_out_argument():
    rng = np.random.default_rng(11)
    then = rng.standard_normal((4, 5)).astype(np.float32)
    else_ = rng.standard_normal(5).astype(np.float32)
    cond = rng.integers(0, 2, size=(4, 5)).astype(bool)
    want = np.where(cond, then, else_)
    for device in ("cpu", "auto"):
        out = np.full((4, 5), np.nan, np.float32)
        assert clsel.select(cond, then, else_, device=device, out=out) is out
        assert np.array_equal(out, want)
    in_place = then.copy()  # out may be then itself (same shape)
    assert clsel.select(cond, in_place, else_, out=in_place) is in_place
    assert np.array_equal(in_place, want)
    wrong = [
        (np.empty((4, 5), np.float64), "dtype float64"),
        (np.empty((5, 4), np.float32), "shape (5, 4)"),
        (np.empty((4, 5), ">f4"), "not in native byte order"),
        ([0.0] * 20, "numpy array"),
    ]
    read_only = np.empty((4, 5), np.float32)
    read_only.flags.writeable = False
    wrong.append((read_only, "read-only"))
    for bad, text in wrong:
        with pytest.raises(clsel.ClselError) as error:
            clsel.select(cond, then, else_, out=bad)
        assert error.value.status == "CLSEL_ERROR_INVALID_ARGUMENT" and text in error.value.message, error.value
    shifted = np.zeros(25, np.float32)  # out overlapping then partly: refused, nothing written
    then_view, out_view = shifted[:20].reshape(4, 5), shifted[1:21].reshape(4, 5)
    then_view[...] = then
    before = shifted.copy()
    with pytest.raises(clsel.ClselError) as error:
        clsel.select(cond, then_view, else_, out=out_view)
    assert "overlap" in error.value.message and np.array_equal(shifted, before, equal_nan=True)


@pytest.mark.parametrize("compiled", [True, False], ids=["_fastcall", "ctypes"])
def test_repeated_calls(monkeypatch, compiled):
    """A call repeated on new data takes the cached path (clsel._calls): numpy's result
    through the compiled per-call step and through ctypes alike, for views, broadcast
    (read-only) inputs, uint8 conditions, every element width, and where() as well as
    select(), each of them first (where() repeats a call through the same cache)."""
    if compiled and clsel._fastcall is None:
        pytest.skip("no compiled per-call step in this build (no Python headers)")
    if not compiled:
        monkeypatch.setattr(clsel, "_fastcall", None)
    rng = np.random.default_rng(11)
    for dtype in (np.uint8, np.float16, np.float32, np.float64):
        base = rng.random((40, 30)).astype(dtype)
        for _ in range(3):  # the first call makes the plan, the next two take the cache
            cond = rng.random((30, 40)) < 0.5
            then = rng.random((30, 40)).astype(dtype)
            cases = [(cond, then, base.T), (cond[::-1], then[:, ::2].repeat(2, 1), base.T),
                     (np.broadcast_to(cond[0], (30, 40)), then, then[0]), (cond.T, then.T, base),
                     (cond[:7].astype(np.uint8) * 3, then[:7], base.T[:7]), (cond[:, 5:], then[:, 5:], then[0, 5:])]
            for k, (c, t, e) in enumerate(cases):
                want = np.where(c, t, e)
                calls = (clsel.select, clsel.where) if k % 2 == 0 else (clsel.where, clsel.select)
                for call in calls:
                    got = call(c, t, e)
                    assert got.dtype == want.dtype and np.array_equal(got, want), (dtype, k, call.__name__)
    assert clsel._calls, "no call was cached"


@pytest.mark.parametrize("compiled", [True, False], ids=["_fastcall", "ctypes"])
def test_repeated_calls_with_out(monkeypatch, compiled):
    """Calls with out= are remembered too (by out's dtype, shape and strides): the result
    written into out, a transposed out as well, in place; and a repeated call whose out
    overlaps an input partly, or is read-only, is still refused with nothing written."""
    if compiled and clsel._fastcall is None:
        pytest.skip("no compiled per-call step in this build (no Python headers)")
    if not compiled:
        monkeypatch.setattr(clsel, "_fastcall", None)
    rng = np.random.default_rng(12)
    out, out_t = np.empty((6, 9), np.float32), np.empty((9, 6), np.float32).T
    for _ in range(3):
        cond = rng.random((6, 9)) < 0.5
        then, else_ = rng.random((6, 9)).astype(np.float32), rng.random(9).astype(np.float32)
        want = np.where(cond, then, else_)
        for o in (out, out_t):
            for call in (clsel.select, clsel.where):
                o[...] = np.nan
                assert call(cond, then, else_, out=o) is o and np.array_equal(o, want)
        in_place = then.copy()
        assert clsel.select(cond, in_place, else_, out=in_place) is in_place and np.array_equal(in_place, want)
    assert any(key[-1] is not None for key in clsel._calls), "no call with out= was remembered"
    shifted = np.zeros(55, np.float32)  # the same dtype, shape and strides as out, overlapping then
    then_view, out_view = shifted[:54].reshape(6, 9), shifted[1:55].reshape(6, 9)
    then_view[...] = then
    before = shifted.copy()
    with pytest.raises(clsel.ClselError) as error:
        clsel.select(cond, then_view, else_, out=out_view)
    assert "overlap" in error.value.message and np.array_equal(shifted, before)
    out.flags.writeable = False
    with pytest.raises(clsel.ClselError) as error:
        clsel.select(cond, then, else_, out=out)
    assert "read-only" in error.value.message
