"""dense_ort.py: the reference half of bench/bench-dense.sh. Embeds the token IDs ranklab wrote
(TOKENS.json) with onnxruntime's own Python package on the same graph (MODEL.onnx), batched as
ranklab batches (sorted by length, longest first, 32 a batch, padded to the longest), mean-pooled
over the attention mask and normalised with numpy; prints CPU and wall seconds as JSON and the
lowest cosine with ranklab's vectors (VECTORS.f32).

    python dense_ort.py MODEL.onnx TOKENS.json VECTORS.f32
"""
import json
import resource
import sys
import time

import numpy as np
import onnxruntime as ort


def cpu():
    r = resource.getrusage(resource.RUSAGE_SELF)
    return r.ru_utime + r.ru_stime


def main():
    model, tokens, vectors = sys.argv[1:4]
    toks = json.load(open(tokens))
    opts = ort.SessionOptions()
    opts.inter_op_num_threads = 1
    opts.graph_optimization_level = ort.GraphOptimizationLevel.ORT_ENABLE_ALL
    sess = ort.InferenceSession(model, opts, providers=["CPUExecutionProvider"])
    warm = np.array([toks[0]], dtype=np.int64)
    sess.run(["last_hidden_state"], {"input_ids": warm, "attention_mask": np.ones_like(warm)})
    c0, t0 = cpu(), time.perf_counter()
    order = sorted(range(len(toks)), key=lambda i: -len(toks[i]))
    out = np.zeros((len(toks), 384), dtype=np.float32)
    for s in range(0, len(order), 32):
        idx = order[s : s + 32]
        width = len(toks[idx[0]])
        ids = np.zeros((len(idx), width), dtype=np.int64)
        mask = np.zeros((len(idx), width), dtype=np.int64)
        for b, i in enumerate(idx):
            ids[b, : len(toks[i])] = toks[i]
            mask[b, : len(toks[i])] = 1
        h = sess.run(["last_hidden_state"], {"input_ids": ids, "attention_mask": mask})[0]
        m = mask[:, :, None].astype(np.float32)
        v = (h * m).sum(1) / m.sum(1)
        out[idx] = v / np.linalg.norm(v, axis=1, keepdims=True)
    c1, t1 = cpu(), time.perf_counter()
    ours = np.fromfile(vectors, dtype="<f4").reshape(len(toks), 384)
    cos = (ours * out).sum(1)
    json.dump({"texts": len(toks), "cpu_s": c1 - c0, "wall_s": t1 - t0, "min_cosine": float(cos.min())}, sys.stdout)
    print()


if __name__ == "__main__":
    main()
