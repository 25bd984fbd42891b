#!/usr/bin/env python3
"""Per-inference time of models through OpenVINO alone and OpenVINO with clsel's
extension (integrations/openvino), side by side in one process on the CPU plugin:

  - arabic-name-romanizer's encoder and decoder (a GRU with attention; the decoder's Where
    masks the attention scores), batch 16, source length 40, target length 12;
  - an attention mask fill, the one op of the model: Where(cond [1,1,S,S] bool, -1e9,
    scores [1,H,S,S] f32), where Select is all the work.

  PYTHONPATH=python build/venv/bin/python bench/openvino_models.py [--repeat N] [--heads H] [--seq S]...

Each model is compiled once per side (INFERENCE_PRECISION_HINT f32, the CPU plugin's
default threads), its inputs bound once as tensors sharing the arrays' memory; the two
sides' infer requests are timed in alternating rounds, the
median of each round kept and the best round reported, so that the machine's drift hits
both alike. Outputs are checked to agree before timing.
"""
import argparse
import os
import statistics

import numpy as np
import onnx
import openvino as ov
from onnx import TensorProto, helper

import bench_timing
import clsel.openvino

CONFIG = {"INFERENCE_PRECISION_HINT": "f32"}


def mask_fill_model(path, heads, seq):
    cond = helper.make_tensor_value_info("mask", TensorProto.BOOL, [1, 1, seq, seq])
    scores = helper.make_tensor_value_info("scores", TensorProto.FLOAT, [1, heads, seq, seq])
    out = helper.make_tensor_value_info("masked", TensorProto.FLOAT, [1, heads, seq, seq])
    fill = helper.make_node("Constant", [], ["fill"], value=helper.make_tensor("v", TensorProto.FLOAT, [], [-1e9]))
    where = helper.make_node("Where", ["mask", "scores", "fill"], ["masked"])
    graph = helper.make_graph([fill, where], "mask_fill", [cond, scores], [out])
    onnx.save(helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)]), path)


def romanizer(rng):
    import arabic_name_romanizer

    folder = os.path.join(os.path.dirname(arabic_name_romanizer.__file__), "resources")
    batch, src_len, tgt_len = 16, 40, 12
    src = rng.integers(4, 160, size=(batch, src_len)).astype(np.int64)
    src_mask = np.arange(src_len)[None, :] < rng.integers(1, src_len + 1, size=batch)[:, None]
    encoder = os.path.join(folder, "encoder.onnx")
    memory, mask_out, hidden = ov.Core().compile_model(encoder, "CPU", CONFIG)({"src": src, "src_mask": src_mask}).values()
    prefix = rng.integers(4, 160, size=(batch, tgt_len)).astype(np.int64)
    return [("romanizer encoder (batch 16, src 40)", encoder, {"src": src, "src_mask": src_mask}),
            ("romanizer decoder (batch 16, src 40, tgt 12)", os.path.join(folder, "decoder.onnx"),
             {"prefix": prefix, "memory": np.array(memory), "src_mask": np.array(mask_out), "hidden": np.array(hidden)})]


def bind(request, feeds):
    """The inputs as tensors sharing the arrays' memory, set once: an inference then times
    the model, not a copy of the inputs into the request (both sides alike)."""
    for name, array in feeds.items():
        request.set_tensor(name, ov.Tensor(np.ascontiguousarray(array), shared_memory=True))


def time_request(request, repeat):
    """Median seconds per inference."""
    return statistics.median(bench_timing.time_calls({"infer": request.infer}, repeat)[1]["infer"]) / 1e3


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=30)
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--heads", type=int, default=8)
    parser.add_argument("--seq", type=int, action="append")
    parser.add_argument("--workdir", default="build/bench-openvino")
    options = parser.parse_args()
    os.makedirs(options.workdir, exist_ok=True)
    rng = np.random.default_rng(1)
    with_clsel = ov.Core()
    with_clsel.add_extension(clsel.openvino.extension_path())
    alone = ov.Core()
    cases = romanizer(rng)
    for seq in options.seq or [1024, 2048, 4096]:
        path = os.path.join(options.workdir, f"mask_fill_{options.heads}x{seq}.onnx")
        mask_fill_model(path, options.heads, seq)
        feeds = {"mask": np.tril(np.ones((seq, seq), bool))[None, None],
                 "scores": rng.standard_normal((1, options.heads, seq, seq)).astype(np.float32)}
        cases.append((f"mask fill [1,{options.heads},{seq},{seq}] f32", path, feeds))
    print(f"OpenVINO {ov.__version__}, {clsel.openvino.built_for()}, {os.cpu_count()} cores, "
          f"median of {options.repeat} inferences, best of {options.rounds} alternating rounds")
    print(f"{'model':48} {'OpenVINO ms':>12} {'+ clsel ms':>11} {'ratio':>7} {'clsel runs':>10}")
    for name, path, feeds in cases:
        requests = [core.compile_model(core.read_model(path), "CPU", CONFIG).create_infer_request()
                    for core in (alone, with_clsel)]
        for request in requests:
            bind(request, feeds)
        outputs = [[np.array(x) for x in r.infer().values()] for r in requests]
        for a, b in zip(*outputs):
            np.testing.assert_allclose(a, b, rtol=1e-5, atol=1e-5)
        best = [float("inf"), float("inf")]
        before = clsel.openvino.evaluations()
        for round_ in range(options.rounds):
            for side in ((0, 1) if round_ % 2 == 0 else (1, 0)):  # each side first in half the rounds
                best[side] = min(best[side], time_request(requests[side], options.repeat))
        runs = (clsel.openvino.evaluations() - before) // (options.rounds * options.repeat)
        print(f"{name:48} {best[0] * 1e3:>12.3f} {best[1] * 1e3:>11.3f} {best[0] / best[1]:>6.2f}x {runs:>10}")


if __name__ == "__main__":
    main()
