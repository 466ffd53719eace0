"""ref_tokens.py IN.json: the reference token IDs of Hugging Face's `tokenizers` (the package the
model's tokenizer.json is written for). IN.json holds {"tokenizer": path, "max_length": n,
"texts": [...]}; prints a JSON list of ID lists: truncation at max_length, no padding."""
import json
import sys

from tokenizers import Tokenizer

req = json.load(open(sys.argv[1], encoding="utf-8"))
tok = Tokenizer.from_file(req["tokenizer"])
tok.no_padding()
tok.enable_truncation(max_length=req["max_length"])
enc = tok.encode_batch(req["texts"])
json.dump([e.ids for e in enc], sys.stdout)
