"""clsel's OpenVINO extension, built by `pip install ./integrations/openvino` against the
openvino installed beside it. Use it through clsel.openvino (extension_path(),
replace_selects(), evaluations()), or hand `library_path` to openvino.Core.add_extension."""
import os

library_path = os.path.join(os.path.dirname(os.path.abspath(__file__)), "libclsel_openvino.so")
