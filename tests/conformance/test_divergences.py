"""The smallest reproducing case of every documented divergence (divergences.py), run
for real: each asserts clsel's result and the peer's exact different result, so that a
peer release that changes behaviour fails here and the documentation gets updated."""
import warnings

import numpy as np
import pytest

import clsel
import host
from cases import Case, bits_view, numpy_dtype
from divergences import DIVERGENCES
from peers import PeerRejected, ort_where, ov_core, ov_select, require


def case(mode, shapes, dtype, axis=-1):
    return Case(mode, axis, "one-way", shapes, dtype, 0)


@pytest.fixture(scope="module")
def ort():
    require("onnx")
    return require("onnxruntime")


@pytest.fixture(scope="module")
def ov():
    return require("openvino")


def test_every_divergence_has_a_repro_test():
    tested = {name.removeprefix("test_").replace("_", "-") for name in globals() if name.startswith("test_")}
    assert set(DIVERGENCES) <= tested


def test_ort_negative_zero(ort):
    cond, x, y = np.array([True]), np.array([-0.0], np.float32), np.array([5.0], np.float32)
    assert bits_view(clsel.select(cond, x, y)).tolist() == [0x80000000]
    assert bits_view(ort_where(case("numpy", ((1,), (1,), (1,)), "float32"), cond, x, y)).tolist() == [0]
    # With Y' = (cond == false) ? Y : 0 constant along the inner loop (cond and Y
    # scalars), Y's -0.0 is the one lost.
    cond, x, y = np.array(False), np.array([1.0, 2.0], np.float32), np.array(-0.0, np.float32)
    assert bits_view(clsel.select(cond, x, y)).tolist() == [0x80000000] * 2
    assert bits_view(ort_where(case("numpy", ((), (2,), ()), "float32"), cond, x, y)).tolist() == [0, 0]


def test_ort_cond_bytes(ort):
    cond = np.array([2], np.uint8).view(np.bool_)
    x, y = np.array([7], np.int32), np.array([9], np.int32)
    assert clsel.select(cond, x, y).tolist() == [7]
    assert ort_where(case("numpy", ((1,), (1,), (1,)), "int32"), cond, x, y).tolist() == [0]


def test_ort_f16_nan(ort):
    snan = np.array([0x7C01], np.uint16).view(np.float16)
    cond, x, y = np.ones(4, bool), np.repeat(snan, 4), np.zeros(4, np.float16)
    assert bits_view(clsel.select(cond, x, y)).tolist() == [0x7C01] * 4
    assert bits_view(ort_where(case("numpy", ((4,), (4,), (4,)), "float16"), cond, x, y)).tolist() == [0x7E00] * 4
    cond, x, y = np.ones((2, 4), bool), np.repeat(snan, 2).reshape(2, 1), np.zeros((2, 4), np.float16)
    got = ort_where(case("numpy", ((2, 4), (2, 1), (2, 4)), "float16"), cond, x, y)
    assert set(bits_view(got).ravel().tolist()) == {0x7E01}


def _host_float_repro(dtype, bits):
    """clsel's and OpenVINO's output for then = `bits` (cond all true); asserts clsel's is
    the input and OpenVINO's is what the behaviour host.py's probe named gives."""
    then = np.array(bits, np.uint16).view(numpy_dtype(dtype))
    cond, zero = np.ones(then.shape, bool), np.zeros(then.shape, then.dtype)
    assert bits_view(clsel.select(cond, then, zero)).tolist() == list(bits)
    theirs = bits_view(ov_select(case("numpy", (then.shape,) * 3, dtype), cond, then, zero)).tolist()
    behaviour = host.ov_float_behaviour(dtype)
    convert, _ = host.OV_FLOAT_BEHAVIOURS[dtype][behaviour]
    assert theirs == convert(np.array(bits, np.uint16)).tolist()
    documented = host.ov_expected_behaviour(dtype, host.ov_capabilities(ov_core()))
    if documented and behaviour != documented:
        warnings.warn(f"OpenVINO shows {dtype} behaviour {behaviour!r} on {host.cpu_name()}, where "
                      f"docs/conformance.md says {documented!r}: update host.OV_FLOAT_EXPECTED and the docs")
    return behaviour, theirs


def test_ov_f16_quiets_snan(ov):
    behaviour, theirs = _host_float_repro("float16", [0x7C01])
    assert theirs == ([0x7E01] if behaviour == "quiets-snan" else [0x7C01])


def test_ov_bf16_native_conversion(ov):
    behaviour, theirs = _host_float_repro("bfloat16", [0x7F81, 0xFF81, 0x0001, 0x807F, 0x007F])
    converted = [0x7FC1, 0xFFC1, 0x0000, 0x8000, 0x0000]
    assert theirs == (converted if behaviour == "quiets-snan-flushes-subnormals" else
                      [0x7F81, 0xFF81, 0x0001, 0x807F, 0x007F])


def test_host_emulation_matches_the_model():
    """The forced-host emulation (VCVTNEPS2BF16 in float32 terms) and the documented
    model (bit rules) agree on every bfloat16, and the emulation is idempotent: so a
    forced run checks the suite's branch for such CPUs, on any CPU."""
    every = np.arange(1 << 16, dtype=np.uint32).astype(np.uint16)
    emulated = host.emulate_native_bf16(every)
    model, _ = host.OV_FLOAT_BEHAVIOURS["bfloat16"]["quiets-snan-flushes-subnormals"]
    assert np.array_equal(emulated, model(every))
    assert np.array_equal(host.emulate_native_bf16(emulated), emulated)


def test_ov_f64_as_f32(ov):
    cond, then, zero = np.array([True, True]), np.array([0.1, np.inf]), np.zeros(2)
    assert clsel.select(cond, then, zero).tolist() == [0.1, np.inf]
    got = ov_select(case("numpy", ((2,), (2,), (2,)), "float64"), cond, then, zero)
    assert got.tolist() == [0.10000000149011612, 3.4028234663852886e+38]


def test_ov_i64_as_i32(ov):
    cond, then, zero = np.array([True]), np.array([2**31], np.int64), np.zeros(1, np.int64)
    assert clsel.select(cond, then, zero).tolist() == [2**31]
    assert ov_select(case("numpy", ((1,), (1,), (1,)), "int64"), cond, then, zero).tolist() == [-2**31]


def test_ov_pdpd_trailing_ones(ov):
    then, else_ = np.arange(6, dtype=np.int32).reshape(2, 3), np.array([[-1], [-2], [-3]], np.int32)
    cond = np.array(False)
    out = clsel.select(cond, then, else_, broadcast="pdpd", axis=1)
    assert out.tolist() == [[-1, -2, -3], [-1, -2, -3]]
    with pytest.raises(PeerRejected):
        ov_select(case("pdpd", ((), (2, 3), (3, 1)), "int32", axis=1), cond, then, else_)


def test_ov_pdpd_scalar_axis(ov):
    cond, then, else_ = np.array(True), np.array(4, np.int8), np.array(5, np.int8)
    assert clsel.select(cond, then, else_, broadcast="pdpd", axis=0).tolist() == 4
    with pytest.raises(PeerRejected):
        ov_select(case("pdpd", ((), (), ()), "int8", axis=0), cond, then, else_)
    assert ov_select(case("pdpd", ((), (), ()), "int8", axis=-1), cond, then, else_).tolist() == 4


def test_ov_pdpd_one_against_zero(ov):
    cond, then, else_ = np.array([True]), np.zeros(0, np.uint16), np.array([7], np.uint16)
    assert clsel.select(cond, then, else_, broadcast="pdpd", axis=0).shape == (0,)
    with pytest.raises(PeerRejected):
        ov_select(case("pdpd", ((1,), (0,), (1,)), "uint16", axis=0), cond, then, else_)


def test_ov_pdpd_cond_axis(ov):
    then = np.arange(24, dtype=np.int32).reshape(2, 3, 4)
    else_ = -np.arange(1, 25, dtype=np.int32).reshape(2, 3, 4)
    cond = np.array([True, False, False, False])
    ours = clsel.select(cond, then, else_, broadcast="pdpd", axis=-1)
    assert np.array_equal(ours, np.where(cond.reshape(1, 1, 4), then, else_))  # cond along dim 2
    theirs = ov_select(case("pdpd", ((4,), (2, 3, 4), (2, 3, 4)), "int32"), cond, then, else_)
    assert np.array_equal(theirs[0], then[0]) and np.array_equal(theirs[1], else_[1])  # cond along dim 0


def test_ov_python_pdpd_axis(ov):
    import openvino.opset1 as ops

    params = [ops.parameter([2, 4], t) for t in (ov.Type.boolean, ov.Type.f32, ov.Type.f32)]
    node = ops.select(*params, auto_broadcast="pdpd")
    assert node.get_attributes()["auto_broadcast.auto_broadcast_axis"] == 0
