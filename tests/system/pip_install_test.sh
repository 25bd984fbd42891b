#!/bin/sh
# pip_install_test.sh BUILD_DIR SOURCE_DIR - `pip install SOURCE_DIR` into a fresh virtual
# environment (scikit-build-core builds the library with the project's CMake), then runs
# the Python examples of README.md and docs/python.md from outside the source tree, with no PYTHONPATH and no
# CLSEL_LIBRARY: the package must find the library it carries. Needs PyPI (numpy,
# scikit-build-core), like ci/setup.sh.
set -eu
build=$1
source=$2
work="$build/pip-test"
rm -rf "$work"
mkdir -p "$work"
python3 -m venv "$work/venv"
"$work/venv/bin/python" -m pip install -q --disable-pip-version-check "$source" >"$work/pip.log" 2>&1 ||
  { cat "$work/pip.log"; echo "pip_install_test: pip install failed"; exit 1; }
cd "$work"
unset PYTHONPATH CLSEL_LIBRARY
"$work/venv/bin/python" - "$source" <<'PY'
import os
import re
import sys

import numpy as np

import clsel

source = sys.argv[1]
site = os.path.dirname(os.path.dirname(os.path.abspath(clsel.__file__)))
assert clsel.library_path.startswith(site), f"loaded {clsel.library_path}, not the installed package's library"
import sysconfig
if os.path.exists(os.path.join(sysconfig.get_paths()["include"], "Python.h")):  # the headers pip built with
    assert clsel._fastcall is not None, "the package has no compiled per-call step (_fastcall)"
declared = re.search(r'^version = "([^"]+)"', open(os.path.join(source, "pyproject.toml")).read(), re.M).group(1)
assert clsel.version() == declared, f"pyproject.toml says {declared}, the library {clsel.version()}"
# The examples of README.md and docs/python.md, as printed there.
print(clsel.where(np.array([0.5, 0, 2]), np.arange(3.0), -1))                       # [ 0. -1.  2.]
assert clsel.where(np.array([0.5, 0, 2]), np.arange(3.0), -1).tolist() == [0.0, -1.0, 2.0]
print(clsel.select(np.array([True, False, True]), np.arange(3.0), np.float64(-1)))   # [ 0. -1.  2.]
out = np.empty(3)
clsel.select(np.array([True, False, True]), np.arange(3.0), np.zeros(3), out=out)     # writes into out
assert out.tolist() == [0.0, 0.0, 2.0], out
assert clsel.select(np.array([True, False, True]), np.arange(3.0), np.float64(-1)).tolist() == [0.0, -1.0, 2.0]
print(f"pip_install_test: clsel {clsel.version()} installed, library {clsel.library_path}")
PY
