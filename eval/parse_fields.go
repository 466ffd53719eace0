package eval

import (
	"errors"

	"github.com/ranklab/ranklab/internal/evalhook"
	"github.com/ranklab/ranklab/internal/scan"
)

// Package check's lenient preflight reader reads fields exactly as the readers here do.
func init() {
	evalhook.ParseScore = func(field string) (float64, error) { return parseScore([]byte(field)) }
	evalhook.ParseGrade = func(field string) (int, error) { return parseGradeBytes([]byte(field)) }
}

// errNotNumber is parseScore's error.
var errNotNumber = errors.New("not a finite decimal number")

// parseScore is scan.Float with an error.
func parseScore(b []byte) (float64, error) {
	v, ok := scan.Float(b)
	if !ok {
		return 0, errNotNumber
	}
	return v, nil
}
