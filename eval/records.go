package eval

import (
	"io"

	"github.com/ranklab/ranklab/internal/scan"
)

// readRecords is the line loop of the readers of judgment-like files (ReadQrels, parseQrelsJG,
// parsePrefs, parseQrelsPrefs, parseZScores): records of exactly n whitespace-separated fields, one
// a line. It reads r with scan.Lines (byte-order mark and carriage returns dropped), splits each
// line with scan.Fields and
//
//   - refuses an empty line (ErrEmptyLine);
//   - skips a line whose first field starts with '#' (a comment);
//   - refuses a line with other than n fields (ErrFieldCount: "got N, want <want>");
//   - hands every other line to record with its fields (aliasing the line: copy what is kept)
//     and its number, stopping at the first error record returns;
//   - ends at a read error with readErr, and refuses an input without a record (ErrEmpty,
//     followed by ": <empty>" when empty is not "").
//
// Errors are *ParseError values naming name and the line.
func readRecords(r io.Reader, name string, n int, want, empty string, record func(f [][]byte, line int) error) error {
	lines := scan.NewLines(r)
	records := 0
	var f [][]byte
	for lines.Next() {
		line := lines.Line()
		f, _ = scan.Fields(lines.Bytes(), f[:0], 0)
		if len(f) == 0 {
			return parseErr(name, line, ErrEmptyLine, "")
		}
		if f[0][0] == '#' {
			continue
		}
		if len(f) != n {
			return parseErr(name, line, ErrFieldCount, "got %d, want %s", len(f), want)
		}
		if err := record(f, line); err != nil {
			return err
		}
		records++
	}
	if err := lines.Err(); err != nil {
		return readErr(name, lines.Line(), err)
	}
	if records == 0 {
		if empty == "" {
			return parseErr(name, 0, ErrEmpty, "")
		}
		return parseErr(name, 0, ErrEmpty, "%s", empty)
	}
	return nil
}

// inner returns m[k], making it an empty map first when it is absent.
func inner[V any](m map[string]map[string]V, k string) map[string]V {
	in := m[k]
	if in == nil {
		in = map[string]V{}
		m[k] = in
	}
	return in
}

// querySet returns the set of m's keys: the query IDs of relevance information or of a run.
func querySet[V any](m map[string]V) map[string]bool {
	set := make(map[string]bool, len(m))
	for q := range m {
		set[q] = true
	}
	return set
}
