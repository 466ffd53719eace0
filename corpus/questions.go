package corpus

import (
	"fmt"
	"io"
	"strings"

	"github.com/ranklab/ranklab/internal/scan"
	"github.com/ranklab/ranklab/retrieval"
)

// ReadQuestions reads queries from plain text, one question a line: "ID<tab>question" names
// its ID, any other line is a question whose ID is its slug (see the package doc). Blank lines
// and lines starting with "#" are skipped. Errors read "name:line: message": an ID a TREC file
// cannot carry, a question with no letter or digit and no ID, an ID twice (naming both lines),
// no question at all.
func ReadQuestions(r io.Reader, name string) ([]retrieval.Query, error) {
	var qs []retrieval.Query
	seen := map[string]int{}
	lines := scan.NewLines(r)
	for lines.Next() {
		n := lines.Line()
		line := scan.TrimSpace(string(lines.Bytes()))
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		q := retrieval.Query{Text: line}
		if id, text, ok := strings.Cut(line, "\t"); ok {
			q.ID, q.Text = scan.TrimSpace(id), scan.TrimSpace(text)
			if q.Text == "" {
				return nil, fmt.Errorf("%s:%d: ID %q with no question", name, n, q.ID)
			}
		} else if q.ID = slugOf(line); q.ID == "" {
			return nil, fmt.Errorf("%s:%d: a question with no letter or digit: give it an ID (ID<tab>question)", name, n)
		}
		if err := checkID(q.ID); err != nil {
			return nil, fmt.Errorf("%s:%d: %w", name, n, err)
		}
		if prev, dup := seen[q.ID]; dup {
			return nil, fmt.Errorf("%s:%d: ID %q is also the ID of line %d: give one of them its own (ID<tab>question)", name, n, q.ID, prev)
		}
		seen[q.ID] = n
		qs = append(qs, q)
	}
	if err := lines.Err(); err != nil {
		return nil, fmt.Errorf("%s:%d: %w", name, lines.Line()+1, scan.ReadError(err))
	}
	if len(qs) == 0 {
		return nil, fmt.Errorf("%s: no question (one a line)", name)
	}
	return qs, nil
}
