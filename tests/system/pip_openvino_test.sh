#!/bin/sh
# pip_openvino_test.sh BUILD_DIR SOURCE_DIR PYTHON - the OpenVINO extension from one plain pip
# command: a fresh virtual environment gets the openvino release that PYTHON (the build's
# environment) has, then `pip install SOURCE_DIR SOURCE_DIR/integrations/openvino`, then
# pip_openvino_check.py runs an ONNX model and an OpenVINO model through the extension from
# outside the source tree. Skipped (77) where PYTHON has no openvino or onnx; needs PyPI
# (or pip's cache) like ci/setup.sh.
set -eu
build=$1
source=$2
python=$3
work="$build/pip-openvino-test"
release=$("$python" -c "import importlib.metadata as m; m.version('onnx'); print(m.version('openvino'))" 2>/dev/null) ||
  { echo "pip_openvino_test: $python has no openvino or onnx: skipped"; exit 77; }
rm -rf "$work"
mkdir -p "$work"
"$python" "$source/tests/system/where_onnx.py" "$work/where.onnx"
python3 -m venv "$work/venv"
pip() { "$work/venv/bin/python" -m pip --disable-pip-version-check "$@"; }
pip install -q "openvino==$release" >"$work/pip.log" 2>&1 &&
  pip install -q "$source" "$source/integrations/openvino" >>"$work/pip.log" 2>&1 ||
  { cat "$work/pip.log"; echo "pip_openvino_test: pip install failed"; exit 1; }
cd "$work"
unset PYTHONPATH CLSEL_LIBRARY CLSEL_OPENVINO_EXTENSION
"$work/venv/bin/python" "$source/tests/system/pip_openvino_check.py" "$work/where.onnx"
