#!/usr/bin/env python3
"""Writes the seed corpus of the fuzz harnesses (tests/fuzz/corpus/NAME/): inputs that
reach each harness's main branches, so that a 60-second run starts from the interesting
places rather than from nothing. The bytes follow each harness's own decoding (see the
harness sources). Re-run after changing a harness's input format:

    python3 tests/fuzz/make_seeds.py
"""
import os
import struct

HERE = os.path.dirname(os.path.abspath(__file__))

# fuzz_input.h's dim table: index of each value.
DIM = {0: 0, 1: 1, 2: 4, 3: 5, 4: 6, 5: 7, 7: 8, 8: 9, 16: 10, 31: 11, -1: 12, -7: 13, 1 << 31: 14, 1 << 40: 15,
       1 << 62: 16, "max": 17, "min": 18}
DTYPE = {"boolean": 1, "u8": 2, "i8": 3, "u16": 4, "i16": 5, "f16": 6, "bf16": 7, "u32": 8, "i32": 9, "f32": 10,
         "u64": 11, "i64": 12, "f64": 13}
MODE = {"numpy": 0, "none": 1, "pdpd": 2}


def plan_seed(dtype, mode, cond_rule, axis, shapes):
    out = bytes([DTYPE.get(dtype, dtype) if isinstance(dtype, str) else dtype, MODE.get(mode, mode), cond_rule,
                 axis & 0xFF])
    for shape in shapes:
        if shape is None:  # rank -1
            out += bytes([0])
            continue
        out += bytes([len(shape) + 1])
        out += bytes(DIM[d] for d in shape)
    return out


def cpu_seed(dtype, mode, cond_rule, axis, shapes, data=b""):
    out = bytes([DTYPE[dtype] - 1, MODE[mode], cond_rule, axis + 1])
    for shape in shapes:
        out += bytes([len(shape)]) + bytes(shape)
    return out + data


def npy(descr, shape, data, version=1, fortran=False, pad=True):
    header = "{'descr': '%s', 'fortran_order': %s, 'shape': (%s), }" % (
        descr, "True" if fortran else "False", "".join(f"{d}, " for d in shape) if len(shape) != 1 else f"{shape[0]},")
    prefix = 10 if version == 1 else 12
    if pad:
        header += " " * ((64 - (prefix + len(header) + 1) % 64) % 64)
    header += "\n"
    size = struct.pack("<H", len(header)) if version == 1 else struct.pack("<I", len(header))
    return b"\x93NUMPY" + bytes([version, 0]) + size + header.encode("latin1") + data


SEEDS = {
    "plan": {
        "numpy_basic": plan_seed("f32", "numpy", 0, -1, [[3, 4], [2, 3, 4], [4]]),
        "numpy_bad": plan_seed("f32", "numpy", 0, -1, [[3, 5], [2, 3, 4, 5], [5]]),
        "numpy_two_way": plan_seed("i64", "numpy", 1, -1, [[2, 1, 4], [3, 1], [1]]),
        "none_equal": plan_seed("u8", "none", 0, -1, [[2, 3], [2, 3], [2, 3]]),
        "pdpd_axis1": plan_seed("f16", "pdpd", 0, 1, [[3, 4], [2, 3, 4, 5], [3]]),
        "pdpd_axis_bad": plan_seed("f16", "pdpd", 0, 7, [[3], [2, 3], [3]]),
        "pdpd_trailing_ones": plan_seed("bf16", "pdpd", 0, -1, [[4, 1, 1], [2, 3, 4], [1]]),
        "zero_dims": plan_seed("f64", "numpy", 0, -1, [[0, 3], [1, 3], [0, 1]]),
        "negative_dim": plan_seed("f32", "numpy", 0, -1, [[-1], [3], [3]]),
        "rank_bad": plan_seed("f32", "numpy", 0, -1, [None, [3], [3]]),
        "overflow": plan_seed("f64", "numpy", 0, -1, [[1 << 31], [1 << 31], [1 << 31, 1 << 31]]),
        "huge_dim": plan_seed("u8", "numpy", 0, -1, [["max"], [1], [1]]),
        "unknown_mode": plan_seed("f32", 3, 0, -1, [[2], [2], [2]]),
        "unknown_dtype": plan_seed(15, "numpy", 0, -1, [[2], [2], [2]]),
        "rank8": plan_seed("u16", "numpy", 0, -1, [[2, 1, 2, 1, 2, 1, 2, 1], [1, 2, 1, 2, 1, 2, 1, 2], []]),
    },
    "cpu": {
        "same_shape": cpu_seed("f32", "numpy", 0, -1, [[2, 3], [2, 3], [2, 3]], bytes(range(64))),
        "scalars": cpu_seed("u8", "numpy", 1, -1, [[3, 4], [], []], bytes(range(1, 40))),
        "mutual": cpu_seed("i16", "numpy", 0, -1, [[1], [4, 1, 5], [1, 3, 1]], b"\x00\xff" * 40),
        "none_mode": cpu_seed("f64", "none", 0, -1, [[2, 2], [2, 2], [2, 2]], bytes(range(100))),
        "pdpd": cpu_seed("bf16", "pdpd", 0, 1, [[3], [2, 3, 4], [3, 1]], bytes(range(200))),
        "empty": cpu_seed("boolean", "numpy", 0, -1, [[0, 3], [3], [1]]),
        "rank5": cpu_seed("u64", "numpy", 1, -1, [[2, 1, 2, 1, 2], [1, 2, 1, 2, 1], [2]], bytes(range(255))),
    },
    "npy": {
        "f32_2x3": npy("<f4", [2, 3], struct.pack("<6f", 1, -0.0, 2, 3, float("nan"), 4)),
        "u8_vector": npy("|u1", [5], bytes(range(5))),
        "bool_scalar": npy("|b1", [], b"\x01"),
        "bf16_void": npy("|V2", [2], b"\x80\x3f\x00\x40"),
        "f64_v2": npy("<f8", [1, 1], struct.pack("<d", 1.5), version=2),
        "i64_empty": npy("<i8", [0, 4], b""),
        "big_endian": npy(">f4", [1], b"\x3f\x80\x00\x00"),
        "fortran": npy("<f4", [2, 2], bytes(16), fortran=True),
        "truncated_data": npy("<i4", [4], bytes(10)),
        "rank9": npy("|u1", [1] * 9, b"\x00"),
        "bad_magic": b"\x93NUMPX\x01\x00\x10\x00{'descr': '<f4'}\n",
        "header_overflow": b"\x93NUMPY\x01\x00\xff\xff{'descr': '<f4', ",
        "unterminated": npy("<f4", [1], bytes(4)).replace(b"}", b" ", 1),
        "huge_shape": npy("|u1", [9223372036854775807, 2], b""),
    },
}


def main():
    for harness, seeds in SEEDS.items():
        folder = os.path.join(HERE, "corpus", harness)
        os.makedirs(folder, exist_ok=True)
        for name, data in seeds.items():
            with open(os.path.join(folder, name), "wb") as f:
                f.write(data)
    print("wrote", sum(len(s) for s in SEEDS.values()), "seeds")


if __name__ == "__main__":
    main()
