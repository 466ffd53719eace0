package embed

import (
	"cmp"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
)

// ErrNotInstalled is returned (wrapped) when the model or the runtime is missing.
var ErrNotInstalled = errors.New("the dense model is not installed: run `make lab` (or `bash kernel-setup/dense.sh`), which installs all-MiniLM-L6-v2 and ONNX Runtime, or set RANKLAB_DENSE_DIR to the folder of an existing install (the one holding dense.json)")

// manifest says where kernel-setup/dense.sh put the model and the runtime (its dense.json).
type manifest struct {
	Model          string `json:"model"`           // "all-MiniLM-L6-v2"
	ModelDir       string `json:"model_dir"`       // model.onnx, vocab.txt, tokenizer.json, configs
	ModelKey       string `json:"model_key"`       // hash of the safetensors and the exporter
	GraphSHA256    string `json:"graph_sha256"`    // sha256 of model.onnx as the set-up wrote it
	Runtime        string `json:"runtime"`         // libonnxruntime.so
	RuntimeVersion string `json:"runtime_version"` // "1.32.0"
	Python         string `json:"python"`          // the set-up's Python (onnxruntime, numpy)
}

// denseDir is where kernel-setup/dense.sh installs: $RANKLAB_DENSE_DIR, else
// <user cache dir>/ranklab/dense (~/.cache/ranklab/dense on Linux).
func denseDir() string {
	if d := os.Getenv("RANKLAB_DENSE_DIR"); d != "" {
		return d
	}
	c, err := os.UserCacheDir()
	if err != nil {
		c = filepath.Join(os.Getenv("HOME"), ".cache")
	}
	return filepath.Join(c, "ranklab", "dense")
}

// findManifest reads denseDir()/dense.json and checks that the files it names exist. A missing
// file gives an error wrapping ErrNotInstalled.
func findManifest() (manifest, error) {
	path := filepath.Join(denseDir(), "dense.json")
	data, err := os.ReadFile(path)
	if errors.Is(err, os.ErrNotExist) {
		return manifest{}, fmt.Errorf("%s is missing: %w", path, ErrNotInstalled)
	}
	if err != nil {
		return manifest{}, err
	}
	var m manifest
	if err := json.Unmarshal(data, &m); err != nil {
		return manifest{}, fmt.Errorf("%s: %w", path, err)
	}
	for _, f := range []string{m.Runtime, m.onnxPath(), m.vocabPath()} {
		if _, err := os.Stat(f); err != nil {
			return manifest{}, fmt.Errorf("%s names %s, which is missing: %w", path, f, ErrNotInstalled)
		}
	}
	return m, nil
}

// onnxPath is the model's ONNX graph.
func (m manifest) onnxPath() string { return filepath.Join(m.ModelDir, "model.onnx") }

// vocabPath is the model's WordPiece vocabulary.
func (m manifest) vocabPath() string { return filepath.Join(m.ModelDir, "vocab.txt") }

// tokenizerPath is the model's tokenizer.json (what the reference tokenizer reads).
func (m manifest) tokenizerPath() string { return filepath.Join(m.ModelDir, "tokenizer.json") }

// readGraph reads model.onnx and checks its sha256 against the one the set-up recorded: a graph
// changed in place (one weight zeroed) or a manifest from a set-up that recorded none is an
// error, not a different run. other, when not "", is read instead, unchecked (Options.Graph).
// It returns the bytes and their sha256 (hex).
func (m manifest) readGraph(other string) ([]byte, string, error) {
	data, err := os.ReadFile(cmp.Or(other, m.onnxPath()))
	if err != nil {
		return nil, "", err
	}
	h := sha256.Sum256(data)
	sum := hex.EncodeToString(h[:])
	switch {
	case other != "":
	case m.GraphSHA256 == "":
		return nil, "", fmt.Errorf("%s records no graph_sha256 (an older set-up): %w", filepath.Join(denseDir(), "dense.json"), ErrNotInstalled)
	case sum != m.GraphSHA256:
		return nil, "", fmt.Errorf("embed: %s has sha256 %s, but the set-up wrote %s: the graph was changed after it was written (reinstall: delete %s and run bash kernel-setup/dense.sh)", m.onnxPath(), sum, m.GraphSHA256, m.ModelDir)
	}
	return data, sum, nil
}
