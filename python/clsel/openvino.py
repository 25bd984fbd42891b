"""clsel inside OpenVINO: the extension whose op runs Select-1 through clsel.

    import openvino as ov, clsel.openvino
    core = ov.Core()
    core.add_extension(clsel.openvino.extension_path())   # before read_model
    model = core.read_model("model.onnx")                  # every ONNX Where is clsel's op
    clsel.openvino.replace_selects(model)                  # OpenVINO's own Select-1 nodes too
    compiled = core.compile_model(model, "CPU")

The extension (libclsel_openvino.so) is built against one OpenVINO release and works only
with it (its libraries carry the release in their names): extension_path() checks that the
openvino module imported here is that release and raises ExtensionMismatch otherwise.
`pip install ./integrations/openvino` builds it, as the package clsel_openvino, against
the openvino of the environment it installs into, and requires that release; a build tree
has it with -DCLSEL_OPENVINO=ON (docs/integration.md).
"""
import ctypes
import importlib.util
import os

from . import library_path

__all__ = ["extension_path", "replace_selects", "evaluations", "built_for", "ExtensionMismatch"]

_NAME = "libclsel_openvino.so"


class ExtensionMismatch(RuntimeError):
    """The extension is missing, or was built for another OpenVINO release than the one imported."""


def _candidates():
    explicit = os.environ.get("CLSEL_OPENVINO_EXTENSION")
    if explicit:
        yield explicit
    package = importlib.util.find_spec("clsel_openvino")  # pip install ./integrations/openvino
    if package is not None and package.submodule_search_locations:
        yield os.path.join(package.submodule_search_locations[0], _NAME)
    yield os.path.join(os.path.dirname(library_path), _NAME)  # a build tree: beside libclsel.so


def _find():
    for path in _candidates():
        if os.path.exists(path):
            return os.path.normpath(path)
    raise ExtensionMismatch(f"{_NAME} is not installed: pip install ./integrations/openvino (from clsel's "
                            "source tree, with the pip of the environment that has openvino), or configure a "
                            "build tree with -DCLSEL_OPENVINO=ON (docs/integration.md); "
                            f"looked in {', '.join(_candidates())}")


_loaded = None


def _library():
    global _loaded
    if _loaded is None:
        library = ctypes.CDLL(_find())
        library.clsel_openvino_evaluations.restype = ctypes.c_uint64
        library.clsel_openvino_built_for.restype = ctypes.c_char_p
        _loaded = library
    return _loaded


def built_for():
    """What the extension was built with: "clsel X.Y.Z, OpenVINO A.B.C"."""
    return _library().clsel_openvino_built_for().decode()


def extension_path():
    """The extension's path, for openvino.Core.add_extension; ExtensionMismatch when it is
    missing or was built for another OpenVINO release than the imported one."""
    import openvino

    path = _find()
    built = built_for().split("OpenVINO ")[-1]
    running = openvino.__version__.split("-")[0]
    if built != running:
        raise ExtensionMismatch(f"{path} was built for OpenVINO {built}, but openvino {running} is imported: "
                                "rebuild the extension against it (pip install ./integrations/openvino "
                                f"in this environment) or install openvino=={built}")
    return path


def evaluations():
    """How many times this process ran the extension's op (every Where or Select it took
    over, at inference and at constant folding)."""
    return int(_library().clsel_openvino_evaluations())


def replace_selects(model):
    """Replaces every OpenVINO Select-1 node of `model` (read from IR, built with the
    Python API or by another frontend) with clsel's op, attributes (broadcast mode,
    pdpd axis) and friendly names kept. Returns how many it replaced."""
    import openvino as ov
    from openvino.utils.node_factory import NodeFactory

    factory = NodeFactory()
    factory.add_extension(extension_path())
    replaced = 0
    for node in model.get_ops():
        if node.get_type_name() != "Select" or node.get_type_info().version_id != "opset1":
            continue
        new = factory.create("Select", [node.input_value(i) for i in range(3)], node.get_attributes())
        new.set_friendly_name(node.get_friendly_name())
        ov.utils.replace_node(node, new)
        replaced += 1
    if replaced:
        model.validate_nodes_and_infer_types()
    return replaced
