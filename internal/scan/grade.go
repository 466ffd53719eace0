package scan

import (
	"math"
	"strconv"
)

// Grade parses b as a qrels grade: a decimal integer of 32 bits with an optional sign, not
// math.MinInt32 (eval.Unjudged, the grade of a document the qrels do not list); ok is false for
// anything else. Plain digits are read without allocating. Every reader of a grade (eval's qrels
// readers, check's preflight) calls it, so they agree on every field.
func Grade(b []byte) (g int, ok bool) {
	neg := len(b) > 0 && b[0] == '-'
	digits := b
	if neg {
		digits = b[1:]
	}
	if len(digits) == 0 || len(digits) > 9 {
		return slowGrade(b)
	}
	v := 0
	for _, c := range digits {
		if c < '0' || c > '9' {
			return slowGrade(b)
		}
		v = v*10 + int(c-'0')
	}
	if neg {
		v = -v
	}
	return v, true
}

// slowGrade is Grade through strconv, for what the fast path does not read.
func slowGrade(b []byte) (int, bool) {
	g, err := strconv.ParseInt(string(b), 10, 32)
	if err != nil || g == math.MinInt32 {
		return 0, false
	}
	return int(g), true
}
