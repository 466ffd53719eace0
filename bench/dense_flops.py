"""dense_flops.py: how close a graph of all-MiniLM-L6-v2 runs to the speed of its own matrix
products. The last part of bench/bench-dense.sh.

    python dense_flops.py GRAPH.onnx [GRAPH.onnx ...]

For each graph, in one process with one intra-op thread: a batch of 32 texts of 256 tokens
(random IDs; the cost does not depend on them) run REPS times (default 3), against a lone MatMul of
the same size as the model's largest (8,192 x 384 by 384 x 1,536), alternating. A forward pass is
6 x (2 n (4 H^2 + 2 H F) + 4 n^2 H) floating-point operations for a text of n tokens (H 384,
F 1,536): the dense layers' products and attention's two. Prints GFLOP/s of each and their ratio:
a graph cannot be faster than ratio 1, whatever it fuses. Before that, for each graph, the nodes
written and the nodes ONNX Runtime runs (its optimized graph, saved with
SessionOptions.optimized_model_filepath at ORT_ENABLE_ALL), counted by type.
"""
import collections
import os
import resource
import sys
import tempfile

import numpy as np
import onnxruntime as ort
import onnx
from onnx import TensorProto, helper, numpy_helper


def cpu():
    r = resource.getrusage(resource.RUSAGE_SELF)
    return r.ru_utime + r.ru_stime


def session(model, optimized=None):
    o = ort.SessionOptions()
    o.intra_op_num_threads = 1
    o.graph_optimization_level = ort.GraphOptimizationLevel.ORT_ENABLE_ALL
    o.log_severity_level = 3  # no warning that the saved graph is for this machine
    if optimized:
        o.optimized_model_filepath = optimized
    return ort.InferenceSession(model, o, providers=["CPUExecutionProvider"])


def counts(model):
    c = collections.Counter(n.op_type for n in model.graph.node)
    return f"{sum(c.values())} ({', '.join(f'{k} {v}' for k, v in c.most_common())})"


def nodes(path):
    """Prints the nodes of the graph at path and of the graph ONNX Runtime runs."""
    with tempfile.TemporaryDirectory() as d:
        session(path, os.path.join(d, "opt.onnx"))
        run = counts(onnx.load(os.path.join(d, "opt.onnx")))
    print(f"{os.path.basename(path)}: nodes written {counts(onnx.load(path, load_external_data=False))}")
    print(f"{'':{len(os.path.basename(path))}s}  nodes ONNX Runtime runs {run}")


def main():
    for path in sys.argv[1:]:
        nodes(path)
    reps = int(os.environ.get("REPS", "3"))
    B, S, H, F, L = 32, 256, 384, 1536, 6
    flops = L * (2 * B * S * (4 * H * H + 2 * H * F) + 4 * B * S * S * H)
    x = np.random.default_rng(1).random((B * S, H), dtype=np.float32)
    w = np.random.default_rng(2).random((H, F), dtype=np.float32)
    g = helper.make_graph([helper.make_node("MatMul", ["x", "w"], ["y"])], "matmul",
                          [helper.make_tensor_value_info("x", TensorProto.FLOAT, [None, H])],
                          [helper.make_tensor_value_info("y", TensorProto.FLOAT, [None, F])], [numpy_helper.from_array(w, "w")])
    m = helper.make_model(g, opset_imports=[helper.make_opsetid("", 17)])
    m.ir_version = 8
    mm = session(m.SerializeToString())
    mm.run(None, {"x": x})
    ids = np.random.default_rng(3).integers(1000, 20000, (B, S), dtype=np.int64)
    feed = {"input_ids": ids, "attention_mask": np.ones_like(ids)}
    for path in sys.argv[1:]:
        s = session(path)
        s.run(None, feed)
        tg = tm = 0.0
        for _ in range(reps):
            c0 = cpu()
            s.run(None, feed)
            tg += cpu() - c0
            c0 = cpu()
            mm.run(None, {"x": x})
            tm += cpu() - c0
        gr, mr = reps * flops / tg / 1e9, reps * 2 * B * S * H * F / tm / 1e9
        print(f"{os.path.basename(path):36s} {gr:6.1f} GFLOP/s; a lone MatMul {mr:6.1f} GFLOP/s; ratio {gr / mr:.3f} ({flops / 1e9:.1f} GFLOP a batch)")


if __name__ == "__main__":
    main()
