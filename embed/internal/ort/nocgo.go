//go:build !cgo

package ort

import "errors"

// errNoCgo is what every call returns in a build without cgo.
var errNoCgo = errors.New("ort: this ranklab was built without cgo (CGO_ENABLED=0), so it cannot load ONNX Runtime; build it with a C compiler and CGO_ENABLED=1")

// Load fails: ONNX Runtime needs cgo.
func Load(path string) (string, error) { return "", errNoCgo }

// Session is not available without cgo.
type Session struct{}

// NewSession fails: ONNX Runtime needs cgo.
func NewSession(name string, model []byte, threads int, input0, input1, output string) (*Session, error) {
	return nil, errNoCgo
}

// Run fails: ONNX Runtime needs cgo.
func (s *Session) Run(ids, mask []int64, batch, tokens int, out []float32, width int) ([]float32, []int64, error) {
	return nil, nil, errNoCgo
}

// Close does nothing.
func (s *Session) Close() {}
