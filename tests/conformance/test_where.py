"""clsel.where against numpy.where: numpy's rules (any cond dtype, Python scalars and
lists, type promotion, two-way broadcasting, layouts, byte orders), compared bit for bit
on seeded random cases, plus the edges numpy defines (one argument, errors)."""
import warnings

import numpy as np
import pytest

import clsel
from cases import random_values

NUMERIC = ["bool", "uint8", "int8", "uint16", "int16", "float16", "uint32", "int32", "float32", "uint64", "int64",
           "float64"]
PYTHON_SCALARS = [0, 1, -1, 300, 2.5, -0.0, float("nan"), True, False]


def same(got, want, context):
    assert isinstance(got, np.ndarray), context
    assert got.dtype == want.dtype, (context, got.dtype, want.dtype)
    assert got.shape == want.shape, (context, got.shape, want.shape)
    assert got.tobytes() == want.tobytes(), context  # the bits, in C order


def random_shapes(rng):
    """Three shapes that broadcast two ways: each operand a random subset of the output's
    dims kept, leading dims dropped now and then."""
    rank = int(rng.integers(0, 5))
    out = [int(rng.choice([1, 2, 3, 5, 8, 17])) for _ in range(rank)]
    shapes = []
    for _ in range(3):
        shape = [d if rng.random() < 0.6 else 1 for d in out]
        shapes.append(tuple(shape[int(rng.integers(0, rank + 1)):] if rng.random() < 0.3 else shape))
    return shapes


def random_operand(rng, shape, dtype_name):
    """An array of random bits, or now and then a Python scalar, a list, a numpy scalar,
    a transposed view or a big-endian copy."""
    kind = rng.random()
    if kind < 0.12:
        return PYTHON_SCALARS[int(rng.integers(0, len(PYTHON_SCALARS)))]
    values = random_values(rng, shape, dtype_name)
    if kind < 0.2:
        return values.tolist()
    if kind < 0.25 and values.ndim == 0:
        return values[()]  # a numpy scalar
    if kind < 0.35 and values.ndim >= 2:
        return np.ascontiguousarray(values.swapaxes(0, 1)).swapaxes(0, 1)  # not C-contiguous
    if kind < 0.45 and values.dtype.itemsize > 1:
        return values.astype(values.dtype.newbyteorder(">"))
    return values


def random_cond(rng, shape):
    """A cond of any numeric dtype, with zeros, NaN and -0.0 where floats allow."""
    name = NUMERIC[int(rng.integers(0, len(NUMERIC)))]
    if name == "bool":
        return rng.random(shape) < 0.5
    values = rng.integers(0, 3, size=shape).astype(name)
    if values.dtype.kind == "f" and values.size:
        flat = values.reshape(-1)
        flat[rng.random(flat.size) < 0.2] = np.nan
        flat[rng.random(flat.size) < 0.2] = -0.0
    return values


@pytest.mark.parametrize("seed", range(4))
def test_random_cases_match_numpy_where(seed):
    rng = np.random.default_rng(1000 + seed)
    ran = 0
    for case in range(400):
        cond_shape, x_shape, y_shape = random_shapes(rng)
        names = [NUMERIC[int(rng.integers(0, len(NUMERIC)))] for _ in range(2)]
        if rng.random() < 0.5:
            names[1] = names[0]
        cond = random_cond(rng, cond_shape)
        x, y = random_operand(rng, x_shape, names[0]), random_operand(rng, y_shape, names[1])
        if rng.random() < 0.1:
            cond = cond.tolist() if isinstance(cond, np.ndarray) else cond
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # casts that overflow warn the same on both sides
            try:
                want = np.where(cond, x, y)
            except (ValueError, OverflowError, TypeError) as error:
                with pytest.raises(type(error)):
                    clsel.where(cond, x, y)
                continue
            got = clsel.where(cond, x, y, device="cpu" if case % 2 else "auto")
        same(got, want, (seed, case, cond_shape, x_shape, y_shape, names, type(x).__name__, type(y).__name__))
        ran += 1
    assert ran > 300


def test_promotion_and_python_scalars():
    cond = np.array([True, False, True])
    for x, y in [(np.int8([1, 2, 3]), 300), (np.uint8([1, 2, 3]), -1), (np.int8([1, 2, 3]), 1.5), (1, 2.0),
                 (True, 0), ([1, 2, 3], [3.0, 4.0, 5.0]), (np.float32([1, 2, 3]), np.float64(2)),
                 (np.float16([1, 2, 3]), 7), (np.int32([1, 2, 3]), np.uint32([4, 5, 6]))]:
        same(clsel.where(cond, x, y), np.where(cond, x, y), (x, y))


def test_cond_rules():
    x, y = np.arange(5, dtype=np.int16), np.int16(-1)
    for cond in [np.array([0.0, -0.0, np.nan, 1e-30, -2.0]), np.array([0, 2, 255, 1, 0], np.uint8),
                 np.array([0, -1, 7, 0, 1], np.int64), [0, 1, 0, 1, 1], np.float16([0, 1, 0, np.inf, -0.0])]:
        same(clsel.where(cond, x, y), np.where(cond, x, y), cond)


def test_two_way_broadcast_and_out():
    cond = np.array([[True], [False]])  # [2,1] against [3]: cond grows the result
    x, y = np.arange(3, dtype=np.float32), np.float32(-1)
    same(clsel.where(cond, x, y), np.where(cond, x, y), "two-way")
    out = np.empty((2, 3), np.float32)
    assert clsel.where(cond, x, y, out=out) is out
    same(out, np.where(cond, x, y), "out")
    with pytest.raises(clsel.ClselError):
        clsel.where(cond, x, y, out=np.empty((2, 3), np.float64))  # the result's dtype is float32


def test_what_numpy_defines_beyond_select():
    cond = np.array([[0, 3], [4, 0]])
    got, want = clsel.where(cond), np.where(cond)
    assert len(got) == len(want) and all(np.array_equal(g, w) for g, w in zip(got, want))
    with pytest.raises(ValueError):
        clsel.where(cond, 1)
    with pytest.raises(ValueError):  # shapes that do not broadcast: numpy's own error
        clsel.where(np.ones(3, bool), np.ones(4), np.ones(5))
    same(clsel.where([True, False], [1j, 2], 3), np.where([True, False], [1j, 2], 3), "complex: numpy's")
    deep = np.ones((1,) * 9 + (2,), bool)
    same(clsel.where(deep, 1.0, 2.0), np.where(deep, 1.0, 2.0), "rank 10: numpy's")
    same(clsel.where(True, 1, 2), np.where(True, 1, 2), "rank 0")
