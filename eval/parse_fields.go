package eval

import (
	"errors"

	"github.com/ranklab/ranklab/internal/scan"
)

// ParseScore reads a run's score field exactly as ReadRun does (a decimal number in the grammar
// of the package doc, with a finite value), so that a tool reading runs another way (package
// check's lenient preflight reader) agrees with the evaluator on every score.
func ParseScore(field string) (float64, error) { return parseScore([]byte(field)) }

// ParseGrade reads a qrels grade field exactly as ReadQrels does (an integer; Unjudged and
// values beyond 32 bits refused), for the same reason as ParseScore.
func ParseGrade(field string) (int, error) { return parseGradeBytes([]byte(field)) }

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
