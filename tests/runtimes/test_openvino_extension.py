"""OpenVINO with clsel's extension (integrations/openvino): real packaged models whose Where
nodes clsel runs, and synthetic ONNX and in-memory models for every dtype, broadcast
mode and cond rule, against OpenVINO alone, ONNX Runtime and numpy.

Run by ctest `runtimes_openvino` (label runtimes; built with -DCLSEL_OPENVINO=ON)."""
import os

import numpy as np
import onnx
import pytest
from onnx import TensorProto, helper

ov = pytest.importorskip("openvino")
import clsel  # noqa: E402
import clsel.openvino  # noqa: E402

F32 = {"INFERENCE_PRECISION_HINT": "f32"}  # OpenVINO may otherwise run f32 models in bf16
# Without the extension the CPU plugin fuses Where with its neighbours (the decoder's mask,
# softmax and log) into one generated kernel ("snippets") whose exp/log round differently
# from the separate kernels it runs around an extension op: logprobs then differ in the
# last bit (1.9e-6 seen). With snippets off on both sides, the outputs are the same bits.
F32_UNFUSED = dict(F32, SNIPPETS_MODE="DISABLE")


@pytest.fixture(scope="module")
def cores():
    """OpenVINO with the extension, and OpenVINO alone (kept alive while models use them)."""
    with_clsel = ov.Core()
    with_clsel.add_extension(clsel.openvino.extension_path())
    return with_clsel, ov.Core()


def op_names(model):
    return [f"{n.get_type_name()}/{n.get_type_info().version_id}" for n in model.get_ops()]


def count_clsel_selects(model):
    names = op_names(model)
    assert not any(n.startswith(("Select/opset", "Where/")) for n in names), names
    return names.count("Select/clsel")


# ---- real models: arabic-name-romanizer's GRU encoder and decoder ------------------------

def romanizer_models():
    package = pytest.importorskip("arabic_name_romanizer")
    folder = os.path.join(os.path.dirname(package.__file__), "resources")
    return os.path.join(folder, "encoder.onnx"), os.path.join(folder, "decoder.onnx")


def romanizer_inputs(rng, batch, src_len, tgt_len):
    src = rng.integers(4, 160, size=(batch, src_len)).astype(np.int64)
    lengths = rng.integers(1, src_len + 1, size=batch)
    src_mask = np.arange(src_len)[None, :] < lengths[:, None]  # padding at the end of each row
    src[~src_mask] = 0
    prefix = rng.integers(4, 160, size=(batch, tgt_len)).astype(np.int64)
    return src, src_mask, prefix


def run_openvino(core, path, feeds, config=F32):
    compiled = core.compile_model(core.read_model(path), "CPU", config)
    return [np.array(x) for x in compiled(feeds).values()]


def run_onnxruntime(path, feeds):
    ort = pytest.importorskip("onnxruntime")
    session = ort.InferenceSession(path, providers=["CPUExecutionProvider"])
    return session.run(None, feeds)


def test_romanizer_through_clsel(cores):
    with_clsel, alone = cores
    encoder, decoder = romanizer_models()
    wheres = sum(n.op_type == "Where" for path in (encoder, decoder) for n in onnx.load(path).graph.node)
    read = [with_clsel.read_model(path) for path in (encoder, decoder)]
    assert sum(count_clsel_selects(m) for m in read) == wheres  # every Where became clsel's op
    rng = np.random.default_rng(3)
    for batch, src_len, tgt_len in [(1, 7, 1), (4, 19, 5), (16, 40, 12)]:
        src, src_mask, prefix = romanizer_inputs(rng, batch, src_len, tgt_len)
        enc_feeds = {"src": src, "src_mask": src_mask}
        before = clsel.openvino.evaluations()
        enc = run_openvino(with_clsel, encoder, enc_feeds, F32_UNFUSED)
        enc_alone = run_openvino(alone, encoder, enc_feeds, F32_UNFUSED)
        enc_ort = run_onnxruntime(encoder, enc_feeds)
        for got, want, ort_out in zip(enc, enc_alone, enc_ort):
            assert np.array_equal(got, want)  # the same arithmetic around an exact Where: the same bits
            # ONNX Runtime's GRU rounds differently from OpenVINO's (last bits), with or without clsel
            np.testing.assert_allclose(got, ort_out, rtol=1e-4, atol=1e-5)
        memory, mask_out, hidden = enc
        dec_feeds = {"prefix": prefix, "memory": memory, "src_mask": mask_out, "hidden": hidden}
        dec = run_openvino(with_clsel, decoder, dec_feeds, F32_UNFUSED)
        for got, want, ort_out, fused in zip(dec, run_openvino(alone, decoder, dec_feeds, F32_UNFUSED),
                                             run_onnxruntime(decoder, dec_feeds),
                                             run_openvino(alone, decoder, dec_feeds)):
            assert np.array_equal(got, want)
            np.testing.assert_allclose(got, fused, rtol=1e-5, atol=1e-5)  # OpenVINO alone, default config
            np.testing.assert_allclose(got, ort_out, rtol=1e-4, atol=1e-4)
        assert clsel.openvino.evaluations() > before  # the decoder's Where ran in clsel


# ---- synthetic models --------------------------------------------------------------------

# ONNX element types, their numpy dtypes, and whether this test's values (|v| <= 1000, no
# NaN) reach the op unchanged: OpenVINO's CPU plugin converts a model's i64 to i32 and f64
# to f32 first (test_what_reaches_the_op has the edges).
ONNX_TYPES = [
    (TensorProto.BOOL, np.bool_, True), (TensorProto.UINT8, np.uint8, True), (TensorProto.INT8, np.int8, True),
    (TensorProto.UINT16, np.uint16, True), (TensorProto.INT16, np.int16, True),
    (TensorProto.FLOAT16, np.float16, True), (TensorProto.UINT32, np.uint32, True),
    (TensorProto.INT32, np.int32, True), (TensorProto.FLOAT, np.float32, True),
    (TensorProto.UINT64, np.uint64, True), (TensorProto.INT64, np.int64, False),
    (TensorProto.DOUBLE, np.float64, False),
]
SHAPES = [((2, 1, 4), (3, 4), (1,)), ((5,), (5,), (5,)), ((), (2, 3), (3,)), ((4, 1), (1, 6), (4, 6)),
          ((1, 3, 1), (2, 1, 5), ())]


def where_model(path, onnx_type, shapes, opset):
    inputs = [helper.make_tensor_value_info("c", TensorProto.BOOL, list(shapes[0])),
              helper.make_tensor_value_info("t", onnx_type, list(shapes[1])),
              helper.make_tensor_value_info("e", onnx_type, list(shapes[2]))]
    output = helper.make_tensor_value_info("o", onnx_type, None)
    graph = helper.make_graph([helper.make_node("Where", ["c", "t", "e"], ["o"])], "where", inputs, [output])
    onnx.save(helper.make_model(graph, opset_imports=[helper.make_opsetid("", opset)]), path)


def values(rng, shape, dtype):
    if dtype == np.bool_:
        return rng.random(shape) < 0.5
    if np.dtype(dtype).kind == "f":
        return (rng.standard_normal(shape) * 100).astype(dtype)
    info = np.iinfo(dtype)
    return rng.integers(max(info.min, -1000), min(info.max, 1000), size=shape, endpoint=True).astype(dtype)


@pytest.mark.parametrize("opset", [9, 16])
@pytest.mark.parametrize("onnx_type,dtype,kept", ONNX_TYPES, ids=[np.dtype(t[1]).name for t in ONNX_TYPES])
def test_onnx_where_every_dtype(cores, tmp_path, opset, onnx_type, dtype, kept):
    with_clsel, alone = cores
    rng = np.random.default_rng(opset)
    for k, shapes in enumerate(SHAPES):
        path = str(tmp_path / f"where_{k}.onnx")
        where_model(path, onnx_type, shapes, opset)
        assert count_clsel_selects(with_clsel.read_model(path)) == 1
        feeds = {"c": rng.random(shapes[0]) < 0.5, "t": values(rng, shapes[1], dtype), "e": values(rng, shapes[2], dtype)}
        before = clsel.openvino.evaluations()
        got = run_openvino(with_clsel, path, feeds)[0]
        assert clsel.openvino.evaluations() == before + 1
        assert np.array_equal(got, run_openvino(alone, path, feeds)[0])
        if kept:  # the op saw the model's values: numpy.where's result exactly
            want = np.where(feeds["c"], feeds["t"], feeds["e"])
            assert got.dtype == want.dtype and np.array_equal(got.view(np.uint8), want.view(np.uint8))


def bits(dtype, words):
    return np.array(words, {2: np.uint16, 4: np.uint32, 8: np.uint64}[np.dtype(dtype).itemsize]).view(dtype)


F32_MAX = float(np.finfo(np.float32).max)


def quieted_f16(values):
    words = values.view(np.uint16).copy()
    nan = (words & 0x7C00 == 0x7C00) & (words & 0x03FF != 0)
    words[nan] |= 0x0200
    return words.view(np.float16)
# What OpenVINO 2026.4.1's CPU plugin hands an op, per ONNX type: edge values in, and what
# comes out of a Where that picks each of them (with or without clsel: the plugin converts
# the model before any op runs). docs/integration.md's table is this one.
EDGES = [
    ("int64", TensorProto.INT64, np.array([2**40 + 5, -3, 2**33 + 7, -(2**31)], np.int64),
     lambda v: v.astype(np.int32).astype(np.int64)),  # through i32: wrapped
    ("uint64", TensorProto.UINT64, np.array([2**63 + 5, 1, 2**40, 2**32 - 1], np.uint64),
     None),  # through 32 bits: only the low 32 bits survive (checked below)
    ("float64", TensorProto.DOUBLE, np.array([1e300, -1e300, np.nan, 1e-320]),
     lambda v: np.clip(v, -F32_MAX, F32_MAX).astype(np.float32).astype(np.float64)),  # through f32, clamped
    ("float16", TensorProto.FLOAT16, bits(np.float16, [0x7D01, 0x0001, 0xFC01, 0x8001]),
     (lambda v: quieted_f16(v), lambda v: v)),  # signalling NaNs quieted (on the CI box; may be kept elsewhere)
    ("float32", TensorProto.FLOAT, bits(np.float32, [0x7F800001, 0x00000001, 0xFFC00001, 0x80000001]),
     lambda v: v),  # bit for bit, signalling NaN included
    ("uint32", TensorProto.UINT32, np.array([2**32 - 1, 2**31 + 3, 0, 7], np.uint32), lambda v: v),
    ("int8", TensorProto.INT8, np.array([-128, 127, 0, -1], np.int8), lambda v: v),
    ("uint16", TensorProto.UINT16, np.array([65535, 32769, 0, 1], np.uint16), lambda v: v),
]


@pytest.mark.parametrize("name,onnx_type,edge,reaches", EDGES, ids=[e[0] for e in EDGES])
def test_what_reaches_the_op(cores, tmp_path, name, onnx_type, edge, reaches):
    with_clsel, alone = cores
    path = str(tmp_path / f"edges_{name}.onnx")
    where_model(path, onnx_type, ((4,), (4,), (4,)), 16)
    other = edge[::-1].copy()
    feeds = {"c": np.array([True, False, True, False]), "t": edge, "e": other}
    got, want = run_openvino(with_clsel, path, feeds)[0], run_openvino(alone, path, feeds)[0]
    assert got.tobytes() == want.tobytes()  # clsel adds nothing to what the plugin did
    picked = np.where(feeds["c"], edge, other)
    if reaches is None:
        assert np.array_equal(got.astype(np.uint64) & 0xFFFFFFFF, picked & 0xFFFFFFFF)
        assert not np.array_equal(got, picked)
    else:  # one rule, or a tuple of the rules a host may follow
        rules = reaches if isinstance(reaches, tuple) else (reaches,)
        assert any(got.tobytes() == rule(picked).tobytes() for rule in rules), (got, picked)


@pytest.mark.parametrize("mode", ["numpy", "pdpd", "none"])
def test_in_memory_select_replaced(cores, mode):
    """OpenVINO's own Select-1, built with the Python API (as IR reading and the other
    frontends make it), swapped for clsel's op by replace_selects."""
    from openvino import opset1

    with_clsel, alone = cores
    shapes = {"numpy": ((2, 1, 4), (3, 4), (4,)), "pdpd": ((3,), (3, 4), (3,)),
              "none": ((3, 4), (3, 4), (3, 4))}[mode]
    rng = np.random.default_rng(7)
    feeds = [rng.random(shapes[0]) < 0.5, values(rng, shapes[1], np.float32), values(rng, shapes[2], np.float32)]

    def build():
        params = [ov.op.Parameter(t, ov.PartialShape(list(s))) for t, s in
                  zip((ov.Type.boolean, ov.Type.f32, ov.Type.f32), shapes)]
        node = opset1.select(*params, mode)
        if mode == "pdpd":  # axis 0: else and cond placed at then's first dim
            attributes = node.get_attributes()
            assert attributes["auto_broadcast.auto_broadcast_axis"] == 0, attributes
        return ov.Model([node], params)

    model = build()
    assert clsel.openvino.replace_selects(model) == 1
    assert count_clsel_selects(model) == 1
    before = clsel.openvino.evaluations()
    got = np.array(with_clsel.compile_model(model, "CPU", F32)(feeds)[0])
    assert clsel.openvino.evaluations() == before + 1
    if mode == "pdpd":
        # OpenVINO 2026.4.1 alone cannot compile this Select (its CPU plugin's snippets
        # passes reshape else to [1,3] and then refuse it: "'Else' tensor shape is not
        # broadcastable"); clsel's op runs it as the spec says.
        assert np.array_equal(got, np.where(feeds[0][:, None], feeds[1], feeds[2][:, None]))
    else:
        assert np.array_equal(got, np.array(alone.compile_model(build(), "CPU", F32)(feeds)[0]))
        assert np.array_equal(got, np.where(*feeds))


def clsel_select(inputs, attributes):
    """clsel's op made directly, with the given attributes."""
    from openvino.utils.node_factory import NodeFactory

    factory = NodeFactory()
    factory.add_extension(clsel.openvino.extension_path())
    return factory.create("Select", inputs, attributes)


def test_cond_rules(cores, tmp_path):
    """The op's attribute cond_broadcast: "bidirectional" (the default, as ONNX Where and
    OpenVINO's Select merge cond) or "one-way" (Select-1's rule: cond never enlarges the
    values' shape), kept through IR; a cond that would enlarge it is refused by name."""
    with_clsel, _ = cores
    rng = np.random.default_rng(11)

    def params(cond_shape):
        return [ov.op.Parameter(t, ov.PartialShape(list(s))) for t, s in
                zip((ov.Type.boolean, ov.Type.f32, ov.Type.f32), (cond_shape, (3, 4), (4,)))]

    for rule in ("one-way", "bidirectional"):
        p = params((4,))
        model = ov.Model([clsel_select(p, {"auto_broadcast": "numpy", "cond_broadcast": rule})], p)
        path = str(tmp_path / f"{rule}.xml")
        ov.save_model(model, path)
        read = with_clsel.read_model(path)
        (node,) = [n for n in read.get_ops() if n.get_type_name() == "Select"]
        assert node.get_attributes()["cond_broadcast"] == rule
        feeds = [rng.random(4) < 0.5, values(rng, (3, 4), np.float32), values(rng, (4,), np.float32)]
        got = np.array(with_clsel.compile_model(read, "CPU", F32)(feeds)[0])
        assert np.array_equal(got, np.where(*feeds))

    p = params((2, 1, 4))  # cond enlarges [3,4] to [2,3,4]: two-way only
    node = clsel_select(p, {"auto_broadcast": "numpy"})
    assert list(node.get_output_partial_shape(0).to_shape()) == [2, 3, 4]
    with pytest.raises(Exception, match="would enlarge"):
        clsel_select(params((2, 1, 4)), {"auto_broadcast": "numpy", "cond_broadcast": "one-way"})
    with pytest.raises(Exception, match="sideways"):
        clsel_select(params((4,)), {"auto_broadcast": "numpy", "cond_broadcast": "sideways"})


def test_ir_round_trip(cores, tmp_path):
    """A model saved with clsel's op reads back with it (OpExtension), attributes kept."""
    from openvino import opset1

    with_clsel, _ = cores
    params = [ov.op.Parameter(t, ov.PartialShape(s)) for t, s in
              zip((ov.Type.boolean, ov.Type.i32, ov.Type.i32), ([3], [3, 2], [3]))]
    model = ov.Model([opset1.select(*params, "pdpd")], params)
    clsel.openvino.replace_selects(model)
    path = str(tmp_path / "select.xml")
    ov.save_model(model, path)
    read = with_clsel.read_model(path)
    assert count_clsel_selects(read) == 1
    feeds = [np.array([True, False, True]), np.arange(6, dtype=np.int32).reshape(3, 2), np.array([-1, -2, -3], np.int32)]
    got = np.array(with_clsel.compile_model(read, "CPU")(feeds)[0])
    assert got.tolist() == [[0, 1], [-2, -2], [4, 5]]


def test_version_check_names_both_releases(monkeypatch):
    monkeypatch.setattr(ov, "__version__", "1999.1.0-0")
    with pytest.raises(clsel.openvino.ExtensionMismatch, match="1999.1.0"):
        clsel.openvino.extension_path()


def test_concurrent_inferences(cores, tmp_path):
    """Several infer requests at once (OpenVINO runs them on its own threads): each result
    is its own inputs' numpy.where."""
    with_clsel, _ = cores
    path = str(tmp_path / "where_async.onnx")
    where_model(path, TensorProto.FLOAT, ((64, 1, 256), (64, 32, 256), (256,)), 16)
    compiled = with_clsel.compile_model(with_clsel.read_model(path), "CPU", F32)
    rng = np.random.default_rng(11)
    jobs = [{"c": rng.random((64, 1, 256)) < 0.5, "t": values(rng, (64, 32, 256), np.float32),
             "e": values(rng, (256,), np.float32)} for _ in range(24)]
    results = [None] * len(jobs)

    def done(request, index):
        results[index] = np.array(request.get_output_tensor(0).data, copy=True)

    queue = ov.AsyncInferQueue(compiled, 4)
    queue.set_callback(done)
    before = clsel.openvino.evaluations()
    for index, feeds in enumerate(jobs):
        queue.start_async(feeds, index)
    queue.wait_all()
    assert clsel.openvino.evaluations() == before + len(jobs)
    for feeds, got in zip(jobs, results):
        assert np.array_equal(got, np.where(feeds["c"], feeds["t"], feeds["e"]))
