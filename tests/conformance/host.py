"""What the machine the suite runs on does to a peer's floats.

OpenVINO's CPU plugin moves float16 and bfloat16 data through float32 conversions that
depend on the CPU: on a CPU with native bfloat16 conversion (AVX-512 BF16, which the plugin
reports as the `BF16` optimization capability) a bfloat16 signalling NaN comes out quiet
and a subnormal comes out as a zero of its sign; elsewhere bfloat16 passes unchanged. So
the suite does not assume a CPU: it probes OpenVINO once per session with a few known bit
patterns, names the behaviour it saw from the table below (divergences.py turns that name
into the expected output), and records the CPU's flags and OpenVINO's capabilities beside
it for the report. A behaviour outside the table fails the run.

CLSEL_CONFORMANCE_HOST=avx512_bf16 checks the suite's other branch on a CPU that lacks the
feature: OpenVINO is made to report `BF16`, and its bfloat16 outputs pass through an
emulation of the hardware conversion (VCVTNEPS2BF16: subnormal inputs read as zero, NaNs
quieted) before the suite sees them. The emulation is idempotent, so the forced run also
passes on a CPU that has the feature.
"""
import functools
import os
import platform

import numpy as np

FORCED = os.environ.get("CLSEL_CONFORMANCE_HOST", "")
FORCEABLE = ("", "avx512_bf16")
if FORCED not in FORCEABLE:
    raise RuntimeError(f"CLSEL_CONFORMANCE_HOST={FORCED!r}: expected one of {FORCEABLE[1:]} or unset")

# The CPU flags that decide OpenVINO's float conversions (recorded, not relied on).
RELEVANT_FLAGS = ("avx2", "f16c", "avx512f", "avx512bw", "avx512vl", "avx512_bf16", "avx512_fp16", "avx_ne_convert",
                  "amx_bf16", "amx_fp16")


def cpu_flags():
    """The processor's feature flags as Linux reports them (empty elsewhere)."""
    try:
        with open("/proc/cpuinfo") as f:
            for line in f:
                if line.startswith("flags"):
                    return set(line.split(":", 1)[1].split())
    except OSError:
        pass
    return set()


def cpu_name():
    try:
        with open("/proc/cpuinfo") as f:
            for line in f:
                if line.startswith("model name"):
                    return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or platform.machine()


# ---- the float behaviours OpenVINO has been seen to have ----------------------------------
#
# Each maps a peer-independent description of the expected bits (a function of clsel's
# exact output bits) to a name. The quiet bit is the top mantissa bit: 0x0200 in float16,
# 0x0040 in bfloat16.

def _quiet_snan(bits, exponent, quiet):
    nan = ((bits & exponent) == exponent) & ((bits & (quiet * 2 - 1)) != 0)
    return np.where(nan, bits | quiet, bits).astype(bits.dtype)


def _flush_subnormals(bits, exponent, sign):
    return np.where((bits & exponent) == 0, bits & sign, bits).astype(bits.dtype)


def _f16_quiets(bits):
    return _quiet_snan(bits, 0x7C00, 0x0200)


def _bf16_quiets_and_flushes(bits):
    return _flush_subnormals(_quiet_snan(bits, 0x7F80, 0x0040), 0x7F80, 0x8000)


# dtype -> {behaviour name: (expected bits from exact bits, the divergence it documents)}
OV_FLOAT_BEHAVIOURS = {
    "float16": {
        "exact": (lambda bits: bits, None),
        "quiets-snan": (_f16_quiets, "ov-f16-quiets-snan"),
    },
    "bfloat16": {
        "exact": (lambda bits: bits, None),
        "quiets-snan-flushes-subnormals": (_bf16_quiets_and_flushes, "ov-bf16-native-conversion"),
    },
}

# Which behaviour each kind of host is documented to have (docs/conformance.md), keyed by
# whether OpenVINO reports the capability. A disagreement is reported, not failed: the
# probe is what the suite trusts.
OV_FLOAT_EXPECTED = {
    "float16": {"FP16": None, "": "quiets-snan"},  # no CPU with the FP16 capability was seen
    "bfloat16": {"BF16": "quiets-snan-flushes-subnormals", "": "exact"},
}

# Every pattern the behaviours tell apart: signalling and quiet NaNs of both signs,
# subnormals (smallest, largest, negative), zeros, infinities, ordinary numbers.
PROBE_BITS = {
    "float16": [0x7C01, 0xFC01, 0x7DFF, 0x7E01, 0xFE00, 0x0001, 0x03FF, 0x8001, 0x83FF, 0x0000, 0x8000, 0x7C00,
                0xFC00, 0x3C00, 0xC000, 0x7BFF, 0x0400],
    "bfloat16": [0x7F81, 0xFF81, 0x7FBF, 0x7FC1, 0xFFC0, 0x0001, 0x007F, 0x8001, 0x807F, 0x0000, 0x8000, 0x7F80,
                 0xFF80, 0x3F80, 0xC000, 0x7F7F, 0x0080],
}


def emulate_native_bf16(bits):
    """What a bfloat16 value becomes through the hardware conversion pair (widen to
    float32 by a shift, narrow with VCVTNEPS2BF16): a subnormal float32 input is read as
    zero, a NaN is made quiet, and a float32 with a zero low half narrows exactly."""
    wide = (bits.astype(np.uint32) << 16).view(np.float32)
    tiny = np.finfo(np.float32).tiny
    wide = np.where((np.abs(wide) < tiny) & (wide != 0), np.copysign(np.float32(0), wide), wide)
    wide_bits = wide.astype(np.float32).view(np.uint32)
    wide_bits = np.where(np.isnan(wide), wide_bits | np.uint32(0x00400000), wide_bits)
    return (wide_bits >> 16).astype(np.uint16)


def forced_output(dtype, array):
    """A peer's output as the forced host would have produced it (unchanged when not forced)."""
    if FORCED == "avx512_bf16" and dtype == "bfloat16":
        return emulate_native_bf16(np.asarray(array).view(np.uint16)).view(array.dtype).reshape(array.shape)
    return array


def ov_capabilities(core):
    caps = list(core.get_property("CPU", "OPTIMIZATION_CAPABILITIES"))
    if FORCED == "avx512_bf16" and "BF16" not in caps:
        caps.append("BF16")
    return caps


def _run_probe(dtype):
    """OpenVINO's Select on the probe patterns (cond all true); returns the output bits."""
    from cases import Case, numpy_dtype
    from peers import ov_select

    then = np.array(PROBE_BITS[dtype], np.uint16).view(numpy_dtype(dtype))
    cond, else_ = np.ones(then.shape, bool), np.zeros(then.shape, then.dtype)
    case = Case("numpy", -1, "one-way", (then.shape, then.shape, then.shape), dtype, 0)
    return np.asarray(ov_select(case, cond, then, else_)).view(np.uint16)


@functools.lru_cache(maxsize=None)
def ov_float_behaviour(dtype):
    """The name of the behaviour OpenVINO shows on this host for a float dtype, from the
    probe; raises when the probe matches none of OV_FLOAT_BEHAVIOURS."""
    exact = np.array(PROBE_BITS[dtype], np.uint16)
    seen = _run_probe(dtype)
    for name, (expected, _) in OV_FLOAT_BEHAVIOURS[dtype].items():
        if np.array_equal(seen, expected(exact)):
            return name
    pairs = ", ".join(f"{a:#06x}->{b:#06x}" for a, b in zip(exact.tolist(), seen.tolist()) if a != b)
    raise AssertionError(f"OpenVINO changes {dtype} values in a way no documented behaviour explains on "
                         f"{cpu_name()}: {pairs} (tests/conformance/host.py lists the known ones)")


def ov_expected_behaviour(dtype, capabilities):
    """The behaviour docs/conformance.md says a host with these capabilities has, or None."""
    table = OV_FLOAT_EXPECTED[dtype]
    keys = [k for k in table if k and k in capabilities]
    return table[keys[0]] if keys else table[""]


def describe(core):
    """The host as the report prints it."""
    caps = ov_capabilities(core)
    flags = cpu_flags()
    seen = {}
    for dtype in OV_FLOAT_BEHAVIOURS:
        name = ov_float_behaviour(dtype)
        seen[dtype] = {"behaviour": name, "documented": ov_expected_behaviour(dtype, caps)}
    return {"cpu": cpu_name(), "flags": sorted(f for f in RELEVANT_FLAGS if f in flags), "forced": FORCED,
            "openvino_capabilities": caps, "openvino_floats": seen}
