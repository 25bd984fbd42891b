"""How pip builds clsel_openvino: scikit-build-core's backend, told which OpenVINO to build
against, and a wheel that requires that OpenVINO release.

The extension works with one OpenVINO release only (it links OpenVINO's libraries, whose
file names carry the release), so it is built against the openvino of the environment
that pip installs into. pip builds in an isolated environment that hides that
environment's packages behind a PYTHONPATH overlay; a child `python -I` (isolated mode:
PYTHONPATH ignored) of the same interpreter sees them again. Where that environment has
no openvino, the build asks for one (the newest) and the wheel requires that very
release, so pip installs the release that the extension was built for.
"""
import base64
import hashlib
import json
import os
import subprocess
import sys
import zipfile

from scikit_build_core import build as _scikit_build

# What an interpreter knows of its openvino: the release pip knows it by, and OpenVINO's
# CMake package (the wheel ships it).
_PROBE = """
import importlib.metadata, json, openvino.utils
print(json.dumps([importlib.metadata.version("openvino"), openvino.utils.get_cmake_path()]))
"""


def _openvino(target_environment):
    """(release, CMake package folder) of the openvino that the environment pip installs into
    has (target_environment) or that this build environment has; None where it has none."""
    isolation = ["-I"] if target_environment else []
    probe = subprocess.run([sys.executable, *isolation, "-c", _PROBE], capture_output=True, text=True)
    if probe.returncode != 0:
        return None
    return tuple(json.loads(probe.stdout))


def get_requires_for_build_wheel(config_settings=None):
    requires = list(_scikit_build.get_requires_for_build_wheel(config_settings))
    if _openvino(target_environment=True) is None:
        requires.append("openvino")
    return requires


def build_wheel(wheel_directory, config_settings=None, metadata_directory=None):
    openvino = _openvino(target_environment=True) or _openvino(target_environment=False)
    if openvino is None:
        raise RuntimeError("clsel_openvino: no openvino to build against, neither in the environment pip "
                           f"installs into ({sys.executable}) nor in the build environment")
    release, cmake_package = openvino
    settings = dict(config_settings or {})
    settings["cmake.define.OpenVINO_DIR"] = cmake_package
    name = _scikit_build.build_wheel(wheel_directory, settings, metadata_directory)
    _add_requirement(os.path.join(wheel_directory, name), f"openvino=={release}")
    return name


def _add_requirement(wheel, requirement):
    """Adds `Requires-Dist: requirement` to the wheel's METADATA and its new hash to RECORD."""
    with zipfile.ZipFile(wheel) as archive:
        entries = [(info, archive.read(info)) for info in archive.infolist()]
    files = {info.filename: data for info, data in entries}
    metadata_name = next(name for name in files if name.endswith(".dist-info/METADATA"))
    record_name = metadata_name[: -len("METADATA")] + "RECORD"
    # The headers end at the first blank line (the long description follows it).
    headers, blank, description = files[metadata_name].decode().partition("\n\n")
    metadata = f"{headers}\nRequires-Dist: {requirement}{blank}{description}".encode()
    digest = base64.urlsafe_b64encode(hashlib.sha256(metadata).digest()).rstrip(b"=").decode()
    record = [
        f"{metadata_name},sha256={digest},{len(metadata)}" if row.startswith(metadata_name + ",") else row
        for row in files[record_name].decode().splitlines()
    ]
    files[metadata_name] = metadata
    files[record_name] = ("\n".join(record) + "\n").encode()
    with zipfile.ZipFile(wheel, "w") as archive:
        for info, _ in entries:
            archive.writestr(info, files[info.filename])

