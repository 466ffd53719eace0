"""ref_tokens.py IN.json: the reference token IDs of Hugging Face's `tokenizers` (the package the
model's tokenizer.json is written for). IN.json holds {"tokenizer": path, "max_length": n} and
either "texts": [...], for which it prints a JSON list of ID lists (truncation at max_length, no
padding), or "contexts": ["%c", "a%ca", ...], for which it tokenizes every code point but the
surrogates (U+0000..U+10FFFF in order) in each context (%c replaced by the code point; code point
after code point, each in every context) and prints one JSON string: a line per text, its IDs
separated by spaces."""
import json
import sys

from tokenizers import Tokenizer

req = json.load(open(sys.argv[1], encoding="utf-8"))
tok = Tokenizer.from_file(req["tokenizer"])
tok.no_padding()
tok.enable_truncation(max_length=req["max_length"])
if "contexts" in req:
    texts = [ctx.replace("%c", chr(c)) for c in range(0x110000) if not 0xD800 <= c <= 0xDFFF for ctx in req["contexts"]]
    enc = tok.encode_batch(texts)
    json.dump("\n".join(" ".join(map(str, e.ids)) for e in enc), sys.stdout)
else:
    enc = tok.encode_batch(req["texts"])
    json.dump([e.ids for e in enc], sys.stdout)
