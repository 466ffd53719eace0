package lab

import (
	"fmt"
	"strconv"

	"github.com/ranklab/ranklab/chunking"
)

// A Field is one control of the lab, declared once: the link, the CSV, the command line's flags
// and JSON, the live panel's controls and the notebook's variables all come from Fields.
type Field struct {
	Key     string // the name in links, flags, CSV and JSON: k, rerank, grade, ...
	Label   string // a short label for a control
	Help    string // one line saying what it does
	Default int64  // its value in DefaultState
	Number  bool   // typed as a number rather than dragged on a slider (corpus, seed)
	Live    bool   // a control of the live panel (seed and n are fixed there)

	get func(State) int64
	set func(*State, int64)
	// valid returns the allowed range of the field for the state's other fields; zero adds 0
	// (total: 0 means the qrels' count).
	valid func(State) (lo, hi int64, zero bool)
	// slider is the span a slider offers when it is narrower than valid (nil: valid's).
	slider func(State) (lo, hi int64)
}

// Fields lists the lab's controls in display order.
var Fields = []Field{
	{Key: "k", Label: "k (depth)", Help: "metrics look at the top k (k beyond the list still divides P@k by k)", Default: 5, Live: true,
		get: func(s State) int64 { return int64(s.K) }, set: func(s *State, v int64) { s.K = int(v) },
		valid: func(State) (int64, int64, bool) { return 1, maxK, false },
		// Beyond the list by kBeyond, so a slider reaches the reading of k beyond the list.
		slider: func(s State) (int64, int64) { return 1, int64(min(maxK, max(s.Size+kBeyond, s.K, 1))) }},
	{Key: "rerank", Label: "rerank depth", Help: "the reranker reorders only the first n candidates (0 = first-stage order)", Default: 10, Live: true,
		get: func(s State) int64 { return int64(s.Rerank) }, set: func(s *State, v int64) { s.Rerank = int(v) },
		valid: func(s State) (int64, int64, bool) { return 0, int64(s.Size), false },
	},
	{Key: "rerank_quality", Label: "reranker quality %", Help: "how closely the reranker score follows the grade: 0 = noise, 75 and above = orders by grade",
		Default: int64(DefaultRerankQuality * 100), Live: true,
		get: func(s State) int64 { return int64(s.RerankQuality) }, set: func(s *State, v int64) { s.RerankQuality = int(v) },
		valid: func(State) (int64, int64, bool) { return 0, maxRerankQuality, false }},
	{Key: "grade", Label: "minimum grade", Help: "grades at or above count as relevant (1..3)", Default: 1, Live: true,
		get: func(s State) int64 { return int64(s.MinGrade) }, set: func(s *State, v int64) { s.MinGrade = int(v) },
		valid: func(State) (int64, int64, bool) { return 1, MaxGrade, false }},
	{Key: "total", Label: "total relevant", Help: "recall's denominator (0 = the qrels' count of relevant items)", Default: 0, Live: true,
		get: func(s State) int64 { return int64(s.Total) }, set: func(s *State, v int64) { s.Total = int(v) },
		valid: func(s State) (int64, int64, bool) {
			found := s.relevantFound()
			return int64(max(found, 1)), maxTotal, true
		},
		// From the relevant items found (0, the qrels' count, sits one step below: see SliderRange).
		slider: func(s State) (int64, int64) {
			return int64(max(s.relevantFound(), 1)), int64(max(2*s.Size, s.Total, s.relevantFound()))
		}},
	{Key: "corpus", Label: "corpus tokens", Help: "size of the corpus to chunk", Default: 10000, Number: true, Live: true,
		get: func(s State) int64 { return int64(s.Corpus) }, set: func(s *State, v int64) { s.Corpus = int(v) },
		valid: func(State) (int64, int64, bool) { return 0, chunking.MaxCorpus, false }},
	{Key: "chunk", Label: "chunk size", Help: "tokens per chunk", Default: 512, Live: true,
		get: func(s State) int64 { return int64(s.Chunk) }, set: func(s *State, v int64) { s.Chunk = int(v) },
		valid: func(s State) (int64, int64, bool) { return int64(max(s.Overlap+1, 1)), chunking.MaxChunk, false },
		// The slider goes down to 1: the live panel lowers the overlap with the chunk.
		slider: func(s State) (int64, int64) { return 1, int64(max(2048, s.Chunk)) }},
	{Key: "overlap", Label: "overlap", Help: "tokens shared by neighbouring chunks (below the chunk size)", Default: 128, Live: true,
		get: func(s State) int64 { return int64(s.Overlap) }, set: func(s *State, v int64) { s.Overlap = int(v) },
		valid: func(s State) (int64, int64, bool) { return 0, int64(max(s.Chunk-1, 0)), false }},
	{Key: "seed", Label: "seed", Help: "seed of the synthetic ranking", Default: DefaultSeed, Number: true,
		get: func(s State) int64 { return s.Seed }, set: func(s *State, v int64) { s.Seed = v },
		valid: func(State) (int64, int64, bool) { return -1 << 63, 1<<63 - 1, false }},
	{Key: "n", Label: "candidates", Help: "candidates in the synthetic ranking", Default: 20,
		get: func(s State) int64 { return int64(s.Size) }, set: func(s *State, v int64) { s.Size = int(v) },
		valid: func(s State) (int64, int64, bool) { return int64(max(s.Rerank, 1)), maxSize, false }},
}

// relevantFound counts the candidates with grade >= MinGrade, the least non-zero Total; 0 when
// the state cannot build its ranking (Size, RerankQuality or MinGrade out of range).
func (s State) relevantFound() int {
	if s.Size < 1 || s.Size > maxSize || s.MinGrade < 1 {
		return 0
	}
	s.RerankQuality = 0 // the grades do not depend on it; any value in range builds the ranking
	found, _ := relevantCounts(s.Synthetic(), s.MinGrade)
	return found
}

// fieldByKey returns the field of Fields with the given key.
func fieldByKey(key string) (Field, bool) {
	for _, f := range Fields {
		if f.Key == key {
			return f, true
		}
	}
	return Field{}, false
}

// Get returns the field's value in s.
func (f Field) Get(s State) int64 { return f.get(s) }

// Set returns s with the field set to v (not validated: see State.Validate).
func (f Field) Set(s State, v int64) State {
	f.set(&s, v)
	return s
}

// Range returns the values the field may take given the state's other fields: lo..hi, and 0 as
// well when zero is true (total's "the qrels' count"). A control offers exactly these values.
func (f Field) Range(s State) (lo, hi int64, zero bool) { return f.valid(s) }

// kBeyond is how far past the candidate list a k slider reaches.
const kBeyond = 10

// SliderRange returns the span lo..hi a slider for the field offers in state s: Range, narrowed
// to a span one can drag through (k up to 10 beyond the list, chunk up to 2048, total up to twice
// the list). Every value in lo..hi is valid, except that chunk goes down to 1 (the live panel
// lowers the overlap with it). When Range's zero is true, 0 is valid too but 1..lo−1 are not
// (total: 0, or at least the relevant items found), so a slider that offers 0 puts it at the
// position lo−1, just below lo (the live panel does).
func (f Field) SliderRange(s State) (lo, hi int64) {
	if f.slider != nil {
		return f.slider(s)
	}
	lo, hi, _ = f.valid(s)
	return lo, hi
}

// format returns the field's value in s as a decimal integer (Get in base 10), as links, flags
// and CSV write it.
func (f Field) format(s State) string { return strconv.FormatInt(f.get(s), 10) }

// parse returns s with the field set to the decimal integer text (not validated). The error
// names the field.
func (f Field) parse(s State, text string) (State, error) {
	v, err := strconv.ParseInt(text, 10, 64)
	if err != nil {
		return State{}, &fieldError{Field: f.Key, Msg: fmt.Sprintf("%q is not an integer", text)}
	}
	if f.Key != "seed" && v != int64(int(v)) {
		return State{}, &fieldError{Field: f.Key, Msg: fmt.Sprintf("%s is out of range", text)}
	}
	return f.Set(s, v), nil
}

// fieldKeys lists the keys of Fields in order.
func fieldKeys() []string {
	out := make([]string, len(Fields))
	for i, f := range Fields {
		out[i] = f.Key
	}
	return out
}
