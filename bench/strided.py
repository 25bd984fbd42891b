#!/usr/bin/env python3
"""Strided tensors: clsel on views against numpy.where on the same views and against
"copy to dense, then select", and against its own dense figure, in one process.

  PYTHONPATH=python:bench build/venv/bin/python bench/strided.py [--repeat N] [--rows R] [--cols C]
      [--dtype float32] [--markdown docs/performance.md]

With --markdown, the table also replaces the "Strided tensors" section of that file (between
its markers, or appended), which bench/run.sh does after bench/report.py writes the rest.

Per layout, the median of interleaved timed calls (bench_timing.time_calls) of (clsel and
copy+sel write into an output allocated once, C-contiguous or the layout's own view;
numpy.where allocates its result, as it must):
  numpy      numpy.where(cond, x, y) on the views (one thread);
  copy+sel   numpy.ascontiguousarray of every view that is not C-contiguous, then
             clsel.where on the dense copies (and the result copied into an output view);
  clsel 1t   clsel.where on the views, the CPU path on one thread;
  clsel      the same on every core.
The layouts (every tensor R x C, each view over a larger buffer):
  dense          C-contiguous (the reference: "% of dense" compares with it)
  padded rows    every tensor, the output too, rows of C elements 64 elements apart
  transposed     every input transposed, the result laid out alike (numpy's order "K")
  transposed->C  every input transposed, the output C-contiguous (a true transpose)
  every other    every input a[:, ::2] of a 2C-wide array, the output dense
  reversed       every input reversed along both axes
  broadcast_to   then a row repeated by numpy.broadcast_to (stride 0), the rest dense
"""
import argparse
import ctypes
import datetime
import os
import statistics

import numpy as np

import bench_timing
from markdown_section import cpu_name, replace_section
import clsel


def layouts(rng, rows, cols, dtype):
    def values(shape):
        return rng.standard_normal(shape).astype(dtype)

    def mask(shape):
        return rng.random(shape) < 0.5

    def padded(make):
        return make((rows, cols + 64))[:, :cols]

    cases = {"dense": ((mask((rows, cols)), values((rows, cols)), values((rows, cols))), np.empty((rows, cols), dtype))}
    cases["padded rows"] = ((padded(mask), padded(values), padded(values)), padded(values))
    t = (mask((cols, rows)).T, values((cols, rows)).T, values((cols, rows)).T)
    cases["transposed"] = (t, np.empty((cols, rows), dtype).T)
    cases["transposed->C"] = (t, np.empty((rows, cols), dtype))
    cases["every other"] = ((mask((rows, 2 * cols))[:, ::2], values((rows, 2 * cols))[:, ::2],
                             values((rows, 2 * cols))[:, 1::2]), np.empty((rows, cols), dtype))
    cases["reversed"] = ((mask((rows, cols))[::-1, ::-1], values((rows, cols))[::-1, ::-1],
                          values((rows, cols))[::-1, ::-1]), np.empty((rows, cols), dtype))
    cases["broadcast_to"] = ((mask((rows, cols)), np.broadcast_to(values(cols), (rows, cols)), values((rows, cols))),
                             np.empty((rows, cols), dtype))
    return cases


def median_ms(samples):
    return statistics.median(samples)


BEGIN, END = "<!-- strided: written by bench/strided.py -->", "<!-- /strided -->"


def write_section(path, header, rows, options):
    """Replaces (or appends) the Strided tensors section of a Markdown file."""
    lines = [BEGIN, "## Strided tensors", "",
             f"Written by `bench/strided.py` on {datetime.date.today()} ({cpu_name()}, {os.cpu_count()} cores): every "
             f"tensor {options.rows} x {options.cols} {options.dtype}, a view over a larger buffer, the median of "
             f"{options.repeat} interleaved calls per column, in ms. numpy.where runs on one thread and allocates "
             "its result; clsel and \"copy+sel\" (numpy.ascontiguousarray of every view, then clsel on the dense "
             "copies) write into an output allocated once. \"vs numpy\" and \"vs copy\": how many times faster "
             "clsel on every core is; \"% of dense\": clsel's dense time over this layout's, 1 thread / every "
             "core. Reproduce: `PYTHONPATH=python:bench build/venv/bin/python bench/strided.py`.", "",
             "| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
    lines += ["| " + " | ".join(row) + " |" for row in rows]
    lines += ["", END]
    replace_section(path, BEGIN, END, "\n".join(lines))


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=9)
    parser.add_argument("--rows", type=int, default=4096)
    parser.add_argument("--cols", type=int, default=4096)
    parser.add_argument("--dtype", default="float32")
    parser.add_argument("--markdown", help="a Markdown file whose Strided tensors section the table replaces")
    options = parser.parse_args()
    rng = np.random.default_rng(1)
    runtime = clsel._runtime("cpu")
    set_threads = clsel._declare("clsel_runtime_set_cpu_threads", ctypes.c_int, clsel._P, ctypes.c_int32)

    def clsel_call(cond, x, y, out, threads):
        def call():
            set_threads(runtime, threads)
            return clsel.where(cond, x, y, device="cpu", out=out)
        return call

    def copy_then_select(cond, x, y, out):
        def call():
            dense = [np.ascontiguousarray(v) for v in (cond, x, y)]
            if out.flags.c_contiguous:
                return clsel.where(*dense, device="cpu", out=out)
            out[...] = clsel.where(*dense, device="cpu")  # a dense result, then copied into the view
            return out
        return call

    print(f"clsel {clsel.version()}, numpy {np.__version__}, {os.cpu_count()} cores, {options.rows} x {options.cols} "
          f"{options.dtype}, median of {options.repeat} interleaved calls")
    print(f"{'layout':15} {'numpy ms':>9} {'copy+sel':>9} {'clsel 1t':>9} {'clsel':>9} {'vs numpy':>9} "
          f"{'vs copy':>8} {'% of dense':>10}")
    dense_ms, rows = {}, []
    for name, ((cond, x, y), out) in layouts(rng, options.rows, options.cols, options.dtype).items():
        want = np.where(cond, x, y)
        got = clsel.where(cond, x, y, device="cpu", out=out)
        assert got.tobytes() == want.tobytes(), name
        funcs = {"numpy": lambda: np.where(cond, x, y), "copy": copy_then_select(cond, x, y, out),
                 "one": clsel_call(cond, x, y, out, 1), "all": clsel_call(cond, x, y, out, 0)}
        ms = {k: median_ms(v) for k, v in bench_timing.time_calls(funcs, options.repeat)[1].items()}
        set_threads(runtime, 0)
        if name == "dense":
            dense_ms = ms
        row = [name, f"{ms['numpy']:.2f}", f"{ms['copy']:.2f}", f"{ms['one']:.2f}", f"{ms['all']:.2f}",
               f"{ms['numpy'] / ms['all']:.2f}x", f"{ms['copy'] / ms['all']:.2f}x",
               f"{100 * dense_ms['one'] / ms['one']:.0f} / {100 * dense_ms['all'] / ms['all']:.0f} %"]
        rows.append(row)
        print(f"{row[0]:15} {row[1]:>9} {row[2]:>9} {row[3]:>9} {row[4]:>9} {row[5]:>9} {row[6]:>8} {row[7]:>10}")
    print("vs numpy, vs copy: how many times faster clsel (every core) is; % of dense: clsel's dense time over "
          "this layout's, 1 thread / every core")
    if options.markdown:
        header = ["layout", "numpy.where", "copy+sel", "clsel 1 thread", "clsel every core", "vs numpy", "vs copy",
                  "% of dense"]
        write_section(options.markdown, header, rows, options)


if __name__ == "__main__":
    main()
