"""Seeded random Select cases: shapes for every broadcast mode, data with special values.

A Case holds the attributes and the three input shapes; `make_data` fills them. Shapes
are generated valid for the mode most of the time and broken on purpose otherwise, so
that shape errors are compared too.
"""
import dataclasses

import numpy as np

try:
    import ml_dtypes
except ImportError:  # bfloat16 cases are then left out
    ml_dtypes = None

DIMS = (1, 1, 2, 2, 3, 4, 5, 7)
ALL_DTYPES = ["bool", "uint8", "int8", "uint16", "int16", "float16", "bfloat16", "uint32", "int32", "float32",
              "uint64", "int64", "float64"]
CLSEL_NAMES = {"bool": "boolean", "uint8": "u8", "int8": "i8", "uint16": "u16", "int16": "i16", "float16": "f16",
               "bfloat16": "bf16", "uint32": "u32", "int32": "i32", "float32": "f32", "uint64": "u64",
               "int64": "i64", "float64": "f64"}
# Bit patterns worth having in every float tensor: NaN payloads, signalling NaNs, -0.0,
# infinities, denormals, the largest values.
SPECIALS = {
    "float16": [0x7E01, 0x7C01, 0xFDFF, 0x8000, 0x7C00, 0xFC00, 0x0001, 0x83FF, 0x7BFF],
    "bfloat16": [0x7FC1, 0x7F81, 0xFF81, 0x8000, 0x7F80, 0xFF80, 0x0001, 0x807F, 0x7F7F],
    "float32": [0x7FC00001, 0x7F800001, 0xFFC12345, 0x80000000, 0x7F800000, 0xFF800000, 0x00000001,
                0x807FFFFF, 0x7F7FFFFF],
    "float64": [0x7FF8000000000001, 0x7FF0000000000001, 0xFFF8DEADBEEF0001, 0x8000000000000000,
                0x7FF0000000000000, 0xFFF0000000000000, 0x0000000000000001, 0x800FFFFFFFFFFFFF,
                0x7FEFFFFFFFFFFFFF, 0x47EFFFFFF0000000],
}
COND_BYTES = np.array([0x00, 0x00, 0x00, 0x01, 0x01, 0x02, 0x80, 0xFF, 0x7F], dtype=np.uint8)


def numpy_dtype(name):
    if name == "bfloat16":
        return np.dtype(ml_dtypes.bfloat16)
    return np.dtype(name)


def bits_view(array):
    """The raw bits of an array as unsigned integers of its width (bool as uint8)."""
    return np.asarray(array).view(f"u{np.asarray(array).dtype.itemsize}")


@dataclasses.dataclass
class Case:
    mode: str  # numpy | none | pdpd
    axis: int
    cond_broadcast: str  # one-way | bidirectional
    shapes: tuple  # (cond, then, else)
    dtype: str
    seed: int

    def label(self):
        c, t, e = self.shapes
        extra = f" axis {self.axis}" if self.mode == "pdpd" else ""
        two = " bidirectional" if self.cond_broadcast == "bidirectional" else ""
        return f"{self.mode}{extra}{two} {self.dtype} cond {c} then {t} else {e} (seed {self.seed})"


def random_shape(rng, max_rank=6, max_elements=2048):
    while True:
        rank = int(rng.integers(0, max_rank + 1))
        dims = tuple(int(rng.choice(DIMS)) for _ in range(rank))
        if rng.random() < 0.03 and rank:
            dims = tuple(0 if i == 0 else d for i, d in enumerate(dims))
        if int(np.prod([d or 1 for d in dims])) <= max_elements:
            return dims


def numpy_input(rng, out):
    """A right-aligned suffix of `out`, each dim kept or replaced by 1."""
    rank = len(out) if rng.random() < 0.5 else int(rng.integers(0, len(out) + 1))
    tail = out[len(out) - rank:]
    return tuple(1 if rng.random() < 0.3 else d for d in tail)


def pdpd_input(rng, then_shape, start, length, trailing_ones):
    dims = [1 if rng.random() < 0.3 else then_shape[start + i] for i in range(length)]
    return tuple(dims + [1] * trailing_ones)


def break_shape(rng, shapes):
    """Replaces one dim of one input, so that the case is usually invalid."""
    shapes = list(shapes)
    which = int(rng.integers(0, 3))
    if shapes[which]:
        dims = list(shapes[which])
        dims[int(rng.integers(0, len(dims)))] = int(rng.choice((2, 3, 6)))
        shapes[which] = tuple(dims)
    return tuple(shapes)


def numpy_case(rng, dtype, seed, enlarging_cond=False, broken=False, max_rank=6):
    """numpy mode. With enlarging_cond, cond carries dims then and else lack (valid only
    two-way); otherwise cond fits one way onto broadcast(then, else)."""
    out = random_shape(rng, max_rank)
    then_shape, else_shape = numpy_input(rng, out), numpy_input(rng, out)
    values = np.broadcast_shapes(then_shape, else_shape)
    if enlarging_cond:
        cond = out
        cond_broadcast = "bidirectional"
    else:
        cond = numpy_input(rng, values)
        cond_broadcast = "one-way"
    shapes = (cond, then_shape, else_shape)
    if broken:
        shapes = break_shape(rng, shapes)
    return Case("numpy", -1, cond_broadcast, shapes, dtype, seed)


def none_case(rng, dtype, seed, broken=False, max_rank=6):
    out = random_shape(rng, max_rank)
    shapes = (out, out, out)
    if broken:
        shapes = break_shape(rng, shapes)
    return Case("none", -1, "one-way", shapes, dtype, seed)


def pdpd_case(rng, dtype, seed, explicit_axis, equal_ranks=False, trailing_ones=False, broken=False, max_rank=6):
    """pdpd mode: then is the output; cond and else placed from `axis` (explicit) or from
    rank(then) - rank(input) (axis -1). equal_ranks keeps rank(cond) == rank(else) under
    axis -1; trailing_ones appends 1s past the placed dims."""
    out = random_shape(rng, max_rank)
    rank = len(out)
    if explicit_axis:
        axis = int(rng.integers(0, rank + 1))
        lengths = [int(rng.integers(0, rank - axis + 1)) for _ in range(2)]
        starts = [axis, axis]
    else:
        axis = -1
        lengths = [int(rng.integers(0, rank + 1)) for _ in range(2)]
        if equal_ranks:
            lengths[1] = lengths[0]
        starts = [rank - n for n in lengths]
    ones = [int(rng.integers(1, 3)) if trailing_ones and explicit_axis else 0 for _ in range(2)]
    cond = pdpd_input(rng, out, starts[0], lengths[0], ones[0])
    else_shape = pdpd_input(rng, out, starts[1], lengths[1], ones[1])
    shapes = (cond, out, else_shape)
    if broken:
        shapes = break_shape(rng, shapes)
    return Case("pdpd", axis, "one-way", shapes, dtype, seed)


def random_values(rng, shape, dtype_name):
    """Random bits of the dtype with special values mixed in; bool as 0/1."""
    dtype = numpy_dtype(dtype_name)
    count = int(np.prod(shape, dtype=np.int64))
    if dtype_name == "bool":
        return rng.integers(0, 2, size=count).astype(np.bool_).reshape(shape)
    width = dtype.itemsize
    bits = rng.integers(0, 2 ** (8 * width), size=count, dtype=np.uint64).astype(f"u{width}")
    specials = SPECIALS.get(dtype_name)
    if specials and count:
        picks = rng.random(count) < 0.25
        bits[picks] = np.array(specials, dtype=f"u{width}")[rng.integers(0, len(specials), size=int(picks.sum()))]
    return bits.view(dtype).reshape(shape)


def random_cond(rng, shape, canonical=False):
    """cond as a bool array; unless canonical, its bytes include 0x02, 0x80, 0xFF, 0x7F."""
    count = int(np.prod(shape, dtype=np.int64))
    if canonical:
        return rng.integers(0, 2, size=count).astype(np.bool_).reshape(shape)
    return rng.choice(COND_BYTES, size=count).view(np.bool_).reshape(shape)


def make_data(case, canonical_cond=False):
    rng = np.random.default_rng(case.seed + 7919)
    cond = random_cond(rng, case.shapes[0], canonical_cond)
    then = random_values(rng, case.shapes[1], case.dtype)
    else_ = random_values(rng, case.shapes[2], case.dtype)
    return cond, then, else_


def pdpd_aligned(shape, out_rank, axis):
    """The shape an input takes inside then under pdpd (docs/semantics.md, pdpd mode), for numpy.where:
    placed from the per-input start, trailing 1s dropped, padded with 1s."""
    start = out_rank - len(shape) if axis == -1 else axis
    kept = len(shape)
    while kept and shape[kept - 1] == 1:
        kept -= 1
    return (1,) * start + tuple(shape[:kept]) + (1,) * (out_rank - start - kept)
