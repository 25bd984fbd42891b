"""Where a peer differs from clsel, and exactly how: each entry is a documented divergence
(with its smallest reproducing case, checked by a test of its own), and `peer_expected`
turns clsel's output into the output the peer must give under these divergences. The
suite asserts the peer's output equals that, bit for bit: a difference that is not
documented here fails the run."""
import dataclasses

import numpy as np

import host
from cases import bits_view


@dataclasses.dataclass(frozen=True)
class Divergence:
    id: str
    peer: str
    summary: str
    repro: str  # the smallest case, as the report prints it
    whose: str  # why it is the peer's, not clsel's


DIVERGENCES = {d.id: d for d in [
    Divergence(
        "ort-negative-zero", "onnxruntime",
        "Where can turn a selected -0.0 into +0.0 (float16, float32, float64): from X (then) in "
        "general, from Y (else) when Y is the input that is constant along the innermost loop.",
        "cond [True], X [-0.0], Y [5.0] (float32): ONNX Runtime 0x00000000 (+0.0), clsel and numpy "
        "0x80000000 (-0.0); cond False (a scalar), X [1.0, 2.0], Y -0.0 (a scalar): ONNX Runtime "
        "[+0.0, +0.0]",
        "The CPU kernel computes X' = (cond == true) ? X : 0 and Y' = (cond == false) ? Y : 0, then "
        "merges by keeping the nonzero one (onnxruntime/core/providers/cpu/tensor/where_op.cc); "
        "-0.0 compares equal to 0."),
    Divergence(
        "ort-f16-nan", "onnxruntime",
        "float16 NaNs come out quiet with their sign: as the canonical 0x7E00 in most broadcast "
        "patterns, with the payload kept (quiet bit set) when an operand is broadcast along the "
        "innermost dim. The suite accepts exactly these two values at NaN positions.",
        "cond [True, True, True, True], X [0x7C01] * 4 (float16 sNaN), Y [0] * 4: ONNX Runtime "
        "0x7E00; cond [[T]*4]*2, X [[0x7C01], [0x7C01]] (shape 2x1), Y zeros 2x4: ONNX Runtime 0x7E01; "
        "clsel 0x7C01 in both",
        "The float16 kernels convert through float on some broadcast paths (payload kept, quieted) and "
        "construct the value anew on others (canonical NaN)."),
    Divergence(
        "ort-cond-bytes", "onnxruntime",
        "A cond byte other than 0 or 1 (0x02, 0x80, 0xFF, ...) gives 0: neither X nor Y.",
        "cond bytes [0x02], X [7], Y [9] (int32): ONNX Runtime 0, clsel, numpy and OpenVINO 7",
        "The same three-pass kernel reads the bool through arithmetic; ONNX's bool is 0 or 1, and "
        "clsel (like OpenVINO and numpy) treats any nonzero byte as true."),
    Divergence(
        "ov-f16-quiets-snan", "openvino",
        "float16 runs through float32 on the CPUs seen (x86-64 without the plugin's FP16 capability): "
        "signalling NaNs come out quiet (bit 0x0200 set); every other value is exact.",
        "cond [True], then [0x7C01] (float16 sNaN), else [0]: OpenVINO 0x7E01, clsel 0x7C01",
        "The CPU plugin converts f16 graphs to f32 where the CPU lacks native f16 arithmetic; the "
        "conversion f16 -> f32 -> f16 quiets sNaN."),
    Divergence(
        "ov-bf16-native-conversion", "openvino",
        "Only on a CPU with native bfloat16 conversion (AVX-512 BF16: AMD Zen 4 and later, Intel Cooper Lake, "
        "Sapphire Rapids and later; OpenVINO then lists BF16 in the CPU device's OPTIMIZATION_CAPABILITIES): "
        "bfloat16 signalling NaNs come out quiet (bit 0x0040 set) and subnormals come out as a zero of their "
        "sign. Elsewhere bfloat16 passes unchanged. The suite probes OpenVINO once per run to learn which "
        "(tests/conformance/host.py) and, where the conversion happens, accepts at each element the converted "
        "or the unchanged value.",
        "cond [True]*5, then [0x7F81, 0xFF81, 0x0001, 0x807F, 0x007F] (bfloat16), else zeros: OpenVINO "
        "[0x7FC1, 0xFFC1, 0x0000, 0x8000, 0x0000] on such a CPU, the input unchanged elsewhere; clsel the "
        "input unchanged everywhere",
        "The plugin narrows float32 to bfloat16 with the CPU's VCVTNEPS2BF16 where it has one (openvinotoolkit/"
        "openvino, src/plugins/intel_cpu/src/emitters/plugin/x64/jit_bf16_emitters.hpp), and that "
        "instruction reads subnormal inputs as zero and quiets NaNs; the emulation used elsewhere keeps "
        "those bits."),
    Divergence(
        "ov-f64-as-f32", "openvino",
        "float64 runs as float32: values round to float32, magnitudes beyond FLT_MAX (infinities "
        "included) clamp to +-FLT_MAX, float32-subnormal-or-smaller values become 0 or a float32 "
        "subnormal, NaNs keep only their top 23 payload bits.",
        "cond [True], then [0.1], else [0] (float64): OpenVINO 0.10000000149011612, clsel 0.1; "
        "then [inf]: OpenVINO 3.4028234663852886e+38",
        "The CPU plugin has no f64 kernels and converts f64 to f32 (saturating) on input."),
    Divergence(
        "ov-i64-as-i32", "openvino",
        "int64 and uint64 run as int32: values keep their low 32 bits, sign-extended.",
        "cond [True], then [2**31] (int64), else [0]: OpenVINO -2147483648, clsel 2147483648",
        "The CPU plugin converts i64/u64 to i32 on input (ConvertPrecision), wrapping."),
    Divergence(
        "ov-pdpd-trailing-ones", "openvino",
        "pdpd: OpenVINO rejects an input whose trailing 1s run past then, which docs/semantics.md (pdpd mode; and "
        "OpenVINO's broadcast-rules text) ignores; clsel accepts it.",
        "cond [], then [2,3], else [3,1], pdpd axis 1: OpenVINO rejects ('Else' tensor shape is not "
        "broadcastable); clsel out [2,3] with else along dim 1",
        "OpenVINO's shape inference checks axis + rank(else) <= rank(then) before dropping trailing 1s "
        "(src/core/src/partial_shape.cpp, broadcast_merge_into)."),
    Divergence(
        "ov-pdpd-scalar-axis", "openvino",
        "pdpd with an explicit axis on a rank-0 then (all three inputs scalars): the CPU plugin fails "
        "to compile ('Unsupported auto broadcast specification'); with axis -1 it works.",
        "cond [], then [], else [], pdpd axis 0: OpenVINO compile error; clsel out [] (one element)",
        "A limit of the CPU plugin's snippets shape inference (src/common/snippets/src/shape_inference/"
        "shape_infer_instances.cpp)."),
    Divergence(
        "ov-pdpd-one-against-zero", "openvino",
        "pdpd: OpenVINO rejects a placed dim of 1 against a then dim of 0; docs/semantics.md (edge cases) lets 1 "
        "broadcast against 0 (giving 0), as numpy mode does.",
        "then [0], else [1], cond [1], pdpd axis 0: OpenVINO \"'Else' tensor shape is not "
        "broadcastable\"; clsel out [0] (empty)",
        "OpenVINO's pdpd merge refuses any placed dim larger than then's, 1 included."),
    Divergence(
        "ov-pdpd-cond-axis", "openvino",
        "pdpd with axis -1: OpenVINO places cond at rank(then) - rank(else), not at "
        "rank(then) - rank(cond), when the two ranks differ.",
        "then [2,3,4], else [2,3,4], cond [4] = [T,F,F,F], axis -1: OpenVINO reads cond along dim 0 "
        "(out[0] = then[0], out[1] = else[1]); clsel (and OpenVINO's own shape inference) along dim 2",
        "autobroadcast_select computes one axis from else's rank and reuses it for cond "
        "(src/core/reference/include/openvino/reference/autobroadcast_binop.hpp)."),
    Divergence(
        "ov-python-pdpd-axis", "openvino",
        "The Python API's opset1.select(..., auto_broadcast='pdpd') takes no axis and sets axis 0 "
        "(not -1); the suite builds pdpd nodes on dynamic shapes and sets the attribute "
        "auto_broadcast.auto_broadcast_axis itself, so every axis is tested.",
        "opset1.select(c, t, e, auto_broadcast='pdpd').get_attributes() -> "
        "{'auto_broadcast': 'pdpd', 'auto_broadcast.auto_broadcast_axis': 0}",
        "An API limit of OpenVINO's Python binding, not a result difference."),
]}

FLOATS = {"float16", "float32", "float64"}


def _broadcast_bits(array, shape):
    return np.broadcast_to(bits_view(array), shape)


def _placed(case, array, shape):
    """An input broadcast to the output shape the way clsel places it (pdpd aware)."""
    from cases import pdpd_aligned

    if case.mode == "pdpd" and array is not None:
        array = array.reshape(pdpd_aligned(array.shape, len(shape), case.axis))
    return np.broadcast_to(array, shape)


def _ort_inner_broadcast(shape0, shape1):
    """Which of two inputs ONNX Runtime's broadcaster treats as constant ("scalar")
    along its innermost block: the block starts at the innermost dim where either input
    is larger than 1 (trailing 1s shared by both are skipped), or at the last dim of the
    other input when one of them has rank 0 (onnxruntime/core/providers/cpu/math/
    element_wise_ops.h, Broadcaster)."""
    if not shape0 or not shape1:
        if not shape0 and not shape1:
            return True, True
        if not shape0:
            return True, shape1[-1] <= 1
        return shape0[-1] <= 1, True
    shared = min(len(shape0), len(shape1))
    for index in range(shared):
        a0, a1 = shape0[-1 - index], shape1[-1 - index]
        if max(a0, a1) <= 1 and index + 1 < shared:
            continue
        return a0 <= 1, a1 <= 1
    return True, True


def ort_expected(case, cond, then, else_, out):
    """ONNX Runtime's output, computed the way its CPU kernel does it: X' = (cond == 1) ?
    X : 0 and Y' = (cond == 0) ? Y : 0 (byte compares), then a merge that keeps X' when
    X' != 0, else Y' -- or, when Y' is the input constant along the inner loop, keeps Y'
    when Y' != 0, else X'. A zero compares equal to -0.0, so one branch's -0.0 turns
    into +0.0; float16 NaNs come out as the canonical NaN."""
    width = out.dtype.itemsize
    is_float = case.dtype in FLOATS
    sign = np.array(1 << (8 * width - 1), dtype=f"u{width}")
    c = cond.view(np.uint8)
    x_shape, y_shape = np.broadcast_shapes(c.shape, then.shape), np.broadcast_shapes(c.shape, else_.shape)
    zero = np.zeros((), dtype=f"u{width}")
    x_sel = np.where(np.broadcast_to(c, x_shape) == 1, np.broadcast_to(bits_view(then), x_shape), zero)
    y_sel = np.where(np.broadcast_to(c, y_shape) == 0, np.broadcast_to(bits_view(else_), y_shape), zero)
    x_b, y_b = np.broadcast_to(x_sel, out.shape), np.broadcast_to(y_sel, out.shape)

    def nonzero(bits):
        return (bits & ~sign) != 0 if is_float else bits != 0

    x_inner, y_inner = _ort_inner_broadcast(x_shape, y_shape)
    y_first = y_inner and not x_inner  # the merge keeps Y' first only on this path
    result = np.where(nonzero(y_b), y_b, x_b) if y_first else np.where(nonzero(x_b), x_b, y_b)
    result = np.array(result, copy=True)
    alternatives = (result,)
    if case.dtype == "float16":  # NaNs: canonical, or quieted with the payload kept
        nan = ((result & 0x7C00) == 0x7C00) & ((result & 0x03FF) != 0)
        canonical = np.where(nan, (result & 0x8000) | 0x7E00, result).astype(np.uint16)
        quieted = np.where(nan, result | 0x0200, result).astype(np.uint16)
        alternatives = (canonical, quieted)

    ours = bits_view(out)
    applied = []
    differs = alternatives[0] != ours
    placed_cond = np.broadcast_to(c, out.shape)
    if (differs & (placed_cond != 0) & (placed_cond != 1)).any():
        applied.append("ort-cond-bytes")
    if is_float and (differs & ((ours & ~sign) == 0)).any():
        applied.append("ort-negative-zero")
    if case.dtype == "float16" and (differs & ((ours & 0x7C00) == 0x7C00) & ((ours & 0x03FF) != 0)).any():
        applied.append("ort-f16-nan")
    return alternatives, applied


def _f64_through_f32(values):
    flt_max = float(np.finfo(np.float32).max)
    clamped = np.where(np.isnan(values), values, np.clip(values, -flt_max, flt_max))
    with np.errstate(over="ignore", under="ignore", invalid="ignore"):
        return clamped.astype(np.float32).astype(np.float64)


def ov_expected(case, cond, then, else_, out):
    """OpenVINO's output for clsel's `out` (the CPU plugin's precision conversions). For
    float16 and bfloat16 the conversion depends on the CPU: host.py's probe names it.
    Where bfloat16 is converted, the unchanged value is accepted too (a tuple of
    alternatives), since not every broadcast pattern was seen to take that path."""
    bits = bits_view(out).copy()
    applied = []
    if case.dtype in host.OV_FLOAT_BEHAVIOURS:
        convert, divergence = host.OV_FLOAT_BEHAVIOURS[case.dtype][host.ov_float_behaviour(case.dtype)]
        converted = convert(bits)
        if divergence and not np.array_equal(converted, bits):
            applied.append(divergence)
            return ((converted, bits) if case.dtype == "bfloat16" else converted), applied
    elif case.dtype == "float64":
        converted = bits_view(_f64_through_f32(out.astype(np.float64)))
        if not np.array_equal(converted, bits):
            bits = converted.copy()
            applied.append("ov-f64-as-f32")
    elif case.dtype in ("int64", "uint64"):
        converted = bits_view(out.astype(np.int32).astype(out.dtype))
        if not np.array_equal(converted, bits):
            bits = converted.copy()
            applied.append("ov-i64-as-i32")
    return bits, applied


def ov_pdpd_rejection(case):
    """The documented reason OpenVINO rejects a pdpd case that docs/semantics.md accepts, or None."""
    if case.mode != "pdpd":
        return None
    then_shape = case.shapes[1]
    rank = len(then_shape)
    for shape in (case.shapes[0], case.shapes[2]):
        kept = len(shape)
        while kept and shape[kept - 1] == 1:
            kept -= 1
        start = rank - len(shape) if case.axis == -1 else case.axis
        if case.axis >= 0 and case.axis + len(shape) > rank >= case.axis + kept:
            return "ov-pdpd-trailing-ones"
        if any(shape[i] == 1 and then_shape[start + i] == 0 for i in range(len(shape)) if start + i < rank):
            return "ov-pdpd-one-against-zero"
    if case.axis >= 0 and rank == 0:
        return "ov-pdpd-scalar-axis"
    return None
