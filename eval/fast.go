package eval

import (
	"bytes"
	"errors"
	"io"
	"runtime"
	"slices"
	"sort"
	"strconv"

	"github.com/ranklab/ranklab/internal/scan"
)

// EvaluateRunFile evaluates the run file at runPath like Evaluate(qrels, ReadRunFile(runPath),
// measures...), with the same values, errors and line numbers, without holding the run in
// memory when its lines are grouped by query (the usual case): the file is cut into blocks of
// whole queries, parsed and evaluated on every core, and memory stays bounded by the largest
// query. Each query's ranking is not sorted: only the judged docs are ranked, by counting the
// docs placed above each of them in trec_eval's order, which gives the same ranked grades as
// Rank. When a query's lines are not adjacent (an ungrouped run) it falls back to reading the
// whole run with ReadRunFile and calling Evaluate, so the result is still exact.
func EvaluateRunFile(qrels Qrels, runPath string, measures ...Measure) (Result, error) {
	return Options{}.EvaluateRunFile(qrels, runPath, measures...)
}

// EvaluateRunFile is EvaluateRunFile with the options o (trec_eval's -l, -M, -c).
func (opt Options) EvaluateRunFile(qrels Qrels, runPath string, measures ...Measure) (Result, error) {
	resolved, err := checkEvaluate(measures, opt)
	if err != nil {
		return Result{}, err
	}
	r, closeFn, err := openInput(runPath)
	if err != nil {
		return Result{}, err
	}
	rows, runQueries, grouped, err := streamRun(r, runPath, qrels, resolved, opt.Depth)
	closeFn()
	if err != nil {
		return Result{}, err
	}
	if !grouped {
		run, err := ReadRunFile(runPath)
		if err != nil {
			return Result{}, err
		}
		return opt.Evaluate(qrels, run, measures...)
	}
	return assemble(qrels, runQueries, measures, resolved, opt, func(q string) ([]float64, error) { return rows[q], nil })
}

// blockResult is what a worker found in a block: its queries in order, their values (nil for
// a query absent from the qrels), its line count and the first error.
type blockResult struct {
	lines int
	qids  []string
	rows  [][]float64
	err   error // a *ParseError with Line counted from the block's start
}

// streamRun reads, parses and evaluates a run with scan.Pipeline. It returns each query's
// values, the set of the run's queries, and grouped = false when some query's lines are not
// adjacent (then rows are not to be used).
func streamRun(r io.Reader, name string, qrels Qrels, measures []Measure, depth int) (rows map[string][]float64, runQueries map[string]bool, grouped bool, err error) {
	rows = map[string][]float64{}
	runQueries = map[string]bool{}
	grouped = true
	line := 0
	newWorker := func() func([]byte) blockResult {
		ev := &queryEvaluator{name: name, qrels: qrels, measures: measures, depth: depth}
		return ev.block
	}
	readErr := scan.Pipeline(r, runtime.GOMAXPROCS(0), newWorker, func(br blockResult) bool {
		for i, q := range br.qids {
			if runQueries[q] {
				grouped = false
				return false
			}
			runQueries[q] = true
			if br.rows[i] != nil {
				rows[q] = br.rows[i]
			}
		}
		if br.err != nil {
			var pe *ParseError
			if errors.As(br.err, &pe) {
				pe.Line += line
			}
			err = br.err
			return false
		}
		line += br.lines
		return true
	})
	switch {
	case !grouped:
		return nil, nil, false, nil
	case err != nil:
		return nil, nil, true, err
	case readErr != nil:
		return nil, nil, true, &ParseError{File: name, Line: line + 1, Err: readErr}
	case line == 0:
		return nil, nil, true, parseErr(name, 0, ErrEmpty, "")
	}
	return rows, runQueries, true, nil
}

// queryEvaluator parses blocks and evaluates their queries; one per worker, reusing its buffers.
type queryEvaluator struct {
	name     string
	qrels    Qrels
	measures []Measure
	depth    int

	docs   [][]byte
	scores []float64
	lines  []int
	table  scan.Table
	seen   []bool
	judged []judgedDoc
	count  []int
	ranked []int
	fields [][]byte
}

type judgedDoc struct {
	doc   int
	grade int
	rank  int
}

// block parses and evaluates one block.
func (e *queryEvaluator) block(data []byte) blockResult {
	var res blockResult
	var cur []byte
	flush := func() error {
		if cur == nil {
			return nil
		}
		qid := string(cur)
		row, err := e.query(qid)
		res.qids = append(res.qids, qid)
		res.rows = append(res.rows, row)
		e.docs, e.scores, e.lines = e.docs[:0], e.scores[:0], e.lines[:0]
		return err
	}
	for pos := 0; pos < len(data); {
		end := bytes.IndexByte(data[pos:], '\n')
		if end < 0 {
			end = len(data)
		} else {
			end += pos
		}
		line := scan.TrimCR(data[pos:end])
		pos = end + 1
		res.lines++
		qid, doc, score, err := e.parseLine(line, res.lines)
		if err != nil {
			if ferr := flush(); ferr != nil {
				err = ferr
			}
			res.err = err
			return res
		}
		if !bytes.Equal(qid, cur) {
			if err := flush(); err != nil {
				res.err = err
				return res
			}
			cur = qid
		}
		e.docs = append(e.docs, doc)
		e.scores = append(e.scores, score)
		e.lines = append(e.lines, res.lines)
	}
	if err := flush(); err != nil {
		res.err = err
	}
	return res
}

// parseLine splits a run line into its query ID, doc ID and score, with ReadRun's errors.
// Only the first five fields are delimited; the sixth (the tag) need only exist.
func (e *queryEvaluator) parseLine(line []byte, n int) (qid, doc []byte, score float64, err error) {
	f, more := scan.Fields(line, e.fields[:0], 5)
	e.fields = f
	k := len(f)
	if more {
		k = 6
	}
	if k == 0 {
		return nil, nil, 0, parseErr(e.name, n, ErrEmptyLine, "")
	}
	if k < 6 {
		return nil, nil, 0, parseErr(e.name, n, ErrFieldCount, "got %d, want at least 6 (query-id Q0 doc-id rank score tag)", k)
	}
	score, ok := scan.FastFloat(f[4])
	if !ok {
		if score, err = parseScore(f[4]); err != nil {
			return nil, nil, 0, parseErr(e.name, n, ErrScore, "%q", f[4])
		}
	}
	return f[0], f[2], score, nil
}

// query checks the collected docs of query qid for duplicates and evaluates them.
func (e *queryEvaluator) query(qid string) ([]float64, error) {
	n := len(e.docs)
	e.table.Reset(e.docs)
	for i, d := range e.docs {
		if prev, dup := e.table.Add(i); dup {
			return nil, parseErr(e.name, e.lines[i], ErrDuplicate, "%q listed twice for query %q (first on line %d)", d, qid, e.lines[prev])
		}
	}
	judgedDocs, ok := e.qrels[qid]
	if !ok {
		return nil, nil
	}
	// Grades of the retrieved judged docs, found by looking each judged doc up in the table.
	e.judged = e.judged[:0]
	for doc, g := range judgedDocs {
		if i, ok := e.table.Find(doc); ok {
			e.judged = append(e.judged, judgedDoc{doc: i, grade: g})
		}
	}
	// Rank the judged docs: sort them in trec_eval's order, then count the other docs above each.
	before := func(a, b int) bool { // doc a ranks above doc b
		if e.scores[a] != e.scores[b] {
			return e.scores[a] > e.scores[b]
		}
		return bytes.Compare(e.docs[a], e.docs[b]) > 0
	}
	J := e.judged
	slices.SortFunc(J, func(x, y judgedDoc) int {
		if before(x.doc, y.doc) {
			return -1
		}
		return 1
	})
	m := len(J)
	if cap(e.count) < m+1 {
		e.count = make([]int, m+1)
	}
	count := e.count[:m+1]
	clear(count)
	if m > 0 {
		if cap(e.seen) < n {
			e.seen = make([]bool, n)
		}
		isJudged := e.seen[:n]
		clear(isJudged)
		for _, j := range J {
			isJudged[j.doc] = true
		}
		for i := 0; i < n; i++ {
			if isJudged[i] {
				continue
			}
			// pos = number of judged docs above doc i.
			pos := sort.Search(m, func(k int) bool { return before(i, J[k].doc) })
			count[pos]++
		}
		above := 0
		for k := range J {
			above += count[k]
			J[k].rank = 1 + k + above
		}
	}
	kept := n
	if e.depth > 0 && e.depth < n {
		kept = e.depth
	}
	if cap(e.ranked) < kept {
		e.ranked = make([]int, kept)
	}
	ranked := e.ranked[:kept]
	for i := range ranked {
		ranked[i] = Unjudged
	}
	for _, j := range J {
		if j.rank <= kept {
			ranked[j.rank-1] = j.grade
		}
	}
	return computeRow(e.measures, ranked, e.qrels.Judged(qid)), nil
}

// checkEvaluate validates the options and measures of an evaluation and resolves the measures.
func checkEvaluate(measures []Measure, opt Options) ([]Measure, error) {
	if len(measures) == 0 {
		return nil, errors.New("evaluate: no measures")
	}
	if opt.RelLevel < 0 {
		return nil, errors.New("evaluate: relevance level " + strconv.Itoa(opt.RelLevel) + " is negative")
	}
	if opt.Depth < 0 {
		return nil, errors.New("evaluate: depth " + strconv.Itoa(opt.Depth) + " is negative")
	}
	return resolveMeasures(measures, opt.RelLevel)
}
