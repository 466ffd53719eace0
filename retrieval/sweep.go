package retrieval

import (
	"fmt"
	"github.com/ranklab/ranklab/chunking"
	"github.com/ranklab/ranklab/eval"
	"slices"
	"time"

	"github.com/ranklab/ranklab/stats"
)

// SweepChunkings are the configurations of the standard sweep: whole documents, then chunk
// sizes 32, 64, 128, 256 and 512 tokens, each without overlap and with 25 % overlap
// (Overlap = Chunk / 4).
func SweepChunkings() []Chunking {
	out := []Chunking{Whole}
	for _, size := range []int{32, 64, 128, 256, 512} {
		out = append(out, Chunking{Chunk: size}, Chunking{Chunk: size, Overlap: size / 4})
	}
	return out
}

// SweepMeasures are the measures of a sweep: nDCG@10 (linear gain, graded qrels use their
// grades), R@100 and RR@10.
func SweepMeasures() []eval.Measure {
	return []eval.Measure{eval.NDCG(10), eval.Recall(100), eval.RRAt(10)}
}

// SweepOptions configure RunSweep. The zero value means: SweepChunkings, MaxP, Anserini's
// BM25, depth 1000, stats.DefaultPermutations sign flips, seed 0.
type SweepOptions struct {
	Chunkings    []Chunking // nil: SweepChunkings(); the first one is the baseline
	Aggregation  Aggregation
	BM25         BM25   // zero: Anserini
	Depth        int    // documents retrieved per query; 0: 1000
	Permutations int    // randomization-test sign flips; 0: stats.DefaultPermutations
	Seed         uint64 // seed of the randomization test, used as given
}

// Stages is the wall time spent per stage: tokenize (cl100k_base encoding of the corpus,
// done once and shared by every configuration, plus cutting and decoding the chunks), index
// (English analysis and building the BM25 index), search (every query), evaluate (the
// project's evaluator and the paired tests).
type Stages struct {
	Tokenize, Index, Search, Evaluate time.Duration
}

// Total returns the sum of the stages.
func (s Stages) Total() time.Duration { return s.Tokenize + s.Index + s.Search + s.Evaluate }

func (s *Stages) add(o Stages) {
	s.Tokenize += o.Tokenize
	s.Index += o.Index
	s.Search += o.Search
	s.Evaluate += o.Evaluate
}

// Comparison is the paired test of one measure of a configuration against the baseline,
// over the evaluated queries: mean difference (configuration − baseline), the paired
// t-test's t and p, the randomization test's p, and both p-values Holm-adjusted over the
// family of all non-baseline configurations of the sweep (one family per measure and test).
type Comparison struct {
	Delta, T, TP, RandP, TPHolm, RandPHolm float64
}

// SweepRow is one configuration of a sweep.
type SweepRow struct {
	Chunking Chunking
	// Measured from the chunks actually indexed: Chunks units, Indexed cl100k_base tokens,
	// Duplication = (Indexed − corpus tokens) / corpus tokens.
	Chunks, Indexed int
	Duplication     float64
	// Footprint is the lab's footprint model summed over documents (chunking.FootprintOf); for
	// whole documents Chunk is 0 and it counts one unit per non-empty document.
	Footprint chunking.Footprint
	Result    eval.Result  // per-query values of SweepMeasures, with means
	Compare   []Comparison // per measure; nil for the baseline row
	Stages    Stages
}

// Sweep is the result of a chunking sweep on one collection.
type Sweep struct {
	Collection  string // directory of the collection
	Split       string
	Docs        int
	Tokens      int // cl100k_base tokens of the corpus (Content of every document)
	Aggregation Aggregation
	Measures    []eval.Measure
	Rows        []SweepRow // Rows[0] is the baseline
	Stages      Stages     // summed over rows, plus the shared tokenization
}

// RunSweep indexes c once per configuration, searches the collection's queries and
// evaluates each run with the project's evaluator (eval.Evaluate with AllQueries, so a query
// that retrieves nothing counts as 0), then compares every configuration with the first
// (whole documents by default) query by query. c is not modified.
func RunSweep(c Collection, opt SweepOptions) (Sweep, error) {
	if opt.Chunkings == nil {
		opt.Chunkings = SweepChunkings()
	}
	if len(opt.Chunkings) == 0 {
		return Sweep{}, fmt.Errorf("sweep: no configurations")
	}
	if opt.BM25 == (BM25{}) {
		opt.BM25 = Anserini
	}
	if opt.Depth == 0 {
		opt.Depth = 1000
	}
	if opt.Permutations == 0 {
		opt.Permutations = stats.DefaultPermutations
	}
	for _, ch := range opt.Chunkings {
		if err := ch.Validate(); err != nil {
			return Sweep{}, fmt.Errorf("sweep: %v", err)
		}
	}
	tok, err := NewTokenizer()
	if err != nil {
		return Sweep{}, err
	}
	an, err := English()
	if err != nil {
		return Sweep{}, err
	}
	sw := Sweep{Collection: c.Dir, Split: c.Split, Docs: len(c.Docs), Aggregation: opt.Aggregation, Measures: SweepMeasures()}

	t0 := time.Now()
	tz := Tokenize(tok, c.Docs)
	sw.Stages.Tokenize = time.Since(t0)
	lengths := tz.Lengths()
	for _, n := range lengths {
		sw.Tokens += n
	}

	for _, ch := range opt.Chunkings {
		row := SweepRow{Chunking: ch}
		t0 = time.Now()
		chunks, err := tz.Chunks(tok, ch)
		if err != nil {
			return Sweep{}, err
		}
		row.Stages.Tokenize = time.Since(t0)

		t0 = time.Now()
		s := NewSearcher(an, opt.BM25, c.Docs, chunks, ch, opt.Aggregation)
		row.Stages.Index = time.Since(t0)
		row.Chunks, row.Indexed = len(chunks), s.IndexedTokens()
		if sw.Tokens > 0 {
			row.Duplication = float64(row.Indexed-sw.Tokens) / float64(sw.Tokens)
		}
		row.Footprint, err = footprintOf(lengths, ch)
		if err != nil {
			return Sweep{}, err
		}

		t0 = time.Now()
		run := RunQueries(s, c.Queries, opt.Depth, "bm25-"+ch.String())
		row.Stages.Search = time.Since(t0)

		t0 = time.Now()
		row.Result, err = eval.Options{AllQueries: true}.Evaluate(c.Qrels, run, sw.Measures...)
		if err != nil {
			return Sweep{}, fmt.Errorf("sweep %s: %w", ch, err)
		}
		row.Stages.Evaluate = time.Since(t0)
		sw.Rows = append(sw.Rows, row)
	}

	t0 = time.Now()
	if err := compareRows(sw.Rows, len(sw.Measures), opt.Permutations, opt.Seed); err != nil {
		return Sweep{}, err
	}
	sw.Stages.Evaluate += time.Since(t0)
	for _, r := range sw.Rows {
		sw.Stages.add(r.Stages)
	}
	return sw, nil
}

// footprintOf is the footprint model of a configuration: chunking.FootprintOf for chunks; for
// whole documents, one unit per non-empty document holding all its tokens.
func footprintOf(lengths []int, ch Chunking) (chunking.Footprint, error) {
	if ch.Chunk > 0 {
		return chunking.FootprintOf(lengths, ch.Chunk, ch.Overlap)
	}
	var f chunking.Footprint
	for _, n := range lengths {
		f.Corpus += n
		if n > 0 {
			f.Chunks++
		}
	}
	f.Indexed = f.Corpus
	return f, nil
}

// compareRows fills Compare of rows[1:] against rows[0], with Holm's correction over the
// non-baseline rows for each measure and test.
func compareRows(rows []SweepRow, measures, permutations int, seed uint64) error {
	if len(rows) < 2 {
		return nil
	}
	base := rows[0].Result
	for _, r := range rows[1:] {
		if !slices.Equal(r.Result.Queries, base.Queries) {
			return fmt.Errorf("sweep: %s evaluated other queries than the baseline", r.Chunking)
		}
	}
	for m := range measures {
		a := column(base, m)
		tps := make([]float64, 0, len(rows)-1)
		rps := make([]float64, 0, len(rows)-1)
		for i := 1; i < len(rows); i++ {
			b := column(rows[i].Result, m)
			c := Comparison{Delta: rows[i].Result.Means[m] - base.Means[m]}
			var err error
			if c.T, c.TP, err = stats.PairedTTest(b, a); err != nil {
				return fmt.Errorf("sweep %s: %w", rows[i].Chunking, err)
			}
			if c.RandP, err = stats.RandomizationTest(b, a, permutations, seed); err != nil {
				return fmt.Errorf("sweep %s: %w", rows[i].Chunking, err)
			}
			if rows[i].Compare == nil {
				rows[i].Compare = make([]Comparison, measures)
			}
			rows[i].Compare[m] = c
			tps = append(tps, c.TP)
			rps = append(rps, c.RandP)
		}
		th, rh := stats.Holm(tps), stats.Holm(rps)
		for i := 1; i < len(rows); i++ {
			rows[i].Compare[m].TPHolm = th[i-1]
			rows[i].Compare[m].RandPHolm = rh[i-1]
		}
	}
	return nil
}

// column returns the per-query values of measure m.
func column(r eval.Result, m int) []float64 {
	out := make([]float64, len(r.Values))
	for i, v := range r.Values {
		out[i] = v[m]
	}
	return out
}

// Table returns the sweep as a table of strings, one row per configuration: the chunking,
// chunks, indexed tokens, duplication (percent of the corpus), then for each measure its
// mean, the difference to the baseline and the Holm-adjusted p-values of the t-test and the
// randomization test (empty for the baseline). Numbers are rounded for reading; the Sweep
// holds them exactly.
func (s Sweep) Table() (header []string, rows [][]string) {
	header = []string{"config", "chunks", "indexed", "dup%"}
	for _, m := range s.Measures {
		name := m.String()
		header = append(header, name, "Δ "+name, "p(t,Holm)", "p(rand,Holm)")
	}
	for _, r := range s.Rows {
		row := []string{r.Chunking.String(), fmt.Sprint(r.Chunks), fmt.Sprint(r.Indexed), fmt.Sprintf("%.1f", 100*r.Duplication)}
		for m := range s.Measures {
			row = append(row, fmt.Sprintf("%.4f", r.Result.Means[m]))
			if r.Compare == nil {
				row = append(row, "", "", "")
				continue
			}
			c := r.Compare[m]
			row = append(row, fmt.Sprintf("%+.4f", c.Delta), fmt.Sprintf("%.3g", c.TPHolm), fmt.Sprintf("%.3g", c.RandPHolm))
		}
		rows = append(rows, row)
	}
	return header, rows
}
