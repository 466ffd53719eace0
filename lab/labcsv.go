package lab

import (
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"math"
	"strconv"

	"github.com/ranklab/ranklab/internal/scan"

	"github.com/ranklab/ranklab/eval"
	"github.com/ranklab/ranklab/internal/csvcell"
)

// The lab's CSV (WriteCSV, ReadCSV) is RFC 4180 as encoding/csv writes it, in two sections.
//
// The first section starts with the header "key,value" and has two fields a record: the state
// (k, rerank, rerank_quality, grade, total, corpus, chunk, overlap, seed, n), the query the
// ranking answers (empty for a hand-built ranking), the metrics (precision, recall, mrr,
// ndcg, relevant_in_k, recall_denominator), the footprint (stride, chunks, indexed_tokens,
// duplicated_tokens, duplication), the link, then one "reading" record per sentence of the metric
// reading and one "chunk_reading" record per sentence of the chunking reading.
//
// The second section starts with the header
//
//	rank,first_rank,doc,label,grade,first_score,rerank_score,inside_k,relevant
//
// and has one record per ranked item, in rank order, then one per missed item (judged, not
// retrieved) with rank and first_rank empty and inside_k false. Numbers are decimal; floats are
// printed with the fewest digits that read back exactly (strconv 'g', -1); flags are true/false.
// For example (the default state, shortened):
//
//	key,value
//	k,5
//	...
//	n,20
//	query,how do I make retrieval robust to real user queries?
//	precision,0.6
//	...
//	link,k=5&rerank=10&rerank_quality=50&grade=1&total=0&corpus=10000&chunk=512&overlap=128&seed=2278&n=20
//	reading,3 of the top 5 items have grade >= 1: precision@5 = 3/5 = 0.600.
//	...
//	rank,first_rank,doc,label,grade,first_score,rerank_score,inside_k,relevant
//	1,3,d03,answer extraction,3,13.26,0.7006,true,true
//	...
//	,,d21,dense retrieval recall,2,0,0,false,true
var csvItemHeader = []string{"rank", "first_rank", "doc", "label", "grade", "first_score", "rerank_score", "inside_k", "relevant"}

// WriteCSV writes the outcome in the lab's CSV layout (see csvItemHeader's comment). A cell a
// spreadsheet would run as a formula (a label or query starting with '=', '+', '-', '@') gets a
// leading "'" (package csvcell), which ReadCSV drops.
func WriteCSV(w io.Writer, o Outcome) error {
	cw := csvcell.NewWriter(w)
	recs := [][]string{{"key", "value"}}
	kv := func(k, v string) { recs = append(recs, []string{k, v}) }
	s := o.State
	for _, f := range Fields {
		kv(f.Key, f.format(s))
	}
	kv("query", o.Query)
	for _, v := range csvValues(o) {
		kv(v.key, v.val)
	}
	kv("link", o.Link)
	for _, r := range o.Reading {
		kv("reading", r)
	}
	for _, r := range o.ChunkReading {
		kv("chunk_reading", r)
	}
	recs = append(recs, csvItemHeader)
	for _, it := range o.Items {
		recs = append(recs, []string{itoa(it.Rank), itoa(it.FirstRank), it.Doc, it.Label, itoa(it.Grade),
			ftoa(it.FirstScore), ftoa(it.RerankScore), strconv.FormatBool(it.InsideK), strconv.FormatBool(it.Relevant)})
	}
	for _, c := range o.Missed {
		recs = append(recs, []string{"", "", c.Doc, c.Label, itoa(c.Grade),
			ftoa(c.FirstScore), ftoa(c.RerankScore), "false", strconv.FormatBool(c.Grade >= s.MinGrade)})
	}
	if err := cw.WriteAll(recs); err != nil {
		return fmt.Errorf("lab: writing CSV: %w", err)
	}
	return nil
}

type csvValue struct{ key, val string }

// csvValues are the computed values of the first section (metrics and footprint), in order.
func csvValues(o Outcome) []csvValue {
	m, f := o.Metrics, o.Footprint
	return []csvValue{
		{"precision", ftoa(m.Precision)}, {"recall", ftoa(m.Recall)}, {"mrr", ftoa(m.MRR)}, {"ndcg", ftoa(m.NDCG)},
		{"relevant_in_k", itoa(m.RelevantInK)}, {"recall_denominator", itoa(m.Denominator)},
		{"stride", itoa(f.Stride)}, {"chunks", itoa(f.Chunks)}, {"indexed_tokens", itoa(f.Indexed)},
		{"duplicated_tokens", itoa(f.Duplicated)}, {"duplication", ftoa(f.Duplication)},
	}
}

// ReadCSV reads an outcome written by WriteCSV. It parses the state and the ranking, recomputes
// the outcome from them (State.OutcomeFor) and checks every stored value — each item, metric,
// footprint value, the link and each reading sentence — against the recomputed one, so what it
// returns is exactly what was written (ReadCSV(WriteCSV(o)) == o) and an edited or inconsistent
// file is an error, never silently repaired. Errors are *ParseError values "csv:LINE: msg".
//
// It cannot use scan.Lines (an RFC 4180 quoted field may hold a newline); it reads through
// scan.LineCap, so a byte-order mark at the start is dropped and a line over 64 MiB is an error
// as in every ranklab reader, and each cell loses the "'" that WriteCSV puts before a cell a
// spreadsheet would run as a formula (csvcell.Uncell).
func ReadCSV(r io.Reader) (Outcome, error) { return readCSV(r, "csv") }

// ReadCSVFile reads the lab CSV at path ("-" for standard input; gzip read as by every ranklab
// reader) as ReadCSV does; errors name the path ("path:LINE: msg").
func ReadCSVFile(path string) (Outcome, error) {
	r, closeFn, err := scan.Open(path)
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return Outcome{}, err
	} else if err != nil {
		return Outcome{}, &eval.ParseError{File: path, Line: 1, Err: err}
	}
	defer closeFn()
	return readCSV(r, path)
}

// readCSV is ReadCSV with errors naming file.
func readCSV(r io.Reader, file string) (Outcome, error) {
	lc := scan.LineCap(r)
	cr := csv.NewReader(lc)
	cr.FieldsPerRecord = -1
	cr.ReuseRecord = false
	bad := func(line int, format string, args ...any) error {
		return &eval.ParseError{File: file, Line: line, Err: fmt.Errorf(format, args...)}
	}
	next := func() ([]string, int, error) {
		rec, err := cr.Read()
		if err != nil {
			var pe *csv.ParseError
			if errors.As(err, &pe) {
				if inner := pe.Err; errors.Is(inner, scan.ErrLineTooLong) || errors.Is(inner, scan.ErrBareCR) {
					return nil, lc.Line(), &eval.ParseError{File: file, Line: lc.Line(), Err: inner}
				}
				return nil, pe.Line, &eval.ParseError{File: file, Line: pe.Line, Err: pe.Err}
			}
			if err != io.EOF {
				return nil, lc.Line(), &eval.ParseError{File: file, Line: lc.Line(), Err: scan.ReadError(err)}
			}
			return nil, 0, err
		}
		line, _ := cr.FieldPos(0)
		for i := range rec {
			rec[i] = csvcell.Uncell(rec[i])
		}
		return rec, line, nil
	}

	rec, line, err := next()
	if err == io.EOF {
		return Outcome{}, &eval.ParseError{File: file, Err: eval.ErrEmpty}
	}
	if err != nil {
		return Outcome{}, err
	}
	if len(rec) != 2 || rec[0] != "key" || rec[1] != "value" {
		return Outcome{}, parseErr(file, line, eval.ErrHeader, "want \"key,value\", got %q", rec)
	}
	values := map[string]csvStored{}
	var readings, chunkReadings []csvStored
	stateKeys := map[string]bool{}
	for _, f := range Fields {
		stateKeys[f.Key] = true
	}
	computed := map[string]bool{"link": true, "query": true}
	for _, v := range csvValues(Outcome{}) {
		computed[v.key] = true
	}
	for {
		rec, line, err = next()
		if err == io.EOF {
			return Outcome{}, bad(line, "no ranking section (header %q)", csvItemHeader)
		}
		if err != nil {
			return Outcome{}, err
		}
		if len(rec) > 0 && rec[0] == "rank" {
			break
		}
		if len(rec) != 2 {
			return Outcome{}, parseErr(file, line, eval.ErrFieldCount, "want 2 fields (key,value), got %d", len(rec))
		}
		k, v := rec[0], rec[1]
		switch {
		case k == "reading":
			readings = append(readings, csvStored{v, line})
		case k == "chunk_reading":
			chunkReadings = append(chunkReadings, csvStored{v, line})
		case stateKeys[k] || computed[k]:
			if prev, dup := values[k]; dup {
				return Outcome{}, bad(line, "key %q given twice (first on line %d)", k, prev.line)
			}
			values[k] = csvStored{v, line}
		default:
			return Outcome{}, bad(line, "unknown key %q", k)
		}
	}
	if len(rec) != len(csvItemHeader) || !equalStrings(rec, csvItemHeader) {
		return Outcome{}, parseErr(file, line, eval.ErrHeader, "want %q, got %q", csvItemHeader, rec)
	}
	headerLine := line

	var s State
	for _, f := range Fields {
		st, ok := values[f.Key]
		if !ok {
			return Outcome{}, bad(headerLine, "state key %q is missing", f.Key)
		}
		if s, err = f.parse(s, st.val); err != nil {
			return Outcome{}, bad(st.line, "%v", err)
		}
	}

	// The ranking rows: candidates by first-stage rank, and the missed items.
	type row struct {
		it   Item
		line int
	}
	var ranked []row
	var missed []Candidate
	var missedRows []row
	for {
		rec, line, err = next()
		if err == io.EOF {
			break
		}
		if err != nil {
			return Outcome{}, err
		}
		if len(rec) != len(csvItemHeader) {
			return Outcome{}, parseErr(file, line, eval.ErrFieldCount, "want %d fields, got %d", len(csvItemHeader), len(rec))
		}
		it, err := parseItemRecord(rec)
		if err != nil {
			return Outcome{}, &eval.ParseError{File: file, Line: line, Err: err}
		}
		if rec[0] == "" && rec[1] == "" {
			missed = append(missed, Candidate{Doc: it.Doc, Label: it.Label, Grade: it.Grade, FirstScore: it.FirstScore, RerankScore: it.RerankScore})
			missedRows = append(missedRows, row{it, line})
			continue
		}
		if len(missed) > 0 {
			return Outcome{}, bad(line, "ranked item after the missed items")
		}
		if it.Rank != len(ranked)+1 {
			return Outcome{}, bad(line, "rank %d, want %d (items in rank order)", it.Rank, len(ranked)+1)
		}
		ranked = append(ranked, row{it, line})
	}
	cands := make([]Candidate, len(ranked))
	filled := make([]bool, len(ranked))
	for _, r := range ranked {
		fr := r.it.FirstRank
		if fr < 1 || fr > len(ranked) || filled[fr-1] {
			return Outcome{}, bad(r.line, "first_rank %d is not a free rank in 1..%d", fr, len(ranked))
		}
		filled[fr-1] = true
		cands[fr-1] = Candidate{Doc: r.it.Doc, Label: r.it.Label, Grade: r.it.Grade, FirstScore: r.it.FirstScore, RerankScore: r.it.RerankScore}
	}

	query, ok := values["query"]
	if !ok {
		return Outcome{}, bad(headerLine, "key %q is missing", "query")
	}
	o, err := s.OutcomeFor(Synthetic{Query: query.val, Candidates: cands, Missed: missed})
	if err != nil {
		return Outcome{}, bad(headerLine, "the stored state and ranking are invalid: %v", err)
	}
	for i, r := range ranked {
		if r.it != o.Items[i] {
			return Outcome{}, bad(r.line, "item %+v differs from the recomputed %+v", r.it, o.Items[i])
		}
	}
	for _, r := range missedRows {
		if want := r.it.Grade >= s.MinGrade; r.it.Relevant != want || r.it.InsideK {
			return Outcome{}, bad(r.line, "missed item %s: want inside_k false and relevant %v", r.it.Doc, want)
		}
	}
	for _, v := range append(csvValues(o), csvValue{"link", o.Link}) {
		st, ok := values[v.key]
		if !ok {
			return Outcome{}, bad(headerLine, "key %q is missing", v.key)
		}
		if st.val != v.val {
			return Outcome{}, bad(st.line, "%s %s differs from the value recomputed from the state and ranking, %s", v.key, st.val, v.val)
		}
	}
	if err := checkSentences("reading", readings, o.Reading, headerLine); err != nil {
		return Outcome{}, err
	}
	if err := checkSentences("chunk_reading", chunkReadings, o.ChunkReading, headerLine); err != nil {
		return Outcome{}, err
	}
	return o, nil
}

// parseItemRecord parses one ranking record; rank and first_rank may both be empty (a missed item).
func parseItemRecord(rec []string) (Item, error) {
	var it Item
	var err error
	if rec[0] != "" || rec[1] != "" {
		if it.Rank, err = strconv.Atoi(rec[0]); err != nil {
			return it, fmt.Errorf("rank %q is not an integer", rec[0])
		}
		if it.FirstRank, err = strconv.Atoi(rec[1]); err != nil {
			return it, fmt.Errorf("first_rank %q is not an integer", rec[1])
		}
	}
	it.Doc, it.Label = rec[2], rec[3]
	if it.Grade, err = strconv.Atoi(rec[4]); err != nil {
		return it, fmt.Errorf("%w: grade %q", eval.ErrGrade, rec[4])
	}
	for i, p := range []*float64{&it.FirstScore, &it.RerankScore} {
		v, err := strconv.ParseFloat(rec[5+i], 64)
		if err != nil || math.IsInf(v, 0) || math.IsNaN(v) {
			return it, fmt.Errorf("%w: %s %q", eval.ErrScore, csvItemHeader[5+i], rec[5+i])
		}
		*p = v
	}
	for i, p := range []*bool{&it.InsideK, &it.Relevant} {
		v, err := strconv.ParseBool(rec[7+i])
		if err != nil || (rec[7+i] != "true" && rec[7+i] != "false") {
			return it, fmt.Errorf("%s %q is not true or false", csvItemHeader[7+i], rec[7+i])
		}
		*p = v
	}
	return it, nil
}

// csvStored is a value of the CSV's first section and its line.
type csvStored struct {
	val  string
	line int
}

// checkSentences checks the stored sentences of a reading against the recomputed ones.
func checkSentences(key string, got []csvStored, want []string, headerLine int) error {
	for i, st := range got {
		if i >= len(want) {
			return &eval.ParseError{File: "csv", Line: st.line, Err: fmt.Errorf("%s: %d sentences, the recomputed reading has %d", key, len(got), len(want))}
		}
		if st.val != want[i] {
			return &eval.ParseError{File: "csv", Line: st.line, Err: fmt.Errorf("%s sentence %d differs from the recomputed %q", key, i+1, want[i])}
		}
	}
	if len(got) < len(want) {
		return &eval.ParseError{File: "csv", Line: headerLine, Err: fmt.Errorf("%s: %d sentences, the recomputed reading has %d", key, len(got), len(want))}
	}
	return nil
}

func equalStrings(a, b []string) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

func itoa(n int) string { return strconv.Itoa(n) }

// ftoa prints a float with the fewest digits that parse back to the same value.
func ftoa(x float64) string { return strconv.FormatFloat(x, 'g', -1, 64) }

// parseErr builds a *eval.ParseError whose message is sentinel followed by detail.
func parseErr(file string, line int, sentinel error, format string, args ...any) error {
	return &eval.ParseError{File: file, Line: line, Err: fmt.Errorf("%w: "+format, append([]any{sentinel}, args...)...)}
}
