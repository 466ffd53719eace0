package check

import (
	"cmp"
	"errors"
	"fmt"
	"io/fs"
	"slices"
	"sort"
	"strconv"
	"strings"
	"unicode"

	"github.com/ranklab/ranklab/compare"
	"github.com/ranklab/ranklab/conventions"
	"github.com/ranklab/ranklab/eval"
	"github.com/ranklab/ranklab/internal/scan"
)

// Severity grades a finding.
type Severity int

const (
	Info    Severity = iota // a fact worth knowing before reading a number (grades, unjudged share)
	Warning                 // numbers will differ between tools or mislead, but can be computed
	Error                   // the number would be wrong, undefined or refused: fix the input first
)

func (s Severity) String() string {
	switch s {
	case Error:
		return "error"
	case Warning:
		return "warning"
	}
	return "info"
}

// MarshalText writes the severity's name ("error", "warning", "info").
func (s Severity) MarshalText() ([]byte, error) { return []byte(s.String()), nil }

// Codes of the findings, one per check.
const (
	codeParse       = "parse"         // a line that does not parse (field count, score, grade)
	codeEmpty       = "empty"         // an empty file
	codeBlank       = "blank-line"    // a blank line
	codeComment     = "comment-line"  // a line starting with "#"
	codeBOM         = "bom"           // a UTF-8 byte order mark
	codeIDChars     = "id-characters" // control, invisible or space characters, "#" or quotes in an ID
	codeDuplicate   = "duplicate-doc" // a doc twice for one query
	codeRankOrder   = "rank-order"    // the rank column disagrees with the score order
	codeNearMatch   = "near-match"    // query IDs that match only after normalizing ("01"/"1", case, spaces)
	codeOneSide     = "one-side"      // queries in the qrels only, or in the run only
	codeNoOverlap   = "no-overlap"    // a run sharing no query, or no judged doc, with the qrels
	codeNoRelevant  = "no-relevant"   // a qrels query without a relevant doc
	codeUnjudged    = "unjudged"      // the share of unjudged docs in a run's top k
	codeGrades      = "grades"        // the grade distribution and the relevance level
	codeTies        = "ties"          // queries whose value depends on the order of tied scores
	codeUnreadable  = "unreadable"    // ranklab's own reader refuses the file
	codeNotMeasured = "not-measured"  // a check skipped because of errors above
)

// Finding is one thing the preflight found. File and Line locate it (Line 0: the whole file).
type Finding struct {
	Severity Severity `json:"severity"`
	Code     string   `json:"code"`
	File     string   `json:"file"`
	Line     int      `json:"line,omitempty"`
	Query    string   `json:"query,omitempty"`
	Message  string   `json:"message"`
}

// String prints "file:line: severity: message" ("file: ..." without a line).
func (f Finding) String() string {
	pos := f.File
	if f.Line > 0 {
		pos += ":" + strconv.Itoa(f.Line)
	}
	return fmt.Sprintf("%s: %s: %s", pos, f.Severity, f.Message)
}

// Options tune the preflight; the zero value means the defaults.
type Options struct {
	RelLevel int            // relevance level of the binary measures (trec_eval -l); 0 means 1
	K        int            // depth of the unjudged share; 0 means 10
	Measures []eval.Measure // measures of the tie check; nil means nDCG@10, R@100, RR@10
	// MaxUnjudged is the unjudged share in the top K above which a run gets a warning; 0 means 0.5.
	MaxUnjudged float64
}

func (o Options) withDefaults() Options {
	if o.RelLevel == 0 {
		o.RelLevel = 1
	}
	if o.K == 0 {
		o.K = 10
	}
	if o.Measures == nil {
		o.Measures = []eval.Measure{eval.NDCG(10), eval.Recall(100), eval.RRAt(10)}
	}
	if o.MaxUnjudged == 0 {
		o.MaxUnjudged = 0.5
	}
	return o
}

// runSummary is what the preflight measured on one run.
type runSummary struct {
	Path         string  `json:"path"`
	Queries      int     `json:"queries"`       // queries the run ranks
	Shared       int     `json:"shared"`        // of them, in the qrels
	Unjudged     float64 `json:"unjudged_at_k"` // share of the top K docs of shared queries the qrels do not judge
	TopK         int     `json:"top_k_docs"`    // docs counted in Unjudged
	TieSensitive int     `json:"tie_sensitive"` // shared queries whose value on a measure depends on tie order; -1 not measured
	Errors       int     `json:"errors"`        // error findings in this run's file or about it
}

// Report is the result of a preflight.
type Report struct {
	Qrels    string         `json:"qrels"`
	Runs     []runSummary   `json:"runs"`
	Grades   map[string]int `json:"grades"` // grade (as text) → judgments
	RelLevel int            `json:"relevance_level"`
	K        int            `json:"k"`
	Findings []Finding      `json:"findings"`
}

// count returns the number of findings of severity s.
func (r Report) count(s Severity) int { return countIn(r.Findings, s) }

// countIn returns the number of findings of severity s among fs.
func countIn(fs []Finding, s Severity) int {
	n := 0
	for _, f := range fs {
		if f.Severity == s {
			n++
		}
	}
	return n
}

// OK reports whether the preflight found no error (warnings and information allowed).
func (r Report) OK() bool { return r.count(Error) == 0 }

// runOK reports whether run i (index into Runs) and the qrels are free of errors: the run's
// numbers are results. A run sharing no query with the qrels, or empty, is not.
func (r Report) runOK(i int) bool {
	for _, f := range r.Findings {
		if f.Severity == Error && (f.File == r.Qrels || f.File == r.Runs[i].Path) {
			return false
		}
	}
	return true
}

// Files reads the qrels and each run (gzipped or not) and runs every check: the file-level
// checks while reading, then the checks across files. It returns an error only when a file
// cannot be opened; what is wrong inside a file is a finding.
//
// Each file is read twice (leniently, then by package eval); an input that is not a regular
// file (standard input "-", a pipe, a process substitution) is kept (scan.Keep) so both readings
// see the whole of it.
func Files(qrelsPath string, runPaths []string, opt Options) (Report, error) {
	opt = opt.withDefaults()
	defer scan.Keep(append([]string{qrelsPath}, runPaths...)...)()
	in, closeFn, err := scan.Open(qrelsPath)
	if err != nil {
		return Report{}, openErr(qrelsPath, err)
	}
	qf := readQrels(in, qrelsPath)
	closeFn()
	var runs []runFile
	for _, p := range runPaths {
		in, closeFn, err := scan.Open(p)
		if err != nil {
			return Report{}, openErr(p, err)
		}
		runs = append(runs, readRun(in, p))
		closeFn()
	}
	r := analyse(qf, runs, opt)
	// What ranklab itself cannot read is an error, whatever the checks above said.
	if _, err := eval.ReadQrelsFile(qrelsPath); err != nil && r.countFile(qrelsPath, Error) == 0 {
		r.Findings = append(r.Findings, Finding{Severity: Error, Code: codeUnreadable, File: qrelsPath, Message: "ranklab cannot read it: " + err.Error()})
	}
	for i, p := range runPaths {
		if _, err := eval.ReadRunFile(p); err != nil && r.countFile(p, Error) == 0 {
			r.Findings = append(r.Findings, Finding{Severity: Error, Code: codeUnreadable, File: p, Message: "ranklab cannot read it: " + err.Error()})
			r.Runs[i].Errors++
		}
	}
	return r, nil
}

// openErr names the file of an opening error, and line 1 when the content is at fault (a gzip
// header, a bzip2 file).
func openErr(path string, err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return fmt.Errorf("check: %w", err)
	}
	return fmt.Errorf("check: %s:1: %w", path, err)
}

func (r Report) countFile(path string, s Severity) int {
	n := 0
	for _, f := range r.Findings {
		if f.File == path && f.Severity == s {
			n++
		}
	}
	return n
}

// analyse runs the checks across files on what was read.
func analyse(qf qrelsFile, runs []runFile, opt Options) Report {
	r := Report{Qrels: qf.path, Grades: map[string]int{}, RelLevel: opt.RelLevel, K: opt.K}
	r.Findings = append(r.Findings, qf.findings...)
	r.gradeChecks(qf, opt)
	for _, rf := range runs {
		before := len(r.Findings)
		r.Findings = append(r.Findings, rf.findings...)
		sum := runSummary{Path: rf.path, Queries: len(rf.queries), TieSensitive: -1}
		r.rankOrder(rf)
		r.nearMatches(qf, rf)
		r.oneSide(qf, rf, &sum)
		r.unjudged(qf, rf, &sum, opt)
		sum.Errors = countIn(r.Findings[before:], Error)
		// Ties are measured unless an error makes the numbers wrong; a warning (a comment line,
		// a byte order mark the reader drops) leaves them the plain file's.
		if sum.Errors == 0 && countIn(qf.findings, Error) == 0 {
			r.ties(qf, rf, &sum, opt)
		} else {
			r.Findings = append(r.Findings, Finding{Severity: Info, Code: codeNotMeasured, File: rf.path, Message: "tie sensitivity not measured: fix the errors first"})
		}
		r.Runs = append(r.Runs, sum)
	}
	return r
}

// gradeChecks reports the grade distribution, the relevance level, and the qrels queries
// without a relevant doc.
func (r *Report) gradeChecks(qf qrelsFile, opt Options) {
	counts := map[int]int{}
	var noRel []string
	for q, docs := range qf.judged {
		rel := 0
		for _, g := range docs {
			counts[g]++
			if g >= opt.RelLevel {
				rel++
			}
		}
		if rel == 0 {
			noRel = append(noRel, q)
		}
	}
	grades := make([]int, 0, len(counts))
	for g, n := range counts {
		grades = append(grades, g)
		r.Grades[strconv.Itoa(g)] = n
	}
	slices.Sort(grades)
	var parts []string
	maxGrade := 0
	for _, g := range grades {
		parts = append(parts, fmt.Sprintf("%d: %d", g, counts[g]))
		maxGrade = max(maxGrade, g)
	}
	msg := fmt.Sprintf("%d queries, grades %s; binary measures count grade >= %d as relevant (-l %d)", len(qf.judged), strings.Join(parts, ", "), opt.RelLevel, opt.RelLevel)
	switch {
	case maxGrade > 1:
		msg += fmt.Sprintf("; nDCG uses grades 1..%d as gains (2^g-1 in nDCG(dcg=exp-log2))", maxGrade)
	default:
		msg += "; binary judgments: every nDCG gain is 1"
	}
	if len(grades) > 0 && grades[0] < 0 {
		msg += "; negative grades are judged but never relevant"
	}
	if len(qf.judged) > 0 {
		r.Findings = append(r.Findings, Finding{Severity: Info, Code: codeGrades, File: qf.path, Message: msg})
	}
	slices.Sort(noRel)
	for _, q := range noRel {
		r.Findings = append(r.Findings, Finding{Severity: Warning, Code: codeNoRelevant, File: qf.path, Query: q,
			Message: fmt.Sprintf("query %q has no relevant doc (grade >= %d): it scores 0 in trec_eval's means, NaN (left out) in ragas', and LlamaIndex raises ValueError", q, opt.RelLevel)})
	}
}

// rankOrder reports each query whose rank column disagrees with its scores: a doc ranked below
// another that scores higher. trec_eval and most evaluators ignore the rank column and sort by
// score; tools that take a list in file or rank order score another ranking.
func (r *Report) rankOrder(rf runFile) {
	for _, q := range rf.order {
		docs := rf.queries[q]
		byRank := slices.Clone(docs)
		ok := true
		for _, d := range byRank {
			ok = ok && d.rankOK
		}
		if !ok {
			r.Findings = append(r.Findings, Finding{Severity: Warning, Code: codeRankOrder, File: rf.path, Line: firstBadRank(docs), Query: q,
				Message: fmt.Sprintf("query %q: the rank column is not an integer on every line (trec_eval ignores it; tools that sort by rank cannot)", q)})
			continue
		}
		slices.SortStableFunc(byRank, func(a, b runDoc) int { return cmp.Compare(a.rank, b.rank) })
		for i := 1; i < len(byRank); i++ {
			if byRank[i].score > byRank[i-1].score {
				r.Findings = append(r.Findings, Finding{Severity: Warning, Code: codeRankOrder, File: rf.path, Line: byRank[i].line, Query: q,
					Message: fmt.Sprintf("query %q: rank %d scores %s, above rank %d's %s: trec_eval orders by score, tools that read the ranks or the file order as given score another ranking",
						q, byRank[i].rank, fmtScore(byRank[i].score), byRank[i-1].rank, fmtScore(byRank[i-1].score))})
				break
			}
		}
	}
}

func firstBadRank(docs []runDoc) int {
	for _, d := range docs {
		if !d.rankOK {
			return d.line
		}
	}
	return 0
}

func fmtScore(x float64) string { return strconv.FormatFloat(x, 'g', -1, 64) }

// normalize maps an ID to the form under which IDs that people read as the same compare
// equal: without invisible characters and surrounding spaces, lower case, and without leading
// zeros when it is a number. It returns what it changed.
func normalize(id string) (string, []string) {
	var why []string
	s := strings.Map(scan.Visible, id)
	if s != id {
		why = append(why, "spaces or invisible characters")
	}
	if l := strings.ToLower(s); l != s {
		s = l
		why = append(why, "case")
	}
	if len(s) > 1 && strings.TrimLeft(s, "0") != s && isDigits(s) {
		s = strings.TrimLeft(s, "0")
		if s == "" {
			s = "0"
		}
		why = append(why, "leading zeros")
	}
	return s, why
}

func isDigits(s string) bool {
	for _, c := range s {
		if !unicode.IsDigit(c) {
			return false
		}
	}
	return s != ""
}

// nearMatches reports run queries absent from the qrels that match a qrels query once
// normalized (and the other way round): "01" for "1", "Q1" for "q1", "1\u00a0" for "1".
func (r *Report) nearMatches(qf qrelsFile, rf runFile) {
	byNorm := map[string][]string{}
	for q := range qf.judged {
		n, _ := normalize(q)
		byNorm[n] = append(byNorm[n], q)
	}
	for _, q := range rf.order {
		if _, ok := qf.judged[q]; ok {
			continue
		}
		n, _ := normalize(q)
		cands := byNorm[n]
		if len(cands) == 0 {
			continue
		}
		slices.Sort(cands)
		_, whyRun := normalize(q)
		_, whyQrels := normalize(cands[0])
		why := append(whyRun, whyQrels...)
		slices.Sort(why)
		why = slices.Compact(why)
		r.Findings = append(r.Findings, Finding{Severity: Error, Code: codeNearMatch, File: rf.path, Line: rf.queries[q][0].line, Query: q,
			Message: fmt.Sprintf("run query %q is not in the qrels but nearly matches qrels query %q (%s): every tool treats them as different queries", q, cands[0], strings.Join(why, ", "))})
	}
}

// oneSide reports queries on one side only and runs without overlap with the qrels.
func (r *Report) oneSide(qf qrelsFile, rf runFile, sum *runSummary) {
	var qrelsOnly, runOnly []string
	for q := range qf.judged {
		if _, ok := rf.queries[q]; !ok {
			qrelsOnly = append(qrelsOnly, q)
		} else {
			sum.Shared++
		}
	}
	for _, q := range rf.order {
		if _, ok := qf.judged[q]; !ok {
			runOnly = append(runOnly, q)
		}
	}
	sort.Strings(qrelsOnly)
	sort.Strings(runOnly)
	if len(rf.queries) == 0 {
		r.Findings = append(r.Findings, Finding{Severity: Error, Code: codeNoOverlap, File: rf.path, Message: "the run ranks no query: it is not a result"})
		return
	}
	if sum.Shared == 0 {
		r.Findings = append(r.Findings, Finding{Severity: Error, Code: codeNoOverlap, File: rf.path,
			Message: fmt.Sprintf("the run shares no query with the qrels (%d run queries, %d qrels queries): it is not a result (are the query IDs from the same collection?)", len(rf.queries), len(qf.judged))})
		return
	}
	if len(qrelsOnly) > 0 {
		r.Findings = append(r.Findings, Finding{Severity: Warning, Code: codeOneSide, File: rf.path,
			Message: fmt.Sprintf("%s of the qrels %s no ranking in the run (%s): trec_eval 10.0 stops, trec_eval 9.0.8 and pytrec_eval average without them, -c and ir_measures score them 0, ranx refuses", count(len(qrelsOnly), "query", "queries"), hasHave(len(qrelsOnly)), listIDs(qrelsOnly))})
	}
	if len(runOnly) > 0 {
		r.Findings = append(r.Findings, Finding{Severity: Warning, Code: codeOneSide, File: rf.path,
			Message: fmt.Sprintf("%s of the run %s not in the qrels (%s): ignored by trec_eval, refused by ranx, a KeyError in BEIR's MRR", count(len(runOnly), "query", "queries"), isAre(len(runOnly)), listIDs(runOnly))})
	}
	judgedRetrieved := 0
	for q, docs := range rf.queries {
		for _, d := range docs {
			if _, ok := qf.judged[q][d.doc]; ok {
				judgedRetrieved++
			}
		}
	}
	if judgedRetrieved == 0 {
		r.Findings = append(r.Findings, Finding{Severity: Error, Code: codeNoOverlap, File: rf.path,
			Message: fmt.Sprintf("not one retrieved doc of the %d shared queries is judged: every measure is 0 (are the doc IDs from the same corpus?%s)", sum.Shared, docHint(qf, rf))})
	}
}

// docHint names a run doc that matches a judged doc once normalized, when there is one.
func docHint(qf qrelsFile, rf runFile) string {
	for _, q := range rf.order {
		norm := map[string]string{}
		for d := range qf.judged[q] {
			n, _ := normalize(d)
			norm[n] = d
		}
		for _, d := range rf.queries[q] {
			n, _ := normalize(d.doc)
			if j, ok := norm[n]; ok {
				return fmt.Sprintf(" run doc %q nearly matches judged doc %q of query %q", d.doc, j, q)
			}
		}
	}
	return ""
}

// unjudged measures the share of unjudged docs in the top K (trec_eval's order) of the shared
// queries.
func (r *Report) unjudged(qf qrelsFile, rf runFile, sum *runSummary, opt Options) {
	total, unj := 0, 0
	for q, docs := range rf.queries {
		judged, ok := qf.judged[q]
		if !ok {
			continue
		}
		sd := make([]eval.ScoredDoc, len(docs))
		for i, d := range docs {
			sd[i] = eval.ScoredDoc{Doc: d.doc, Score: d.score}
		}
		ranked := eval.Rank(sd)
		for i := 0; i < len(ranked) && i < opt.K; i++ {
			total++
			if _, ok := judged[ranked[i].Doc]; !ok {
				unj++
			}
		}
	}
	if total == 0 {
		return
	}
	sum.TopK = total
	sum.Unjudged = float64(unj) / float64(total)
	sev := Info
	msg := fmt.Sprintf("%.1f%% of the top %d docs are unjudged (%d of %d, shared queries)", 100*sum.Unjudged, opt.K, unj, total)
	sparse := true // the qrels list relevant docs only (no judged non-relevant doc), as BEIR's do
	for _, docs := range qf.judged {
		for _, g := range docs {
			if g < opt.RelLevel {
				sparse = false
			}
		}
	}
	switch {
	case sparse:
		msg += ": the qrels list relevant docs only, so unjudged means non-relevant by design"
	case sum.Unjudged > opt.MaxUnjudged:
		sev = Warning
		msg += fmt.Sprintf(": more than %.0f%% of pooled qrels; every measure counts them as non-relevant, so the run may be underrated", 100*opt.MaxUnjudged)
	}
	r.Findings = append(r.Findings, Finding{Severity: sev, Code: codeUnjudged, File: rf.path, Message: msg})
}

// ties measures the shared queries whose value depends on the order of tied scores.
func (r *Report) ties(qf qrelsFile, rf runFile, sum *runSummary, opt Options) {
	run := eval.Run{Queries: map[string][]eval.ScoredDoc{}}
	for q, docs := range rf.queries {
		for _, d := range docs {
			run.Queries[q] = append(run.Queries[q], eval.ScoredDoc{Doc: d.doc, Score: d.score})
		}
	}
	tr, err := conventions.Ties(eval.Qrels(qf.judged), run, eval.Options{RelLevel: opt.RelLevel}, opt.Measures...)
	if err != nil {
		r.Findings = append(r.Findings, Finding{Severity: Info, Code: codeNotMeasured, File: rf.path, Message: "tie sensitivity not measured: " + err.Error()})
		return
	}
	sens := tr.TieSensitive()
	sum.TieSensitive = len(sens)
	if len(sens) == 0 {
		r.Findings = append(r.Findings, Finding{Severity: Info, Code: codeTies, File: rf.path,
			Message: fmt.Sprintf("no query's %s depends on the order of tied scores", measureList(opt.Measures))})
		return
	}
	var moves []string
	for j, m := range tr.Measures {
		if len(tr.Sensitive[j]) == 0 {
			continue
		}
		b := tr.Means[j]
		moves = append(moves, fmt.Sprintf("%s: %d (mean %.4f, from %.4f to %.4f over tie orders, expected %.4f)", m, len(tr.Sensitive[j]), b.Trec, b.Worst, b.Best, b.Expected))
	}
	r.Findings = append(r.Findings, Finding{Severity: Warning, Code: codeTies, File: rf.path,
		Message: fmt.Sprintf("%s %s tie-sensitive (%s): the value depends on the order of tied scores, which trec_eval breaks by doc ID and other tools otherwise; %s",
			count(len(sens), "query", "queries"), isAre(len(sens)), listIDs(sens), strings.Join(moves, "; "))})
}

func measureList(ms []eval.Measure) string {
	s := make([]string, len(ms))
	for i, m := range ms {
		s[i] = m.String()
	}
	return strings.Join(s, ", ")
}

func count(n int, one, many string) string {
	if n == 1 {
		return "1 " + one
	}
	return strconv.Itoa(n) + " " + many
}

func hasHave(n int) string {
	if n == 1 {
		return "has"
	}
	return "have"
}

func isAre(n int) string {
	if n == 1 {
		return "is"
	}
	return "are"
}

// listIDs quotes up to 5 IDs, then "... (N more)".
func listIDs(ids []string) string {
	shown := ids
	if len(shown) > 5 {
		shown = shown[:5]
	}
	q := make([]string, len(shown))
	for i, id := range shown {
		q[i] = strconv.Quote(id)
	}
	s := strings.Join(q, ", ")
	if len(ids) > 5 {
		s += fmt.Sprintf(", ... (%d more)", len(ids)-5)
	}
	return s
}

// RefuseIn refuses in c (a comparison of the same qrels and runs, in the same order as this
// report's Runs) every run that fails the preflight, naming its first error: such a run is not
// a result, so no difference involving it is called significant (compare.Report.Refuse).
func (r Report) RefuseIn(c *compare.Report) {
	for i, run := range r.Runs {
		if i >= len(c.Runs) || r.runOK(i) {
			continue
		}
		for _, f := range r.Findings {
			if f.Severity == Error && (f.File == run.Path || f.File == r.Qrels) {
				c.Refuse(i, "ranklab check: "+f.String())
				break
			}
		}
	}
}
