package rag

import (
	"fmt"
	"io"
	"maps"
	"math"
	"slices"
	"strconv"

	"github.com/ranklab/ranklab/eval"
	"github.com/ranklab/ranklab/internal/scan"
)

// Passage is one judged span of a document with its grade.
type Passage struct {
	Span
	Grade int
}

// PassageQrels are passage-level judgments: query ID → judged spans. Judged spans may overlap;
// a grade follows eval.Qrels' rules (>= the relevance level is relevant, negative is judged
// never relevant).
type PassageQrels map[string][]Passage

// passageHeader is the optional first line of a passage qrels file.
const passageHeader = "query-id doc-id start end grade"

// readPassageQrels is ReadPassageQrelsFile on a reader; its errors name the file name.
func readPassageQrels(r io.Reader, name string) (PassageQrels, error) {
	pq := PassageQrels{}
	seen := map[string]map[Span]int{}
	n := 0
	err := readRecords(r, name, passageHeader, func(f [][]byte, line int) error {
		start, end, err := parseSpan(f[2], f[3])
		if err != nil {
			return parseErr(name, line, errSpan, "%v", err)
		}
		g, err := strconv.ParseInt(string(f[4]), 10, 32)
		if err != nil || g == eval.Unjudged {
			return parseErr(name, line, eval.ErrGrade, "%q", f[4])
		}
		q := string(f[0])
		s := Span{Doc: string(f[1]), Start: start, End: end}
		if seen[q] == nil {
			seen[q] = map[Span]int{}
		}
		if prev, dup := seen[q][s]; dup {
			return parseErr(name, line, eval.ErrDuplicate, "span %s [%d, %d) judged twice for query %q (first on line %d)", s.Doc, start, end, q, prev)
		}
		seen[q][s] = line
		pq[q] = append(pq[q], Passage{Span: s, Grade: int(g)})
		n++
		return nil
	})
	if err != nil {
		return nil, err
	}
	if n == 0 {
		return nil, parseErr(name, 0, eval.ErrEmpty, "no judgment")
	}
	return pq, nil
}

// ReadPassageQrelsFile reads passage qrels: one judged span a line, exactly 5 fields separated by
// spaces or tabs
//
//	query-id doc-id start end grade
//
// where [start, end) is a span of the document in the unit of the chunk map it is used with
// (0 <= start < end) and grade an integer. The first line may be the header
// "query-id doc-id start end grade". Lines are read as every ranklab reader reads them (a
// leading byte-order mark dropped, CRLF read, '#' comment lines skipped); an empty line, a wrong
// field count, a bad span (an end beyond 2^40 included), a grade that is not an integer,
// the same span judged twice for a query, or a file without judgments is a *eval.ParseError
// ("name:line: msg") unwrapping to eval.ErrEmptyLine, eval.ErrFieldCount, a bad span, eval.ErrGrade,
// eval.ErrDuplicate or eval.ErrEmpty.
//
//	q1 d7 40 95 2     (tokens 40..94 of d7 answer q1, grade 2)
//
// The file is gunzipped when it starts with gzip's magic bytes.
func ReadPassageQrelsFile(path string) (PassageQrels, error) {
	r, closeFn, err := scan.Open(path)
	if err != nil {
		return nil, openErr(path, err)
	}
	defer closeFn()
	return readPassageQrels(r, path)
}

// docQrels are the document-level judgments the passages imply: a document's grade is the
// largest grade of its judged spans.
func (pq PassageQrels) docQrels() eval.Qrels {
	out := eval.Qrels{}
	for q, ps := range pq {
		docs := map[string]int{}
		for _, p := range ps {
			if g, ok := docs[p.Doc]; !ok || p.Grade > g {
				docs[p.Doc] = p.Grade
			}
		}
		out[q] = docs
	}
	return out
}

// ChunkQrels judges the chunks of m by span overlap: a chunk that shares at least one unit with
// judged spans of a query takes the largest grade among them; a chunk that overlaps no judged
// span is left unjudged (never relevant). The result evaluates a chunk run at chunk level with
// package eval, where R counts the relevant chunks of the chunking (so it differs between
// chunkings; EvaluatePassages' span measures do not).
func (pq PassageQrels) ChunkQrels(m ChunkMap) eval.Qrels {
	byDoc := map[string][]string{}
	for id, s := range m {
		byDoc[s.Doc] = append(byDoc[s.Doc], id)
	}
	out := eval.Qrels{}
	for q, ps := range pq {
		judged := map[string]int{}
		for _, p := range ps {
			for _, id := range byDoc[p.Doc] {
				if m[id].overlap(p.Span) == 0 {
					continue
				}
				if g, ok := judged[id]; !ok || p.Grade > g {
					judged[id] = p.Grade
				}
			}
		}
		out[q] = judged
	}
	return out
}

// Names of the span measures (EvaluatePassages).
const (
	nameSpanRecall    = "SpanR"
	nameSpanPrecision = "SpanP"
)

// SpanRecallAt returns SpanR@Btok, the share of the relevant judged units that a context of
// tokens tokens covers.
func SpanRecallAt(tokens int) BudgetMeasure {
	return BudgetMeasure{Name: nameSpanRecall, Tokens: tokens}
}

// SpanPrecisionAt returns SpanP@Btok, the share of a context's distinct units that lie in a
// relevant judged span.
func SpanPrecisionAt(tokens int) BudgetMeasure {
	return BudgetMeasure{Name: nameSpanPrecision, Tokens: tokens}
}

// EvaluatePassages scores a chunk run against passage qrels by span overlap, at token budgets.
// With C the units of the B-token context (Context; the union of its chunks' spans, each unit
// once) and J the units of the query's judged spans with grade >= L (their union; L is
// opt.RelLevel, default 1):
//
//	SpanR@Btok = |C ∩ J| / |J|     (0 when J is empty)
//	SpanP@Btok = |C ∩ J| / |C|     (0 when C is empty)
//
// (the character-level passage measures of TREC Genomics, on the map's unit). Every query of pq
// is evaluated; a query the run lacks scores 0. measures must be SpanRecallAt or SpanPrecisionAt;
// inputs are not modified.
func EvaluatePassages(pq PassageQrels, run eval.Run, m ChunkMap, opt eval.Options, measures ...BudgetMeasure) (BudgetResult, error) {
	if len(measures) == 0 {
		return BudgetResult{}, fmt.Errorf("rag: EvaluatePassages: no measure")
	}
	for _, bm := range measures {
		if (bm.Name != nameSpanRecall && bm.Name != nameSpanPrecision) || bm.Tokens < 1 {
			return BudgetResult{}, fmt.Errorf("rag: EvaluatePassages: %s: want SpanR@Btok or SpanP@Btok with B >= 1", bm)
		}
	}
	L := max(opt.RelLevel, 1)
	res := BudgetResult{Tag: run.Tag, Measures: slices.Clone(measures), Queries: slices.Sorted(maps.Keys(pq))}
	for q := range run.Queries {
		if _, ok := pq[q]; !ok {
			res.Ignored = append(res.Ignored, q)
		}
	}
	slices.Sort(res.Ignored)
	for _, q := range res.Queries {
		var rel []Span
		for _, p := range pq[q] {
			if p.Grade >= L {
				rel = append(rel, p.Span)
			}
		}
		rel = union(rel)
		docs, ok := run.Queries[q]
		if !ok {
			res.Missing = append(res.Missing, q)
		}
		cs, err := resolve(queryName(q), docs, m)
		if err != nil {
			return BudgetResult{}, err
		}
		row := make([]float64, len(measures))
		for j, bm := range measures {
			var ctx []Span
			for _, c := range contextOf(cs, bm.Tokens, bm.Truncate) {
				ctx = append(ctx, c.span)
			}
			ctx = union(ctx)
			hit, ok1 := intersection(ctx, rel)
			size, ok2 := total(ctx)
			relSize, ok3 := total(rel)
			if !ok1 || !ok2 || !ok3 {
				return BudgetResult{}, fmt.Errorf("rag: EvaluatePassages: query %q: the spans add up to more than 2^63 units", q)
			}
			switch {
			case bm.Name == nameSpanRecall && relSize > 0:
				row[j] = float64(hit) / float64(relSize)
			case bm.Name == nameSpanPrecision && size > 0:
				row[j] = float64(hit) / float64(size)
			}
		}
		res.Values = append(res.Values, row)
	}
	res.Means = make([]float64, len(measures))
	for j := range measures {
		s := 0.0
		for i := range res.Queries {
			s += res.Values[i][j]
		}
		res.Means[j] = s / float64(len(res.Queries))
	}
	return res, nil
}

// union merges spans into disjoint, sorted spans covering the same units.
func union(spans []Span) []Span {
	s := slices.Clone(spans)
	slices.SortFunc(s, func(a, b Span) int { return compareChunks("", a, "", b) })
	var out []Span
	for _, x := range s {
		if n := len(out); n > 0 && out[n-1].Doc == x.Doc && x.Start <= out[n-1].End {
			out[n-1].End = max(out[n-1].End, x.End)
			continue
		}
		out = append(out, x)
	}
	return out
}

// intersection counts the units two unions (from union) share; ok is false when the count
// overflows an int.
func intersection(a, b []Span) (n int, ok bool) {
	ok = true
	for _, x := range a {
		for _, y := range b {
			n, ok = addChecked(n, x.overlap(y), ok)
		}
	}
	return n, ok
}

// total counts the units of a union; ok is false when the count overflows an int.
func total(spans []Span) (n int, ok bool) {
	ok = true
	for _, s := range spans {
		n, ok = addChecked(n, s.len(), ok)
	}
	return n, ok
}

// addChecked returns a+b for a, b >= 0, and ok false (sticky) when the sum overflows.
func addChecked(a, b int, ok bool) (int, bool) {
	if b > math.MaxInt-a {
		return math.MaxInt, false
	}
	return a + b, ok
}
