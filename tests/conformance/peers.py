"""The peers, run for real: numpy.where, ONNX Runtime Where (CPU execution provider) and
OpenVINO opset1 Select compiled for the CPU device. Each returns the output array, or
raises PeerRejected when the peer refuses the shapes (or types). The models themselves
(ort_session, ov_select_model) are also what bench/peers.py times."""
import os

import numpy as np

import host
from cases import numpy_dtype, pdpd_aligned


class PeerRejected(Exception):
    pass


def require(module_name):
    """Imports a peer; a missing one fails the run unless CLSEL_SKIP_PEERS=1."""
    import importlib

    import pytest

    try:
        return importlib.import_module(module_name)
    except ImportError as error:
        if os.environ.get("CLSEL_SKIP_PEERS") == "1":
            pytest.skip(f"{module_name} is not installed and CLSEL_SKIP_PEERS=1")
        raise RuntimeError(f"{module_name} is required (ci/setup.sh installs it; CLSEL_SKIP_PEERS=1 skips): "
                           f"{error}") from error


# ---- numpy.where ---------------------------------------------------------------------

NUMPY_DTYPES = None  # every dtype, bfloat16 through ml_dtypes


def numpy_where(case, cond, then, else_):
    """numpy.where broadcasts all three two ways. For pdpd, cond and else are first
    reshaped to their place inside then (docs/semantics.md, pdpd mode), which numpy cannot do itself."""
    if case.mode == "pdpd":
        rank = len(case.shapes[1])
        if max(cond.ndim, else_.ndim) > rank:
            raise PeerRejected("pdpd: an input has a higher rank than then")
        try:
            cond = cond.reshape(pdpd_aligned(cond.shape, rank, case.axis))
            else_ = else_.reshape(pdpd_aligned(else_.shape, rank, case.axis))
            enlarged = np.broadcast_shapes(cond.shape, then.shape, else_.shape) != then.shape
        except ValueError as error:
            raise PeerRejected(str(error)) from error
        if enlarged:
            raise PeerRejected("pdpd: an input would enlarge then")
    elif case.mode == "none" and not (cond.shape == then.shape == else_.shape):
        raise PeerRejected("none: shapes differ")
    try:
        return np.where(cond, then, else_)
    except ValueError as error:
        raise PeerRejected(str(error)) from error


# ---- ONNX Runtime Where -----------------------------------------------------------------

# Where's CPU kernels in onnxruntime 1.31 (others are NOT_IMPLEMENTED there).
ORT_DTYPES = ["uint8", "int8", "uint32", "int32", "int64", "float16", "float32", "float64"]
_onnx_types = {}


def _onnx_type(name):
    from onnx import TensorProto

    if not _onnx_types:
        _onnx_types.update({"bool": TensorProto.BOOL, "uint8": TensorProto.UINT8, "int8": TensorProto.INT8,
                            "uint16": TensorProto.UINT16, "int16": TensorProto.INT16,
                            "float16": TensorProto.FLOAT16, "bfloat16": TensorProto.BFLOAT16,
                            "uint32": TensorProto.UINT32, "int32": TensorProto.INT32,
                            "float32": TensorProto.FLOAT, "uint64": TensorProto.UINT64,
                            "int64": TensorProto.INT64, "float64": TensorProto.DOUBLE})
    return _onnx_types[name]


def ort_session(dtype, shapes, threads=0):
    """An ONNX Runtime CPU session of one ONNX Where (opset 16) over inputs c (bool), t and e
    (of the dtype named) of the given shapes; `threads` intra-op threads (0: its default)."""
    import onnxruntime as ort
    from onnx import TensorProto, helper

    element = _onnx_type(dtype)
    graph = helper.make_graph(
        [helper.make_node("Where", ["c", "t", "e"], ["o"])], "select",
        [helper.make_tensor_value_info(name, kind, shape)
         for name, kind, shape in zip("cte", (TensorProto.BOOL, element, element), shapes)],
        [helper.make_tensor_value_info("o", element, None)])
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 16)], ir_version=9)
    options = ort.SessionOptions()
    options.log_severity_level = 3
    if threads:
        options.intra_op_num_threads = threads
    try:
        return ort.InferenceSession(model.SerializeToString(), options, providers=["CPUExecutionProvider"])
    except Exception as error:  # onnxruntime raises its own exception types
        raise PeerRejected(str(error).splitlines()[0]) from error


def ort_where(case, cond, then, else_):
    """ONNX Where in an ONNX Runtime CPU session; numpy-style two-way broadcasting. none
    mode: the shapes must be equal (checked here, Where has no mode)."""
    if case.mode == "none" and not (cond.shape == then.shape == else_.shape):
        raise PeerRejected("none: shapes differ")
    session = ort_session(case.dtype, (cond.shape, then.shape, else_.shape))
    try:
        return session.run(None, {"c": cond, "t": then, "e": else_})[0]
    except Exception as error:  # onnxruntime raises its own exception types
        raise PeerRejected(str(error).splitlines()[0]) from error


# ---- OpenVINO Select ----------------------------------------------------------------------

OV_DTYPES = ["bool", "uint8", "int8", "uint16", "int16", "float16", "bfloat16", "uint32", "int32", "float32",
             "uint64", "int64", "float64"]
_ov_core = []


def _ov_type(name):
    import openvino as ov

    return ov.Type.bf16 if name == "bfloat16" else ov.Type(np.dtype(name))


def _ov_bf16_tensor(array):
    import openvino as ov

    tensor = ov.Tensor(ov.Type.bf16, ov.Shape(list(array.shape)))
    np.copyto(tensor.data.view(np.uint16), array.view(np.uint16))
    return tensor


def ov_core():
    """The one OpenVINO Core of the session."""
    import openvino as ov

    if not _ov_core:
        _ov_core.append(ov.Core())
    return _ov_core[0]


def ov_select_model(dtype, shapes, mode="numpy", axis=-1):
    """opset1.Select over parameters of the given shapes (cond boolean, then and else of the
    dtype named) with `mode` broadcasting. The Python API gives pdpd the axis 0 whatever the
    shapes, and validates the node when it is made; so pdpd nodes are made on dynamic
    shapes and their axis attribute is then set."""
    import openvino as ov
    import openvino.opset1 as ops

    element = _ov_type(dtype)
    types = (ov.Type.boolean, element, element)
    if mode == "pdpd":
        params = [ops.parameter(ov.PartialShape([-1] * len(shape)), kind) for shape, kind in zip(shapes, types)]
        node = ops.select(*params, auto_broadcast="pdpd")
        node.set_attribute("auto_broadcast.auto_broadcast_axis", axis)
    else:
        params = [ops.parameter(list(shape), kind) for shape, kind in zip(shapes, types)]
        node = ops.select(*params, auto_broadcast=mode)
    return ov.Model([node], params)


def ov_select(case, cond, then, else_):
    """opset1.Select compiled for OpenVINO's CPU device (OpenVINO broadcasts cond two ways in
    numpy mode)."""
    try:
        model = ov_select_model(case.dtype, (cond.shape, then.shape, else_.shape), case.mode, case.axis)
        compiled = ov_core().compile_model(model, "CPU")
        inputs = [cond, then, else_]
        if case.dtype == "bfloat16":  # numpy has no bf16: hand OpenVINO typed tensors
            inputs[1:] = [_ov_bf16_tensor(a) for a in inputs[1:]]
        result = compiled(inputs)[compiled.outputs[0]]
    except Exception as error:  # OpenVINO raises RuntimeError and its own types
        raise PeerRejected(str(error).splitlines()[0]) from error
    # OpenVINO's Python API hands bf16 back as float16 bits.
    return host.forced_output(case.dtype, np.asarray(result).view(numpy_dtype(case.dtype)))
