"""Run by pip_openvino_test.sh in the fresh environment where pip installed clsel and
clsel_openvino: the extension is the installed package's, an ONNX Where and an OpenVINO
Select-1 run through it and give numpy.where's result, and another OpenVINO release is
refused by name."""
import os
import sys

import numpy as np
import openvino as ov

import clsel.openvino
import clsel_openvino

site = os.path.dirname(os.path.dirname(os.path.abspath(clsel.__file__)))
path = clsel.openvino.extension_path()
assert path == os.path.normpath(clsel_openvino.library_path) and path.startswith(site), path
release = ov.__version__.split("-")[0]
assert clsel.openvino.built_for() == f"clsel {clsel.version()}, OpenVINO {release}", clsel.openvino.built_for()

core = ov.Core()
core.add_extension(path)
cond = np.array([[True], [False]])
then = np.arange(6, dtype=np.float32).reshape(2, 3)
else_ = np.array(-1, dtype=np.float32)
expected = np.where(cond, then, else_)

# An ONNX model: read_model turns its Where into clsel's op.
model = core.read_model(sys.argv[1])
types = sorted({f"{op.get_type_name()}/{op.get_type_info().version_id}" for op in model.get_ops()})
assert "Select/clsel" in types and "Select/opset1" not in types, types
before = clsel.openvino.evaluations()
out = core.compile_model(model, "CPU")([cond, then, else_])[0]
assert np.array_equal(out, expected) and clsel.openvino.evaluations() > before, (out, expected)

# A model built with OpenVINO's Python API: replace_selects swaps its Select-1 for clsel's op.
inputs = [ov.opset13.parameter(a.shape, ov.Type(a.dtype)) for a in (cond, then, else_)]
model = ov.Model([ov.opset13.select(*inputs)], inputs)
assert clsel.openvino.replace_selects(model) == 1
before = clsel.openvino.evaluations()
out = core.compile_model(model, "CPU")([cond, then, else_])[0]
assert np.array_equal(out, expected) and clsel.openvino.evaluations() > before, (out, expected)

# Another OpenVINO release than the one built for: refused, naming both.
ov.__version__ = "1999.1.0"
try:
    clsel.openvino.extension_path()
    raise AssertionError("extension_path() accepted another OpenVINO release")
except clsel.openvino.ExtensionMismatch as error:
    assert release in str(error) and "1999.1.0" in str(error), error
print(f"pip_openvino_test: {path} ({clsel.openvino.built_for()}) ran an ONNX Where and a Select-1")
