//go:build cgo

package ort

import (
	"strings"
	"testing"
)

func TestLoadMissingLibrary(t *testing.T) {
	_, err := Load("/nonexistent/libonnxruntime.so")
	if err == nil || !strings.Contains(err.Error(), "/nonexistent/libonnxruntime.so") {
		t.Fatalf("Load of a missing library: %v; want an error naming it", err)
	}
	if _, err := NewSession("model.onnx", []byte("x"), 0, "a", "b", "c"); err == nil {
		t.Error("NewSession after a failed Load: no error")
	}
}
