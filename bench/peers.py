#!/usr/bin/env python3
"""Times the peers on the cases of a `clsel bench --json` file, in one run:

  numpy.where                    numpy's own kernel (allocates its output, as numpy does)
  onnxruntime                    ONNX Where (opset 16), CPU execution provider, inputs and
                                 output bound once (I/O binding), so a run is the kernel
  openvino                       opset1 Select compiled for the CPU plugin, input tensors
                                 sharing the numpy arrays' memory, one infer request
  pyopencl                       an ElementwiseKernel on the same OpenCL device as clsel
                                 (PoCL here), a ternary with the broadcast index worked out
                                 per element from the output index: what a hand-written
                                 kernel usually does

Each case is rebuilt from the JSON (shapes, dtype, broadcast mode, axis, cond pattern), so
the sizes are those clsel ran. Per peer and case: median and min of the timed runs after
warm-up, first-call time (session creation, compile or build, first run) and GB/s over
clsel's byte count (STREAM convention).

  python bench/peers.py --cases build/bench.json --json build/peers.json
      [--peer numpy|onnxruntime|openvino|pyopencl]... [--case NAME]... [--repeat N]
      [--threads N]

--threads sets ONNX Runtime's intra-op and OpenVINO's inference threads (default: every
core, their own default); numpy.where runs on one thread whatever it says.
"""
import argparse
import json
import os
import platform
import statistics
import sys

import numpy as np

import bench_timing
from markdown_section import cpu_name

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "tests", "conformance"))
from cases import CLSEL_NAMES, pdpd_aligned  # noqa: E402  (the one place that knows pdpd's placement for numpy)
import peers as conformance_peers  # noqa: E402  (tests/conformance/peers.py: the peers' models, as the suite runs them)

# clsel dtype name -> numpy's; bf16 is left out: numpy has no bfloat16 of its own.
CLSEL_TO_NUMPY = {clsel: numpy for numpy, clsel in CLSEL_NAMES.items() if numpy != "bfloat16"}


class Unsupported(Exception):
    """The peer cannot run this case (dtype or shapes it does not take)."""


# ---- the cases --------------------------------------------------------------------------

class Case:
    def __init__(self, spec):
        self.name = spec["name"]
        self.bytes = spec["bytes"]
        self.elements = spec["elements"]
        if spec["dtype"] not in CLSEL_TO_NUMPY:
            raise Unsupported(f"dtype {spec['dtype']} has no numpy type")
        self.dtype = np.dtype(CLSEL_TO_NUMPY[spec["dtype"]])
        self.mode = spec["broadcast"]
        self.axis = spec["axis"]
        self.shapes = [tuple(s) for s in spec["shapes"]]
        self.pattern = spec["pattern"]

    def numpy_shapes(self):
        """The shapes numpy broadcasting needs for the same result: pdpd inputs placed
        inside then (docs/semantics.md, pdpd mode); numpy and none shapes as they are."""
        if self.mode != "pdpd":
            return self.shapes
        rank = len(self.shapes[1])
        return [pdpd_aligned(self.shapes[0], rank, self.axis), self.shapes[1],
                pdpd_aligned(self.shapes[2], rank, self.axis)]

    def arrays(self):
        """cond (bool, by the pattern), then and else (distinct constants), in the
        numpy-broadcastable shapes."""
        cshape, tshape, eshape = self.numpy_shapes()
        rng = np.random.default_rng(12345)
        if self.pattern == "all_true":
            cond = np.ones(cshape, dtype=bool)
        elif self.pattern == "all_false":
            cond = np.zeros(cshape, dtype=bool)
        else:
            cond = np.asarray(rng.random(cshape, dtype=np.float32) < (0.1 if self.pattern == "random10" else 0.5))
        then = np.full(tshape, 3, dtype=self.dtype)
        else_ = np.full(eshape, 5, dtype=self.dtype)
        return cond, then, else_


def time_runs(run, repeat):
    """first-call ms, then the timed runs' median and min ms (after two more warm-up runs)."""
    first, samples = bench_timing.time_calls({"run": run}, repeat, warmups=3)
    return first["run"], statistics.median(samples["run"]), min(samples["run"])


# ---- the peers: each prepares a case and returns two callables: one that runs it once,
# ---- and one that returns the last run's output (checked against numpy.where) ----------

def prepare_numpy(case, arrays, options):
    cond, then, else_ = arrays
    last = []

    def run():
        last[:] = [np.where(cond, then, else_)]

    return run, lambda: last[0]


def prepare_onnxruntime(case, arrays, options):
    import onnxruntime as ort

    # OrtValues cannot be made from 0-d arrays; a [1] broadcasts the same way here (every
    # case's output has rank 1 or more).
    cond, then, else_ = (a if a.ndim else a.reshape(1) for a in arrays)
    try:
        session = conformance_peers.ort_session(case.dtype.name, (cond.shape, then.shape, else_.shape),
                                                options.threads)
    except conformance_peers.PeerRejected as error:
        raise Unsupported(str(error)) from error
    out = np.empty(np.broadcast_shapes(cond.shape, then.shape, else_.shape), dtype=case.dtype)
    binding = session.io_binding()
    values = [ort.OrtValue.ortvalue_from_numpy(a) for a in (cond, then, else_, out)]
    for name, value in zip(("c", "t", "e"), values):
        binding.bind_ortvalue_input(name, value)
    binding.bind_ortvalue_output("o", values[3])

    def run():
        session.run_with_iobinding(binding)
        return values  # keeps the bound memory alive with the closure

    return run, lambda: out


def prepare_openvino(case, arrays, options):
    import openvino as ov

    cond, then, else_ = arrays
    config = {"INFERENCE_NUM_THREADS": options.threads} if options.threads else {}
    # The arrays are already numpy-broadcastable (pdpd placed by numpy_shapes), so numpy
    # mode computes the same result; an f32 model must not be run in bf16 or f16.
    config["INFERENCE_PRECISION_HINT"] = "f32"
    try:
        model = conformance_peers.ov_select_model(case.dtype.name, (cond.shape, then.shape, else_.shape))
        compiled = ov.Core().compile_model(model, "CPU", config)
    except Exception as error:  # OpenVINO raises RuntimeError and its own types
        raise Unsupported(str(error).splitlines()[0]) from error
    request = compiled.create_infer_request()
    for index, array in enumerate((cond, then, else_)):
        request.set_input_tensor(index, ov.Tensor(array, shared_memory=True))
    return request.infer, lambda: request.get_output_tensor(0).data


_cl = {}


def _opencl():
    """One context and queue on the first OpenCL device (what `clsel bench` picks first
    is the same PoCL device on this machine; the device name goes into the report)."""
    if not _cl:
        import pyopencl as cl

        platform_ = cl.get_platforms()[0]
        device = platform_.get_devices()[0]
        context = cl.Context([device])
        _cl.update(cl=cl, device=device, context=context, queue=cl.CommandQueue(context))
    return _cl


CL_TYPES = {1: "uchar", 2: "ushort", 4: "uint", 8: "ulong"}


def prepare_pyopencl(case, arrays, options):
    import pyopencl.array as cl_array
    from pyopencl.elementwise import ElementwiseKernel

    env = _opencl()
    cond, then, else_ = arrays
    out_shape = np.broadcast_shapes(cond.shape, then.shape, else_.shape)
    rank = len(out_shape)
    ctype = CL_TYPES[case.dtype.itemsize]  # moved as bits, like clsel
    # The naive broadcast: unravel the output index over the output dims, and sum each
    # operand's stride (0 where it broadcasts) times the coordinate.
    lines = ["ulong rest = i; ulong ci = 0, ti = 0, ei = 0, coord;"]
    for d in reversed(range(rank)):
        lines.append(f"coord = rest % {out_shape[d]}UL; rest /= {out_shape[d]}UL;")
        for name, array in (("ci", cond), ("ti", then), ("ei", else_)):
            padded = (1,) * (rank - array.ndim) + array.shape
            if padded[d] != 1:
                stride = int(np.prod(padded[d + 1:], dtype=np.int64))
                lines.append(f"{name} += coord * {stride}UL;")
    lines.append("out[i] = c[ci] ? t[ti] : e[ei];")
    kernel = ElementwiseKernel(env["context"],
                               f"__global {ctype} *out, __global const uchar *c, __global const {ctype} *t, "
                               f"__global const {ctype} *e",
                               "\n".join(lines), "clsel_peer_select")
    queue = env["queue"]
    bits = f"u{case.dtype.itemsize}"
    c = cl_array.to_device(queue, np.ascontiguousarray(cond).view(np.uint8))
    t = cl_array.to_device(queue, np.ascontiguousarray(then).view(bits))
    e = cl_array.to_device(queue, np.ascontiguousarray(else_).view(bits))
    out = cl_array.empty(queue, int(np.prod(out_shape, dtype=np.int64)), np.dtype(bits))

    def run():
        kernel(out, c, t, e)  # the first argument sets the range
        queue.finish()

    return run, lambda: out.get().view(case.dtype).reshape(out_shape)


PEERS = {"numpy": prepare_numpy, "onnxruntime": prepare_onnxruntime, "openvino": prepare_openvino,
         "pyopencl": prepare_pyopencl}
# What runs without --peer: the CPU-side peers of this project's machine.
DEFAULT_PEERS = ["numpy", "onnxruntime", "openvino", "pyopencl"]


def same_bits(a, b):
    a, b = np.asarray(a), np.asarray(b)
    return a.shape == b.shape and np.array_equal(a.view(f"u{a.itemsize}"), b.view(f"u{b.itemsize}"))


def machine():
    memory = ""
    try:
        with open("/proc/meminfo") as f:
            kib = int(f.readline().split()[1])
        memory = f", {kib / (1 << 20):.0f} GiB"
    except (OSError, ValueError, IndexError):
        pass
    return f"{cpu_name()}, {os.cpu_count()} cores{memory}, {platform.system()} {platform.release()}"


def peer_device(peer, options):
    if peer == "pyopencl":
        device = _opencl()["device"]
        return f"{device.name.strip()} (OpenCL, {device.platform.name.strip()})"
    threads = 1 if peer == "numpy" else options.threads or os.cpu_count()
    return f"{cpu_name()}, {threads} thread{'s' if threads > 1 else ''}"


def peer_version(peer):
    module = {"numpy": "numpy", "onnxruntime": "onnxruntime", "openvino": "openvino", "pyopencl": "pyopencl"}[peer]
    try:
        return __import__(module).__version__
    except (ImportError, AttributeError):
        return None


def load_cases(path):
    with open(path) as f:
        data = json.load(f)
    reports = data if isinstance(data, list) else [data]
    seen, specs = set(), []
    for report in reports:  # the cases are the same in each device's report
        for spec in report["cases"]:
            if spec["name"] not in seen:
                seen.add(spec["name"])
                specs.append(spec)
    return specs, bool(reports[0].get("quick"))


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--cases", required=True, help="a `clsel bench --json` file")
    parser.add_argument("--json", help="write the figures here")
    parser.add_argument("--peer", action="append", choices=sorted(PEERS), help="peers to run (default: all)")
    parser.add_argument("--case", action="append", help="case names to run (default: all)")
    parser.add_argument("--repeat", type=int, default=20, help="timed runs per case (default 20)")
    parser.add_argument("--threads", type=int, default=0, help="ONNX Runtime / OpenVINO threads (default: theirs)")
    options = parser.parse_args(argv)
    if options.repeat < 1:
        parser.error("--repeat must be at least 1")

    specs, quick = load_cases(options.cases)
    if options.case:
        unknown = sorted(set(options.case) - {s["name"] for s in specs})
        if unknown:
            parser.error(f"cases not in {options.cases}: {', '.join(unknown)}")
        specs = [s for s in specs if s["name"] in options.case]
    report = {"machine": machine(), "quick": quick, "threads": options.threads or os.cpu_count(),
              "repeat": options.repeat, "peers": {}}
    failed = False
    for peer in options.peer or DEFAULT_PEERS:
        try:
            entry = {"device": peer_device(peer, options), "version": peer_version(peer), "cases": []}
        except Exception as error:  # a peer that cannot start at all is reported, not fatal
            print(f"peers: {peer}: cannot start: {error}", file=sys.stderr)
            report["peers"][peer] = {"error": str(error), "cases": []}
            failed = True
            continue
        report["peers"][peer] = entry
        for spec in specs:
            result = {"name": spec["name"]}
            try:
                case = Case(spec)
                arrays = case.arrays()
                run, output = PEERS[peer](case, arrays, options)
                first, median, minimum = time_runs(run, options.repeat)
                if not same_bits(output(), np.where(*arrays)):
                    raise RuntimeError("its output differs from numpy.where's")
                result.update(first_call_ms=first, median_ms=median, min_ms=minimum,
                              gbps=spec["bytes"] / (median * 1e6))
                line = f"{median:10.3f} ms  {result['gbps']:7.2f} GB/s"
            except Unsupported as error:
                result["error"] = str(error)
                line = f"not run: {error}"
            except Exception as error:  # a peer failing where it should run: report, go on
                result["error"] = f"failed: {error}"
                line = result["error"]
                failed = True
            entry["cases"].append(result)
            print(f"peers: {peer:12s} {spec['name']:22s} {line}", file=sys.stderr, flush=True)
    if options.json:
        with open(options.json, "w") as f:
            json.dump(report, f, indent=1)
            f.write("\n")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
