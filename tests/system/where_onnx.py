"""The ONNX model that the OpenVINO examples read (pip_openvino_test.sh, docs_examples.py):
one Where, cond bool [2,1] against then f32 [2,3] and a scalar f32 else, opset 16.

usage: where_onnx.py PATH   (or write(path) from Python; needs the onnx package)
"""
import sys


def write(path):
    from onnx import TensorProto, helper, save

    graph = helper.make_graph(
        [helper.make_node("Where", ["cond", "then", "else"], ["out"])], "where",
        [helper.make_tensor_value_info("cond", TensorProto.BOOL, [2, 1]),
         helper.make_tensor_value_info("then", TensorProto.FLOAT, [2, 3]),
         helper.make_tensor_value_info("else", TensorProto.FLOAT, [])],
        [helper.make_tensor_value_info("out", TensorProto.FLOAT, [2, 3])])
    save(helper.make_model(graph, opset_imports=[helper.make_opsetid("", 16)]), path)


if __name__ == "__main__":
    write(sys.argv[1])
