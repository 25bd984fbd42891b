"""The clsel tool against numpy itself: inputs written by numpy.save, the output read by
numpy.load, compared bit for bit with numpy.where, for numpy-mode cases with two-way
cond broadcasting off (cases valid one way) and on (cond enlarging the output).

    python cli_numpy_check.py PATH/TO/clsel SCRATCH_DIR
Exits 77 (skipped) when numpy is not installed.
"""
import os
import subprocess
import sys

try:
    import numpy as np
except ImportError:
    print("skipped: numpy is not installed")
    sys.exit(77)
try:
    import ml_dtypes
except ImportError:
    ml_dtypes = None

DTYPES = [np.bool_, np.uint8, np.int8, np.uint16, np.int16, np.float16, np.uint32, np.int32,
          np.float32, np.uint64, np.int64, np.float64]
if ml_dtypes is not None:
    DTYPES.append(ml_dtypes.bfloat16)


def random_values(rng, shape, dtype):
    """Random bit patterns (NaNs, -0.0, infinities included) of the dtype."""
    itemsize = np.dtype(dtype).itemsize
    bits = rng.integers(0, 256, size=int(np.prod(shape, dtype=np.int64)) * itemsize, dtype=np.uint8)
    if dtype == np.bool_:
        return (bits % 2).astype(np.bool_).reshape(shape)
    return bits.view(dtype).reshape(shape)


def sub_shape(rng, shape):
    """A right-aligned suffix of shape with some dims replaced by 1."""
    rank = int(rng.integers(0, len(shape) + 1))
    tail = shape[len(shape) - rank:]
    return tuple(1 if rng.random() < 0.3 else d for d in tail)


def as_bits(a):
    return a.view(np.uint8) if a.dtype.itemsize == 1 else a.view(f"u{a.dtype.itemsize}")


def run_case(tool, folder, rng, two_way, index):
    out_shape = tuple(int(d) for d in rng.integers(1, 5, size=int(rng.integers(0, 5))))
    dtype = DTYPES[index % len(DTYPES)]
    then_shape, else_shape = sub_shape(rng, out_shape), sub_shape(rng, out_shape)
    values_shape = np.broadcast_shapes(then_shape, else_shape)
    if two_way:  # cond carries dims that then and else lack: it enlarges the output
        cond_shape = out_shape
        then_shape, else_shape = then_shape[1:] if then_shape else (), else_shape[1:] if else_shape else ()
    else:  # cond fits one way onto broadcast(then, else)
        cond_shape = sub_shape(rng, values_shape)
    cond = rng.integers(0, 2, size=cond_shape).astype(np.bool_)
    if index % 3 == 0:  # a u8 cond with bytes other than 0/1
        cond = rng.choice(np.array([0, 1, 2, 0x80, 0xFF], dtype=np.uint8), size=cond_shape)
    then_v = random_values(rng, then_shape, dtype)
    else_v = random_values(rng, else_shape, dtype)
    paths = [os.path.join(folder, f"{name}.npy") for name in ("c", "t", "e", "o")]
    for path, array in zip(paths, (cond, then_v, else_v)):
        np.save(path, array)
    args = [tool, "run", *paths[:3], "-o", paths[3]]
    if two_way:
        args += ["--cond-broadcast", "bidirectional"]
    if index % 4:  # every fourth case on the default device; the rest skip its start-up cost
        args += ["--device", "cpu"]
    result = subprocess.run(args, capture_output=True, text=True)
    expected = np.where(cond, then_v, else_v)
    label = f"case {index}: {np.dtype(dtype).name} cond {cond_shape} then {then_shape} else {else_shape}"
    if result.returncode != 0:
        return f"{label}: exit {result.returncode}: {result.stderr.strip()}"
    got = np.load(paths[3])
    if dtype is not np.bool_ and ml_dtypes is not None and dtype == ml_dtypes.bfloat16:
        got = got.view(ml_dtypes.bfloat16)  # .npy stores bfloat16 as a 2-byte void
    if got.shape != expected.shape or got.dtype != expected.dtype:
        return f"{label}: got {got.dtype}{got.shape}, numpy.where gives {expected.dtype}{expected.shape}"
    if not np.array_equal(as_bits(got), as_bits(expected)):
        return f"{label}: values differ from numpy.where"
    return None


def main():
    tool, folder = sys.argv[1], sys.argv[2]
    os.makedirs(folder, exist_ok=True)
    rng = np.random.default_rng(20261122)
    failures = []
    cases = 0
    for two_way in (False, True):
        for index in range(120):
            failure = run_case(tool, folder, rng, two_way, index)
            cases += 1
            if failure:
                failures.append(failure)
    for failure in failures[:20]:
        print("FAIL", failure)
    print(f"cli_numpy_check: {cases} cases (numpy {np.__version__}), {len(failures)} failed")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
