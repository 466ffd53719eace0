package embed

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
)

// ErrNotInstalled is returned (wrapped) when the model or the runtime is missing.
var ErrNotInstalled = errors.New("the dense model is not installed: run `make lab` (or `bash kernel-setup/dense.sh`), which installs all-MiniLM-L6-v2 and ONNX Runtime")

// Manifest says where kernel-setup/dense.sh put the model and the runtime (its dense.json).
type Manifest struct {
	Model          string `json:"model"`           // "all-MiniLM-L6-v2"
	ModelDir       string `json:"model_dir"`       // model.onnx, vocab.txt, tokenizer.json, configs
	ModelKey       string `json:"model_key"`       // hash of the safetensors and the exporter
	Runtime        string `json:"runtime"`         // libonnxruntime.so
	RuntimeVersion string `json:"runtime_version"` // "1.32.0"
	Python         string `json:"python"`          // the set-up's Python (onnxruntime, numpy)
}

// DenseDir is where kernel-setup/dense.sh installs: $RANKLAB_DENSE_DIR, else
// <user cache dir>/ranklab/dense (~/.cache/ranklab/dense on Linux).
func DenseDir() string {
	if d := os.Getenv("RANKLAB_DENSE_DIR"); d != "" {
		return d
	}
	c, err := os.UserCacheDir()
	if err != nil {
		c = filepath.Join(os.Getenv("HOME"), ".cache")
	}
	return filepath.Join(c, "ranklab", "dense")
}

// FindManifest reads DenseDir()/dense.json and checks that the files it names exist. A missing
// file gives an error wrapping ErrNotInstalled.
func FindManifest() (Manifest, error) {
	path := filepath.Join(DenseDir(), "dense.json")
	data, err := os.ReadFile(path)
	if errors.Is(err, os.ErrNotExist) {
		return Manifest{}, fmt.Errorf("%s is missing: %w", path, ErrNotInstalled)
	}
	if err != nil {
		return Manifest{}, err
	}
	var m Manifest
	if err := json.Unmarshal(data, &m); err != nil {
		return Manifest{}, fmt.Errorf("%s: %w", path, err)
	}
	for _, f := range []string{m.Runtime, m.OnnxPath(), m.VocabPath()} {
		if _, err := os.Stat(f); err != nil {
			return Manifest{}, fmt.Errorf("%s names %s, which is missing: %w", path, f, ErrNotInstalled)
		}
	}
	return m, nil
}

// OnnxPath is the model's ONNX graph.
func (m Manifest) OnnxPath() string { return filepath.Join(m.ModelDir, "model.onnx") }

// VocabPath is the model's WordPiece vocabulary.
func (m Manifest) VocabPath() string { return filepath.Join(m.ModelDir, "vocab.txt") }

// TokenizerPath is the model's tokenizer.json (what the reference tokenizer reads).
func (m Manifest) TokenizerPath() string { return filepath.Join(m.ModelDir, "tokenizer.json") }
