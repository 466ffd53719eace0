package eval

import (
	"bytes"
	"errors"
	"hash/maphash"
	"io"
	"math/bits"
	"runtime"
	"slices"
	"sort"
	"strconv"
	"sync"
)

// EvaluateRunFile evaluates the run file at runPath like Evaluate(qrels, ReadRunFile(runPath),
// measures, opt), with the same values, errors and line numbers, without holding the run in
// memory when its lines are grouped by query (the usual case): the file is cut into blocks of
// whole queries, parsed and evaluated on every core, and memory stays bounded by the largest
// query. Each query's ranking is not sorted: only the judged docs are ranked, by counting the
// docs placed above each of them in trec_eval's order, which gives the same ranked grades as
// Rank. When a query's lines are not adjacent (an ungrouped run) it falls back to reading the
// whole run with ReadRunFile and calling Evaluate, so the result is still exact.
func EvaluateRunFile(qrels Qrels, runPath string, measures []Measure, opt Options) (Result, error) {
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
		return Evaluate(qrels, run, measures, opt)
	}
	return assemble(qrels, runQueries, measures, resolved, opt, func(q string) ([]float64, error) { return rows[q], nil })
}

// blockSize is the size of the blocks the run is cut into (rounded to whole queries).
const blockSize = 1 << 19

// block is a piece of the run file holding whole lines (and, for grouped runs, whole queries).
type block struct {
	seq  int
	data []byte
}

// blockResult is what a worker found in a block: its queries in order, their values (nil for
// a query absent from the qrels), its line count and the first error.
type blockResult struct {
	seq   int
	lines int
	qids  []string
	rows  [][]float64
	err   error // a *ParseError with Line counted from the block's start
	data  []byte
}

// streamRun reads, parses and evaluates a run. It returns each query's values, the set of the
// run's queries, and grouped = false when some query's lines are not adjacent (then rows are
// not to be used).
func streamRun(r io.Reader, name string, qrels Qrels, measures []Measure, depth int) (rows map[string][]float64, runQueries map[string]bool, grouped bool, err error) {
	workers := max(1, runtime.GOMAXPROCS(0))
	blocks := make(chan block, workers)
	results := make(chan blockResult, workers)
	done := make(chan struct{})
	var readErr error
	pool := sync.Pool{New: func() any { return make([]byte, 0, blockSize+blockSize/4) }}

	go func() { // reader: cut the input into blocks of whole queries
		defer close(blocks)
		readErr = readBlocks(r, blocks, done, &pool)
	}()
	var wg sync.WaitGroup
	for w := 0; w < workers; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			ev := newQueryEvaluator(name, qrels, measures, depth)
			for b := range blocks {
				results <- ev.block(b)
			}
		}()
	}
	go func() { wg.Wait(); close(results) }()

	// Merge in file order.
	rows = map[string][]float64{}
	runQueries = map[string]bool{}
	pending := map[int]blockResult{}
	next, line := 0, 0
	grouped = true
	stop := func() {
		if done != nil {
			close(done)
			done = nil
		}
	}
	for res := range results {
		pending[res.seq] = res
		for {
			br, ok := pending[next]
			if !ok || err != nil || !grouped {
				break
			}
			delete(pending, next)
			next++
			for i, q := range br.qids {
				if runQueries[q] {
					grouped = false
					stop()
					break
				}
				runQueries[q] = true
				if br.rows[i] != nil {
					rows[q] = br.rows[i]
				}
			}
			if grouped && br.err != nil {
				var pe *ParseError
				if errors.As(br.err, &pe) {
					pe.Line += line
				}
				err = br.err
				stop()
			}
			line += br.lines
			pool.Put(br.data[:0])
		}
	}
	stop()
	if !grouped {
		return nil, nil, false, nil
	}
	if err != nil {
		return nil, nil, true, err
	}
	if readErr != nil {
		return nil, nil, true, &ParseError{File: name, Line: line + 1, Err: readErr}
	}
	if line == 0 {
		return nil, nil, true, parseErr(name, 0, ErrEmpty, "")
	}
	return rows, runQueries, true, nil
}

// readBlocks reads r and sends blocks that end at a line where the query changes (or at the
// end of the input), so a grouped run's queries never straddle two blocks.
func readBlocks(r io.Reader, out chan<- block, done <-chan struct{}, pool *sync.Pool) error {
	buf := pool.Get().([]byte)
	seq := 0
	send := func(b []byte) bool {
		select {
		case out <- block{seq: seq, data: b}:
			seq++
			return true
		case <-done:
			return false
		}
	}
	for {
		if len(buf) == cap(buf) {
			buf = slices.Grow(buf, cap(buf)) // one query larger than the buffer: grow
		}
		n, err := r.Read(buf[len(buf):cap(buf)])
		buf = buf[:len(buf)+n]
		if err == io.EOF {
			if len(buf) > 0 {
				send(buf)
			}
			return nil
		}
		if err != nil {
			return err
		}
		if len(buf) < blockSize {
			continue
		}
		cut := queryCut(buf)
		if cut <= 0 {
			continue
		}
		next := pool.Get().([]byte)
		next = append(next[:0], buf[cut:]...)
		if !send(buf[:cut]) {
			return nil
		}
		buf = next
	}
}

// queryCut returns the start of the last complete line group of one query in b (the block
// ends before it), or -1 when b holds no query change.
func queryCut(b []byte) int {
	end := bytes.LastIndexByte(b, '\n')
	if end < 0 {
		return -1
	}
	start := bytes.LastIndexByte(b[:end], '\n') + 1
	qid := firstField(b[start:end])
	for start > 0 {
		prev := bytes.LastIndexByte(b[:start-1], '\n') + 1
		if !bytes.Equal(firstField(b[prev:start-1]), qid) {
			return start
		}
		start = prev
	}
	return -1
}

// firstField returns the first whitespace-separated field of line.
func firstField(line []byte) []byte {
	i := 0
	for i < len(line) && isSpaceByte(line[i]) {
		i++
	}
	j := i
	for j < len(line) && !isSpaceByte(line[j]) {
		j++
	}
	return line[i:j]
}

// queryEvaluator parses blocks and evaluates their queries; one per worker, reusing its buffers.
type queryEvaluator struct {
	name     string
	qrels    Qrels
	measures []Measure
	depth    int
	seed     maphash.Seed

	docs   [][]byte
	scores []float64
	lines  []int
	table  []slot
	grade  []int32
	judged []judgedDoc
	count  []int
	ranked []int
}

type slot struct {
	hash uint64
	doc  int32 // index in docs + 1; 0 = empty
}

type judgedDoc struct {
	doc   int
	grade int
	rank  int
}

func newQueryEvaluator(name string, qrels Qrels, measures []Measure, depth int) *queryEvaluator {
	return &queryEvaluator{name: name, qrels: qrels, measures: measures, depth: depth, seed: fixedSeed}
}

var fixedSeed = maphash.MakeSeed()

// block parses and evaluates one block.
func (e *queryEvaluator) block(b block) blockResult {
	res := blockResult{seq: b.seq, data: b.data}
	data := b.data
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
		line := trimCR(data[pos:end])
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
	var f [5][]byte
	i, k := 0, 0
	for ; k < 5; k++ {
		for i < len(line) && spaceTable[line[i]] {
			i++
		}
		if i == len(line) {
			break
		}
		j := i
		for j < len(line) && !spaceTable[line[j]] {
			j++
		}
		f[k] = line[i:j]
		i = j
	}
	if k == 5 {
		for i < len(line) && spaceTable[line[i]] {
			i++
		}
		if i < len(line) {
			k = 6
		}
	}
	if k == 0 {
		return nil, nil, 0, parseErr(e.name, n, ErrEmptyLine, "")
	}
	if k < 6 {
		return nil, nil, 0, parseErr(e.name, n, ErrFieldCount, "got %d, want at least 6 (query-id Q0 doc-id rank score tag)", k)
	}
	score, ok := fastFloat(f[4])
	if !ok {
		if score, err = parseScore(f[4]); err != nil {
			return nil, nil, 0, parseErr(e.name, n, ErrScore, "%q", f[4])
		}
	}
	return f[0], f[2], score, nil
}

// spaceTable marks the bytes that separate fields (isSpaceByte).
var spaceTable = func() (t [256]bool) {
	for c := range 256 {
		t[c] = isSpaceByte(byte(c))
	}
	return t
}()

// query checks the collected docs of query qid for duplicates and evaluates them.
func (e *queryEvaluator) query(qid string) ([]float64, error) {
	n := len(e.docs)
	size := 1 << bits.Len(uint(2*n))
	if cap(e.table) < size {
		e.table = make([]slot, size)
	}
	table := e.table[:size]
	clear(table)
	mask := uint64(size - 1)
	for i, d := range e.docs {
		h := maphash.Bytes(e.seed, d)
		for p := h & mask; ; p = (p + 1) & mask {
			s := table[p]
			if s.doc == 0 {
				table[p] = slot{hash: h, doc: int32(i + 1)}
				break
			}
			if s.hash == h && bytes.Equal(e.docs[s.doc-1], d) {
				return nil, parseErr(e.name, e.lines[i], ErrDuplicate, "%q listed twice for query %q (first on line %d)", d, qid, e.lines[s.doc-1])
			}
		}
	}
	judgedDocs, ok := e.qrels[qid]
	if !ok {
		return nil, nil
	}
	// Grades of the retrieved judged docs, found by looking each judged doc up in the table.
	e.judged = e.judged[:0]
	for doc, g := range judgedDocs {
		h := maphash.String(e.seed, doc)
		for p := h & mask; ; p = (p + 1) & mask {
			s := table[p]
			if s.doc == 0 {
				break
			}
			if s.hash == h && string(e.docs[s.doc-1]) == doc {
				e.judged = append(e.judged, judgedDoc{doc: int(s.doc - 1), grade: g})
				break
			}
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
		if cap(e.grade) < n {
			e.grade = make([]int32, n)
		}
		isJudged := e.grade[:n]
		clear(isJudged)
		for _, j := range J {
			isJudged[j.doc] = 1
		}
		for i := 0; i < n; i++ {
			if isJudged[i] != 0 {
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

// pow10 holds the powers of ten that float64 represents exactly.
var pow10 = [...]float64{1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22}

// fastFloat parses the common score forms [+-]digits[.digits] exactly (Clinger's fast path:
// an integer mantissa below 2^53 divided by an exact power of ten is correctly rounded, so it
// equals strconv.ParseFloat's result). ok is false for any other form.
func fastFloat(b []byte) (v float64, ok bool) {
	i, neg := 0, false
	if len(b) > 0 && (b[0] == '-' || b[0] == '+') {
		neg = b[0] == '-'
		i++
	}
	var mant uint64
	digits, frac := 0, 0
	seenDot := false
	for ; i < len(b); i++ {
		c := b[i]
		switch {
		case c >= '0' && c <= '9':
			if digits >= 15 {
				return 0, false
			}
			mant = mant*10 + uint64(c-'0')
			if mant != 0 {
				digits++
			}
			if seenDot {
				frac++
			}
		case c == '.' && !seenDot:
			seenDot = true
		default:
			return 0, false
		}
	}
	if frac > 22 || (digits == 0 && mant == 0 && len(b) == i && !hasDigit(b)) {
		return 0, false
	}
	v = float64(mant) / pow10[frac]
	if neg {
		v = -v
	}
	return v, true
}

func hasDigit(b []byte) bool {
	for _, c := range b {
		if c >= '0' && c <= '9' {
			return true
		}
	}
	return false
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
