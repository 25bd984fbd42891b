"""Every row of tests/system/bad_inputs.json that applies to `clsel run` or the Python binding
(the C API's rows: test_bad_inputs.c), with the status and message parts each must give,
and nothing written: no output file (or temporary file) from the tool, the input arrays
unchanged by the binding.

    python bad_inputs_check.py bad_inputs.json PATH/TO/clsel SCRATCH_DIR
The binding loads the library named by CLSEL_LIBRARY. Exits 77 (skipped) without numpy.
"""
import json
import os
import shutil
import subprocess
import sys

try:
    import numpy as np
except ImportError:
    print("skipped: numpy is not installed")
    sys.exit(77)

TESTS = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..")
sys.path.insert(0, os.path.join(TESTS, "..", "python"))
sys.path.insert(0, os.path.join(TESTS, "conformance"))
import clsel  # noqa: E402
from cases import CLSEL_NAMES  # noqa: E402  (numpy dtype name -> clsel's)

OPERANDS = ("cond", "then", "else")
failures = []


def fields(row, entry):
    """The row with the entry's own overrides applied."""
    merged = {k: v for k, v in row.items() if k not in ("c", "cli", "python")}
    merged.update(row.get(entry, {}))
    return merged


def shape_of(value):
    return tuple(value if isinstance(value, list) else value["dims"])


def dtype_of(row, key):
    """numpy dtype for a clsel dtype name (cond defaults to bool, else to then's); names
    clsel does not know (complex64) pass through to numpy."""
    names = {clsel_name: numpy_name for numpy_name, clsel_name in CLSEL_NAMES.items()}
    default = {"cond_dtype": "boolean", "dtype": "f32", "else_dtype": row.get("dtype", "f32")}[key]
    name = row.get(key, default)
    return np.dtype(names.get(name, name))


def arrays(row, skip=()):
    """Zero arrays of the row's shapes and dtypes, but for the operands in `skip`."""
    keys = {"cond": "cond_dtype", "then": "dtype", "else": "else_dtype"}
    return {op: np.zeros(shape_of(row.get(op, [])), dtype=dtype_of(row, keys[op])) for op in OPERANDS
            if op not in skip}


def expect_message(name, where, message, parts):
    for part in parts:
        if part not in message:
            failures.append(f"{name} via {where}: message {message!r} lacks {part!r}")


def npy_header_file(path, header):
    """A version 1.0 .npy file with exactly this header text (padded), and no data."""
    text = header.encode("latin1")
    pad = (64 - (10 + len(text) + 1) % 64) % 64
    with open(path, "wb") as f:
        f.write(b"\x93NUMPY\x01\x00" + (len(text) + pad + 1).to_bytes(2, "little") + text + b" " * pad + b"\n")


def check_cli(row, tool, scratch):
    name = row["name"]
    folder = os.path.join(scratch, "case")
    shutil.rmtree(folder, ignore_errors=True)
    os.makedirs(folder)
    files = {op: os.path.join(folder, f"{op}.npy") for op in OPERANDS}
    raw = set(row.get("npy", {})) | set(row.get("npy_file", {}))
    for op, array in arrays(row, skip=raw).items():
        np.save(files[op], array)
    for op, header in row.get("npy", {}).items():
        npy_header_file(files[op], header)
    for op, source in row.get("npy_file", {}).items():
        shutil.copyfile(os.path.join(TESTS, source), files[op])
    for op, cut in row.get("truncate", {}).items():
        with open(files[op], "r+b") as f:
            f.truncate(os.path.getsize(files[op]) - cut)
    out = os.path.join(folder, "out.npy")
    command = [tool, "run", files["cond"], files["then"], files["else"], "-o", out]
    for key, option in (("broadcast", "--broadcast"), ("axis", "--axis"), ("cond_broadcast", "--cond-broadcast"),
                        ("device", "--device")):
        if key in row:
            command += [option, str(row[key])]
    result = subprocess.run(command, capture_output=True, text=True)
    want_exit = row.get("exit", 1)
    if result.returncode != want_exit:
        failures.append(f"{name} via clsel run: exit {result.returncode}, expected {want_exit}: {result.stderr}")
    if row.get("status"):
        # the tool prints the library's text for the status (clsel_status_string)
        text = clsel._status_string(clsel.STATUS_NAMES.index(row["status"])).decode()
        expect_message(name, "clsel run", result.stderr, [text])
    expect_message(name, "clsel run", result.stderr, row.get("message", []))
    left = sorted(f for f in os.listdir(folder) if f not in ("cond.npy", "then.npy", "else.npy"))
    if left:
        failures.append(f"{name} via clsel run: left {left} behind")
    print(f"  clsel run      exit {result.returncode}  {result.stderr.strip()}")


def check_python(row):
    name = row["name"]
    inputs = arrays(row)
    before = {op: a.copy() for op, a in inputs.items()}
    kwargs = {key: row[key] for key in ("broadcast", "axis", "cond_broadcast", "device") if key in row}
    try:
        clsel.select(inputs["cond"], inputs["then"], inputs["else"], **kwargs)
    except clsel.ClselError as error:
        if error.status != row["status"]:
            failures.append(f"{name} via Python: {error.status}, expected {row['status']} ({error.message})")
        expect_message(name, "Python", error.message, row.get("message", []))
        print(f"  python         {error.status:28} {error.message}")
    else:
        failures.append(f"{name} via Python: no error, expected {row['status']}")
    for op in OPERANDS:
        if inputs[op].tobytes() != before[op].tobytes():
            failures.append(f"{name} via Python: {op} was written")


def main():
    if len(sys.argv) != 4:
        sys.exit("usage: bad_inputs_check.py bad_inputs.json PATH/TO/clsel SCRATCH_DIR")
    table_path, tool, scratch = sys.argv[1:]
    with open(table_path) as f:
        rows = json.load(f)["cases"]
    counts = {"cli": 0, "python": 0}
    for row in rows:
        entries = [e for e in ("cli", "python") if e in row["entries"]]
        if entries:
            print(f"{row['name']} ({row['spec']})")
        if "cli" in entries:
            check_cli(fields(row, "cli"), tool, scratch)
            counts["cli"] += 1
        if "python" in entries:
            check_python(fields(row, "python"))
            counts["python"] += 1
    print(f"{counts['cli']} rows through clsel run, {counts['python']} through the Python binding")
    for failure in failures:
        print("FAILED:", failure, file=sys.stderr)
    sys.exit(1 if failures or not all(counts.values()) else 0)


if __name__ == "__main__":
    main()
