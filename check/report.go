package check

import (
	"fmt"
	"strings"

	"github.com/ranklab/ranklab/internal/jsonx"
)

// maxPerGroup is how many findings of one code and file the text shows before "... N more".
const maxPerGroup = 5

// Text returns the report for a terminal: the findings grouped by file and check, errors first,
// at most 5 of a group (then how many more), each "file:line: severity: message"; then one
// line per run with its figures, and a closing count.
func (r Report) Text() string {
	var b strings.Builder
	type key struct {
		sev  Severity
		file string
		code string
	}
	var order []key
	groups := map[key][]Finding{}
	for _, sev := range []Severity{Error, Warning, Info} {
		for _, f := range r.Findings {
			if f.Severity != sev {
				continue
			}
			k := key{sev, f.File, f.Code}
			if _, ok := groups[k]; !ok {
				order = append(order, k)
			}
			groups[k] = append(groups[k], f)
		}
	}
	for _, k := range order {
		fs := groups[k]
		for i, f := range fs {
			if i == maxPerGroup {
				fmt.Fprintf(&b, "%s: %s: ... %d more %s findings\n", f.File, f.Severity, len(fs)-maxPerGroup, f.Code)
				break
			}
			b.WriteString(f.String() + "\n")
		}
	}
	for _, run := range r.Runs {
		ties := "not measured"
		if run.TieSensitive >= 0 {
			ties = fmt.Sprint(run.TieSensitive)
		}
		fmt.Fprintf(&b, "run %s: %d queries (%d judged), %.1f%% unjudged in the top %d, tie-sensitive queries: %s, %d errors\n",
			run.Path, run.Queries, run.Shared, 100*run.Unjudged, r.K, ties, run.Errors)
	}
	fmt.Fprintf(&b, "ranklab check: %d errors, %d warnings\n", r.count(Error), r.count(Warning))
	return b.String()
}

// JSON returns the report as indented JSON: the files, each run's figures, the grade
// distribution, every finding (none left out) and the counts.
func (r Report) JSON() []byte {
	out := struct {
		Report
		Errors   int `json:"errors"`
		Warnings int `json:"warnings"`
	}{r, r.count(Error), r.count(Warning)}
	if out.Findings == nil {
		out.Findings = []Finding{}
	}
	if out.Runs == nil {
		out.Runs = []runSummary{}
	}
	js, err := jsonx.MarshalIndent(out, "", "  ") // invalid UTF-8 IDs escaped losslessly
	if err != nil {
		panic("check: " + err.Error()) // every field encodes
	}
	return append(js, '\n')
}
