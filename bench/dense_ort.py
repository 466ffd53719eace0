"""dense_ort.py: the onnxruntime halves of bench/bench-dense.sh. Embeds the token IDs ranklab wrote
(TOKENS.json) with onnxruntime's own Python package on a graph (MODEL.onnx: ranklab's, the old
exporter's or torch's), batched as ranklab batches (sorted by length, longest first, 32 a batch,
padded to the longest), mean-pooled over the attention mask and normalised with numpy; prints CPU
and wall seconds as JSON (loading and a warm-up batch excluded) and writes the vectors to OUT.f32
(float32, row-major, in TOKENS.json's order).

    python dense_ort.py MODEL.onnx TOKENS.json OUT.f32 [THREADS [MODE [BATCH]]]

THREADS (default 1) and MODE: "concurrent" (default) runs THREADS batches at once on one session
with one intra-op thread, as ranklab does; "sessions" the same on THREADS sessions, one each;
"intra" runs one batch at a time on THREADS intra-op threads. Idle workers sleep
(session.intra_op.allow_spinning 0), as in ranklab. BATCH: texts a batch (default 32).
"""
import json
import resource
import sys
import threading
import time

import numpy as np
import onnxruntime as ort


def cpu():
    r = resource.getrusage(resource.RUSAGE_SELF)
    return r.ru_utime + r.ru_stime


def main():
    model, tokens, outpath = sys.argv[1:4]
    threads = int(sys.argv[4]) if len(sys.argv) > 4 else 1
    mode = sys.argv[5] if len(sys.argv) > 5 else "concurrent"
    size = int(sys.argv[6]) if len(sys.argv) > 6 else 32
    toks = json.load(open(tokens))
    opts = ort.SessionOptions()
    opts.intra_op_num_threads = threads if mode == "intra" else 1
    opts.inter_op_num_threads = 1
    opts.graph_optimization_level = ort.GraphOptimizationLevel.ORT_ENABLE_ALL
    opts.add_session_config_entry("session.intra_op.allow_spinning", "0")
    sessions = [ort.InferenceSession(model, opts, providers=["CPUExecutionProvider"])
                for _ in range(threads if mode == "sessions" else 1)]
    warm = np.array([toks[0]], dtype=np.int64)
    for sess in sessions:
        sess.run(["last_hidden_state"], {"input_ids": warm, "attention_mask": np.ones_like(warm)})
    c0, t0 = cpu(), time.perf_counter()
    order = sorted(range(len(toks)), key=lambda i: -len(toks[i]))
    batches = [order[s : s + size] for s in range(0, len(order), size)]
    out = np.zeros((len(toks), 384), dtype=np.float32)
    nxt, lock = [0], threading.Lock()

    def work(sess):
        while True:
            with lock:
                b = nxt[0]
                nxt[0] += 1
            if b >= len(batches):
                return
            idx = batches[b]
            width = len(toks[idx[0]])
            ids = np.zeros((len(idx), width), dtype=np.int64)
            mask = np.zeros((len(idx), width), dtype=np.int64)
            for j, i in enumerate(idx):
                ids[j, : len(toks[i])] = toks[i]
                mask[j, : len(toks[i])] = 1
            h = sess.run(["last_hidden_state"], {"input_ids": ids, "attention_mask": mask})[0]
            m = mask[:, :, None].astype(np.float64)
            v = (h * m).sum(1) / m.sum(1)
            out[idx] = v / np.linalg.norm(v, axis=1, keepdims=True)

    workers = [threading.Thread(target=work, args=(sessions[k % len(sessions)],))
               for k in range(1 if mode == "intra" else threads)]
    for w in workers:
        w.start()
    for w in workers:
        w.join()
    c1, t1 = cpu(), time.perf_counter()
    out.astype("<f4").tofile(outpath)
    json.dump({"texts": len(toks), "cpu_s": c1 - c0, "wall_s": t1 - t0}, sys.stdout)
    print()


if __name__ == "__main__":
    main()
