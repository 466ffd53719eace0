package judge

import (
	"bufio"
	"fmt"
	"io"
	"strconv"
	"strings"
	"time"

	"github.com/ranklab/ranklab/internal/scan"
	"github.com/ranklab/ranklab/pool"
)

// logEntry is one line of the side log: a judgment, the undo of one, or an edit (a change
// found in the qrels file, made outside the panel).
type logEntry struct {
	Time    time.Time
	Judge   string
	Action  string // "judge", "undo" or "edit"
	Pair    pool.Pair
	Grade   int     // judge: the grade given; undo: the grade restored; edit: the grade found (noGrade: none)
	Seconds float64 // judge: seconds the document was on screen before the grade
	Prev    int     // the pair's grade before this line (noGrade: none; unknownGrade: not recorded, a v1 line)
}

const (
	// noGrade in a grade field means the pair has no grade ("-" in the log).
	noGrade = -1 << 31
	// unknownGrade is the grade before a v1 log line, which does not record it ("?").
	unknownGrade = noGrade + 1
)

// logHeader starts every side log. Version 1 had the first 7 fields only.
const logHeader = "# ranklab judge log v2: time\tjudge\taction\tquery\tdoc\tgrade\tseconds\tprev\n"

// formatGrade writes a grade field: the number, "-" for none, "?" for not recorded.
func formatGrade(g int) string {
	switch g {
	case noGrade:
		return "-"
	case unknownGrade:
		return "?"
	}
	return strconv.Itoa(g)
}

// formatEntry is one side log line: time, judge, action, query, doc, grade, seconds, prev,
// tab-separated.
func formatEntry(e logEntry) string {
	return fmt.Sprintf("%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n", e.Time.UTC().Format(time.RFC3339Nano), e.Judge, e.Action,
		e.Pair.Query, e.Pair.Doc, formatGrade(e.Grade), strconv.FormatFloat(e.Seconds, 'f', 3, 64), formatGrade(e.Prev))
}

// readLog reads a side log. Lines starting with "#" and blank lines are skipped; any other line
// must have the 8 tab-separated fields of formatEntry (or the first 7, a v1 line: its Prev is
// unknownGrade), or it is an error "name:line: ...".
func readLog(r io.Reader, name string) ([]logEntry, error) {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 0, 4096), 1<<20)
	var out []logEntry
	line := 0
	for sc.Scan() {
		line++
		t := sc.Text()
		if strings.TrimSpace(t) == "" || strings.HasPrefix(t, "#") {
			continue
		}
		e, err := parseEntry(t)
		if err != nil {
			return nil, fmt.Errorf("%s:%d: %v", name, line, err)
		}
		out = append(out, e)
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("%s:%d: %v", name, line+1, err)
	}
	return out, nil
}

func parseGrade(f string, none, unknown bool) (int, bool) {
	switch {
	case f == "-" && none:
		return noGrade, true
	case f == "?" && unknown:
		return unknownGrade, true
	}
	g, err := strconv.Atoi(f)
	if err != nil || g < 0 || g > 3 || f != strconv.Itoa(g) {
		return 0, false
	}
	return g, true
}

func parseEntry(t string) (logEntry, error) {
	f := strings.Split(t, "\t")
	if len(f) != 7 && len(f) != 8 {
		return logEntry{}, fmt.Errorf("got %d tab-separated fields, want 8 (time judge action query doc grade seconds prev; 7 in a v1 log)", len(f))
	}
	var e logEntry
	var err error
	if e.Time, err = time.Parse(time.RFC3339Nano, f[0]); err != nil {
		return logEntry{}, fmt.Errorf("time %.40q: %v", f[0], err)
	}
	e.Judge, e.Action = f[1], f[2]
	if e.Action != "judge" && e.Action != "undo" && (e.Action != "edit" || len(f) == 7) {
		return logEntry{}, fmt.Errorf("action %.40q: want judge, undo or edit", f[2])
	}
	e.Pair = pool.Pair{Query: f[3], Doc: f[4]}
	if scan.IDError("query", f[3]) != nil || scan.IDError("doc", f[4]) != nil {
		return logEntry{}, fmt.Errorf("query %.40q, doc %.40q: want IDs a TREC file can carry (no spaces or control characters)", f[3], f[4])
	}
	var ok bool
	if e.Grade, ok = parseGrade(f[5], e.Action != "judge", false); !ok {
		return logEntry{}, fmt.Errorf("grade %.40q: want 0..3 (or - in an undo or an edit)", f[5])
	}
	if e.Seconds, err = strconv.ParseFloat(f[6], 64); err != nil || !(e.Seconds >= 0) || e.Seconds > 1e12 {
		return logEntry{}, fmt.Errorf("seconds %.40q: want a non-negative number", f[6])
	}
	e.Prev = unknownGrade
	if len(f) == 8 {
		if e.Prev, ok = parseGrade(f[7], true, true); !ok {
			return logEntry{}, fmt.Errorf("prev %.40q: want 0..3, - (none) or ? (not recorded)", f[7])
		}
	}
	return e, nil
}
