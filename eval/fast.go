package eval

import (
	"bytes"
	"runtime"
	"slices"
	"sort"

	"github.com/ranklab/ranklab/internal/scan"
)

// evaluateRunFile evaluates the run file at runPath ("-" for standard input) like
// Evaluate(qrels, ReadRunFile(runPath), measures...), with the same values, errors and line
// numbers, without holding the run in memory when its lines are grouped by query (the usual
// case): the input is cut into blocks of whole queries, parsed and evaluated on every core, and
// memory stays bounded by the largest query. Each query's ranking is not sorted: only the judged
// docs are ranked, by counting the docs placed above each of them in trec_eval's order, which
// gives the same ranked grades as Rank, for every measure.
//
// When a query's lines are not adjacent (an ungrouped run) the first pass stops and the input is
// read again from its start, so the result is still exact: a regular file is rewound (its path
// is not opened again); an input that cannot seek (a pipe, standard input, a process
// substitution) has been copied as it streamed (to memory up to 64 MiB, beyond that to an
// unlinked file in $TMPDIR) and the copy is read instead. A grouped run never reads the copy, so
// a full $TMPDIR does not matter to it; an ungrouped one whose copy failed gets an error saying
// how many bytes of $TMPDIR it needs (scan.SpoolError). The ungrouped run is then evaluated in passes that each keep the lines of a share of
// the queries (about 128 MB of them), so memory stays bounded whatever the run's size.
func evaluateRunFile(qrels Qrels, runPath string, measures ...Measure) (Result, error) {
	return Options{}.evaluateRunFile(qrels, runPath, measures...)
}

// evaluateRunFile is evaluateRunFile with the options o.
func (opt Options) evaluateRunFile(qrels Qrels, runPath string, measures ...Measure) (Result, error) {
	ev, err := newEvaluator(measures, opt, inQrels)
	if err != nil {
		return Result{}, err
	}
	src, err := scan.OpenSource(runPath, true)
	if err != nil {
		return Result{}, inputErr(runPath, err)
	}
	defer src.Close()
	st, err := streamRun(src, runPath, qrels, ev)
	if err != nil {
		return Result{}, err
	}
	if !st.grouped {
		return ev.evaluateUngrouped(src, runPath, qrels)
	}
	res, err := ev.assemble(qrels, st.queries, func(q string) (row, error) { return st.rows[q], nil })
	if err != nil {
		return Result{}, err
	}
	res.Tag = st.runID
	return res, nil
}

// blockResult is what a worker found in a block: its queries in order, their rows (empty for a
// query absent from the qrels), its line count, its last tag and the first error.
type blockResult struct {
	lines int
	qids  []string
	rows  []row
	tag   string
	err   func(offset int) error // the error, given the number of lines before the block
}

// stream is the outcome of the first pass.
type stream struct {
	rows    map[string]row
	queries map[string]bool
	runID   string
	grouped bool // false: some query's lines are not adjacent (rows are not to be used)
}

// streamRun reads, parses and evaluates a run with scan.Pipeline.
func streamRun(src *scan.Source, name string, qrels Qrels, ev *evaluator) (stream, error) {
	st := stream{rows: map[string]row{}, queries: map[string]bool{}, grouped: true}
	line, data := 0, 0
	var err error
	newWorker := func() func([]byte) blockResult {
		w := &queryEvaluator{name: name, qrels: qrels, ev: ev}
		return w.block
	}
	pipeErr := scan.Pipeline(src.Reader, runtime.GOMAXPROCS(0), newWorker, func(br blockResult) bool {
		for i, q := range br.qids {
			if st.queries[q] {
				st.grouped = false
				return false
			}
			st.queries[q] = true
			if br.rows[i].vals != nil {
				st.rows[q] = br.rows[i]
			}
		}
		data += len(br.qids)
		if br.tag != "" {
			st.runID = br.tag
		}
		if br.err != nil {
			err = br.err(line)
			return false
		}
		line += br.lines
		return true
	})
	switch {
	case !st.grouped:
		return st, nil
	case err != nil:
		return st, err
	case pipeErr != nil:
		return st, readErr(name, line, pipeErr)
	case data == 0:
		return st, parseErr(name, 0, ErrEmpty, "no data line")
	}
	return st, nil
}

// queryEvaluator parses blocks and evaluates their queries; one per worker, reusing its buffers.
type queryEvaluator struct {
	name  string
	qrels Qrels
	ev    *evaluator

	docs   [][]byte
	scores []float64
	lines  []int
	table  scan.Table
	seen   []bool
	judged []judgedDoc
	count  []int
	ranked []int
	asc    []int
	f64    []int
	rl     []int
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
	var last []byte // the last data line: its tag is the run's tag so far
	flush := func() func(int) error {
		if cur == nil {
			return nil
		}
		qid := string(cur)
		r, err := e.query(qid)
		res.qids = append(res.qids, qid)
		res.rows = append(res.rows, r)
		e.docs, e.scores, e.lines = e.docs[:0], e.scores[:0], e.lines[:0]
		return err
	}
	fail := func(err func(int) error) blockResult {
		if ferr := flush(); ferr != nil {
			err = ferr
		}
		res.err = err
		res.tag = tagOf(last)
		return res
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
		if len(line) > scan.MaxLine || bytes.IndexByte(line, '\r') >= 0 {
			n, err := res.lines, scan.ErrBareCR // the rules of scan.Lines
			if len(line) > scan.MaxLine {
				err = scan.ErrLineTooLong
			}
			return fail(func(off int) error { return readErr(e.name, off+n-1, err) })
		}
		f, more := scan.Fields(line, e.fields[:0], 5)
		e.fields = f
		if len(f) == 0 || f[0][0] == '#' {
			continue
		}
		n := res.lines
		if !more {
			k := len(f)
			return fail(func(off int) error {
				return parseErr(e.name, off+n, ErrFieldCount, "got %d, want at least 6 (query-id Q0 doc-id rank score tag)", k)
			})
		}
		score, ok := scan.Float(f[4])
		if !ok {
			bad := quoteField(f[4])
			return fail(func(off int) error { return parseErr(e.name, off+n, ErrScore, "%s", bad) })
		}
		if !bytes.Equal(f[0], cur) {
			if err := flush(); err != nil {
				res.err = err
				res.tag = tagOf(last)
				return res
			}
			cur = f[0]
		}
		last = line
		e.docs = append(e.docs, f[2])
		e.scores = append(e.scores, score)
		e.lines = append(e.lines, n)
	}
	if err := flush(); err != nil {
		res.err = err
	}
	res.tag = tagOf(last)
	return res
}

// tagOf returns the sixth field of a run line ("" for none).
func tagOf(line []byte) string {
	f, _ := scan.Fields(line, nil, 6)
	if len(f) < 6 {
		return ""
	}
	return string(f[5])
}

// query checks the collected docs of query qid for duplicates and evaluates them.
func (e *queryEvaluator) query(qid string) (row, func(int) error) {
	n := len(e.docs)
	e.table.Reset(e.docs)
	for i := range e.docs {
		if prev, dup := e.table.Add(i); dup {
			doc, q := quoteField(e.docs[i]), quoteString(qid)
			line, first := e.lines[i], e.lines[prev]
			return row{}, func(off int) error {
				return parseErr(e.name, off+line, ErrDuplicate, "%s listed twice for query %s (first on line %d)", doc, q, off+first)
			}
		}
	}
	judgedDocs, ok := e.qrels[qid]
	if !ok {
		return row{}, nil
	}
	if e.ev.opt.DropSelf {
		if i, self := e.table.Find(qid); self {
			e.docs = slices.Delete(e.docs, i, i+1)
			e.scores = slices.Delete(e.scores, i, i+1)
			e.lines = slices.Delete(e.lines, i, i+1)
			n--
			e.table.Reset(e.docs)
			for i := range e.docs {
				e.table.Add(i)
			}
		}
	}
	e.judged = e.judged[:0]
	for doc, g := range judgedDocs {
		if i, ok := e.table.Find(doc); ok {
			e.judged = append(e.judged, judgedDoc{doc: i, grade: g})
		}
	}
	opt := e.ev.opt
	e.ranked = e.rankJudged(n, opt.TrecEval9, false, e.ranked)
	var asc, f64 []int
	if e.ev.needAsc {
		e.asc = e.rankJudged(n, false, true, e.asc)
		asc = e.asc
	}
	if e.ev.needF64 {
		e.f64 = e.rankJudged(n, false, false, e.f64)
		f64 = e.f64
	}
	r := e.ev.compute(e.ranked, asc, f64, judgedGrades(judgedDocs), false, e.rl)
	e.rl, r.buf = r.buf, nil
	return r, nil
}

// rankJudged ranks the retrieved judged docs (e.judged) among all n docs by counting the docs
// placed above each, and returns the grades of the first Depth ranks (Unjudged for the others).
func (e *queryEvaluator) rankJudged(n int, float32s, asc bool, buf []int) []int {
	before := func(a, b int) bool { // doc a ranks above doc b
		sa, sb := e.scores[a], e.scores[b]
		if float32s {
			sa, sb = float64(float32(sa)), float64(float32(sb))
		}
		if sa != sb {
			return sa > sb
		}
		if asc {
			return bytes.Compare(e.docs[a], e.docs[b]) < 0
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
	if d := e.ev.opt.Depth; d > 0 && d < n {
		kept = d
	}
	if cap(buf) < kept {
		buf = make([]int, kept)
	}
	ranked := buf[:kept]
	for i := range ranked {
		ranked[i] = Unjudged
	}
	for _, j := range J {
		if j.rank <= kept {
			ranked[j.rank-1] = j.grade
		}
	}
	return ranked
}
