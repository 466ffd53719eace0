package study

import (
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/ranklab/ranklab/chunking"
	"github.com/ranklab/ranklab/compare"
	"github.com/ranklab/ranklab/dense"
	"github.com/ranklab/ranklab/embed"
	"github.com/ranklab/ranklab/eval"
	"github.com/ranklab/ranklab/rag"
	"github.com/ranklab/ranklab/retrieval"
)

// sweepChunkings are the configurations of the standard sweep: whole documents, then chunk
// sizes 32, 64, 128, 256 and 512 tokens, each without overlap and with 25 % overlap
// (Overlap = Chunk / 4).
func sweepChunkings() []retrieval.Chunking { return chunkingsOf(32, 64, 128, 256, 512) }

// denseSweepChunkings are the configurations of the standard dense sweep: whole documents, then
// chunk sizes 32, 64, 128 and 192 WordPiece tokens, each without overlap and with 25 % overlap
// (256 and 512 do not fit all-MiniLM-L6-v2's 254 tokens besides [CLS] and [SEP]).
func denseSweepChunkings() []retrieval.Chunking { return chunkingsOf(32, 64, 128, 192) }

// chunkingsOf returns whole documents, then each size without overlap and with Overlap = size / 4.
func chunkingsOf(sizes ...int) []retrieval.Chunking {
	out := []retrieval.Chunking{retrieval.Whole}
	for _, size := range sizes {
		out = append(out, retrieval.Chunking{Chunk: size}, retrieval.Chunking{Chunk: size, Overlap: size / 4})
	}
	return out
}

// sweepMeasures are the document measures of a sweep: nDCG@10 (linear gain, graded qrels use
// their grades), R@100 and RR@10.
func sweepMeasures() []eval.Measure {
	return []eval.Measure{eval.NDCG(10), eval.Recall(100), eval.RRAt(10)}
}

// sweepBudgets are the context budgets of the standard sweep, in cl100k_base tokens (WordPiece
// tokens for a dense sweep): 128, 256, 512, 1024, 2048 and 4096.
func sweepBudgets() []int { return []int{128, 256, 512, 1024, 2048, 4096} }

// SweepOptions configure RunSweep. The zero value means: the standard chunkings (whole
// documents, then chunk sizes 32, 64, 128, 256 and 512 tokens, each without overlap and with
// 25 % overlap), the standard budgets (128, 256, 512, 1024, 2048 and 4096 cl100k_base tokens),
// MaxP, Anserini's BM25, depth 1000, package compare's defaults for the tests (10000 sign flips
// and bootstrap resamples, seed 42). The document measures are nDCG@10, R@100 and RR@10.
//
// With an Embedder the sweep is dense (dense.BuildTokenized instead of
// retrieval.BuildTokenized): every token count, chunk size and budget is then in the model's
// WordPiece tokens, and the standard chunkings are whole documents (cut at the model's limit),
// then 32, 64, 128 and 192 tokens, each without overlap and with 25 % overlap; a chunk size above
// the model's limit minus 2 is an error.
type SweepOptions struct {
	Chunkings    []retrieval.Chunking // nil: the standard chunkings; the first one is the baseline
	Budgets      []int                // nil: the standard budgets; empty (not nil): no budgets, document measures only
	Aggregation  rag.Aggregation
	Model        retrieval.Model // nil: Anserini's BM25 (lexical sweeps only: set Model or Embedder, not both)
	Depth        int             // documents retrieved per query; 0: 1000
	Permutations int             // randomization-test sign flips; 0: stats.DefaultPermutations
	Resamples    int             // bootstrap resamples of the intervals; 0: stats.DefaultResamples
	Seed         uint64          // seed of the randomization test and the bootstrap; 0: stats.DefaultSeed
	// Embedder, when not nil, makes the sweep dense: each configuration is
	// dense.Build(c.Docs, Embedder, chunking, Aggregation) (an embed.Cache over the
	// model embeds a unit once across configurations and runs). nil: lexical (Model).
	Embedder embed.Embedder
	// Progress, when not nil, is called with each row once it is evaluated, before the next
	// configuration is built (the comparisons, which need every row, come after the last).
	Progress func(SweepRow)
}

// Stages is the wall time spent per stage: tokenize (cl100k_base encoding of the corpus, or for
// a dense sweep WordPiece, done once and shared by every configuration), index (cutting and
// decoding the chunks, English analysis and building the index: retrieval.BuildTokenized;
// dense: cutting and embedding every unit), search (every query, documents and chunks from one
// scoring; dense: embedding the queries and the cosine with every unit), evaluate (the
// project's evaluator, the budget contexts and the paired tests of package compare).
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

// SweepRow is one configuration of a sweep.
type SweepRow struct {
	Chunking retrieval.Chunking
	// Measured from the chunks actually indexed: Chunks units, Indexed tokens (cl100k_base, or
	// WordPiece for a dense sweep: the tokens the model reads, [CLS] and [SEP] left out),
	// Duplication = (Indexed − corpus tokens) / corpus tokens (negative for dense whole documents
	// longer than the model's limit: their tail is not read).
	Chunks, Indexed int
	Duplication     float64
	// Truncated counts the documents cut at the dense model's limit (whole documents only; 0
	// for a lexical sweep).
	Truncated int
	// Footprint is the lab's footprint model summed over documents (chunking.FootprintOf); for
	// whole documents Chunk is 0 and it counts one unit per non-empty document holding all its
	// tokens, or for a dense sweep at most the model's limit minus 2 (Indexed then equals the
	// row's Indexed, Duplicated = Indexed − Corpus).
	Footprint chunking.Footprint
	// Result and Budget are tagged with the Chunking's String, the row's name in the Sweep's
	// reports.
	Result eval.Result      // per-query values of the document measures (document run, Aggregation), with means
	Budget rag.BudgetResult // per-query values of the budget measures (chunk run), with means
	Stages Stages
}

// Sweep is the result of a chunking sweep on one collection.
type Sweep struct {
	Collection string // directory of the collection
	Split      string
	Docs       int
	Tokens     int // tokens of the corpus in Tokenizer's unit (Content of every document; dense: DenseText, no limit)
	// Tokenizer names the unit of Tokens, the rows' token counts, chunk sizes, chunk spans and
	// Budgets: "cl100k_base", or for a dense sweep "<model> WordPiece" (e.g. "all-MiniLM-L6-v2
	// WordPiece", [CLS] and [SEP] not counted).
	Tokenizer   string
	Aggregation rag.Aggregation
	Model       string // the ranking function, e.g. "bm25 k1=0.9 b=0.4" or "all-MiniLM-L6-v2 (dense, exact cosine)"
	Measures    []eval.Measure
	Budgets     []int
	Rows        []SweepRow // Rows[0] is the baseline
	// Reports holds one report per measure of Measures, comparing every row with Rows[0] on it
	// (package compare; runs named by their Chunking; Holm over the non-baseline rows). Budget
	// compares them on rag.BudgetMeasures(Budgets...), all in one report: its Holm correction runs
	// over every configuration × budget × measure. Look comparisons up with Comparison and Mean.
	Reports []compare.Report
	Budget  compare.Report
	Stages  Stages // summed over rows, plus the shared tokenization
	// Tests are the options of the comparisons (compare's defaults unless SweepOptions say).
	Tests compare.Options
}

// budgetMeasures are the measures of the sweep's Budget report: rag.BudgetMeasures(Budgets...).
func (s Sweep) budgetMeasures() []rag.BudgetMeasure { return rag.BudgetMeasures(s.Budgets...) }

// Row returns the row of configuration ch, or an error naming the sweep's configurations.
func (s Sweep) Row(ch retrieval.Chunking) (SweepRow, error) {
	for _, r := range s.Rows {
		if r.Chunking == ch {
			return r, nil
		}
	}
	names := make([]string, len(s.Rows))
	for i, r := range s.Rows {
		names[i] = r.Chunking.String()
	}
	return SweepRow{}, fmt.Errorf("sweep: no configuration %s (configurations: %s)", ch, strings.Join(names, ", "))
}

// Comparison returns the comparison of configuration ch with the baseline (Rows[0]) on m: a
// document measure of Measures (its report in Reports) or a budget measure (rag.BudgetMeasure,
// the Budget report). It returns an error when ch is the baseline or not in the sweep, or m was
// not measured.
func (s Sweep) Comparison(ch retrieval.Chunking, m compare.Measure) (compare.Comparison, error) {
	r, err := s.report(ch, m)
	if err != nil {
		return compare.Comparison{}, err
	}
	return r.Comparison(ch.String(), m)
}

// Mean returns configuration ch's mean on m (found as Comparison finds it) with its bootstrap
// interval at the reports' level (95 % by default).
func (s Sweep) Mean(ch retrieval.Chunking, m compare.Measure) (compare.Estimate, error) {
	r, err := s.report(ch, m)
	if err != nil {
		return compare.Estimate{}, err
	}
	return r.Mean(ch.String(), m)
}

// report returns the report that holds m (Reports' for a document measure, Budget for a budget
// measure), after checking that ch is a configuration of the sweep.
func (s Sweep) report(ch retrieval.Chunking, m compare.Measure) (compare.Report, error) {
	if _, err := s.Row(ch); err != nil {
		return compare.Report{}, err
	}
	for _, r := range append(slices.Clone(s.Reports), s.Budget) {
		if slices.Contains(r.Measures, m) {
			return r, nil
		}
	}
	if len(s.Rows) < 2 {
		return compare.Report{}, fmt.Errorf("sweep: one configuration, nothing compared")
	}
	return compare.Report{}, fmt.Errorf("sweep: %v was not measured (measures: %v; budget measures: %v)", m, s.Measures, s.budgetMeasures())
}

// RunSweep indexes c once per configuration (retrieval.BuildTokenized, or with an Embedder
// dense.BuildTokenized), searches the collection's queries once per configuration for
// both a document run (chunk scores aggregated, depth Depth) and a chunk run (enough chunks for
// the largest budget), evaluates the document run with the project's evaluator (eval.Evaluate
// with AllQueries, so a query that retrieves nothing counts as 0) and the chunk run at every
// budget (rag.EvaluateBudgets over the searcher's chunk map: cl100k_base spans, or WordPiece
// spans for a dense sweep), then compares every configuration with the first (whole documents
// by default) query by query with package compare. c is not modified.
func RunSweep(c retrieval.Collection, opt SweepOptions) (Sweep, error) {
	isDense := opt.Embedder != nil
	if isDense && opt.Model != nil {
		return Sweep{}, fmt.Errorf("sweep: both a Model (%v) and an Embedder (%s): one ranks", opt.Model, opt.Embedder.Key())
	}
	if opt.Chunkings == nil {
		opt.Chunkings = sweepChunkings()
		if isDense {
			opt.Chunkings = denseSweepChunkings()
		}
	}
	if opt.Budgets == nil {
		opt.Budgets = sweepBudgets()
	}
	if len(opt.Chunkings) == 0 {
		return Sweep{}, fmt.Errorf("sweep: no configurations")
	}
	if opt.Model == nil && !isDense {
		opt.Model = retrieval.Anserini
	}
	if opt.Depth == 0 {
		opt.Depth = 1000
	}
	limit := 0 // tokens a whole document keeps (0: all)
	for _, ch := range opt.Chunkings {
		err := ch.Validate()
		if err == nil && isDense {
			limit, err = dense.Check(opt.Embedder, ch, opt.Aggregation)
		}
		if err != nil {
			return Sweep{}, fmt.Errorf("sweep: %v", err)
		}
	}
	maxBudget := 0
	for _, b := range opt.Budgets {
		if b < 1 {
			return Sweep{}, fmt.Errorf("sweep: budget %d: must be at least 1 token", b)
		}
		maxBudget = max(maxBudget, b)
	}
	sw := Sweep{Collection: c.Dir, Split: c.Split, Docs: len(c.Docs), Aggregation: opt.Aggregation,
		Measures: sweepMeasures(), Budgets: slices.Clone(opt.Budgets)}
	budgetMeasures := sw.budgetMeasures()

	t0 := time.Now()
	var build func(retrieval.Chunking) (sweepIndex, error)
	var lengths []int
	if isDense {
		name, _, _ := strings.Cut(opt.Embedder.Key(), "/")
		sw.Tokenizer, sw.Model = name+" WordPiece", name+" (dense, exact cosine)"
		dt := dense.Tokenize(c.Docs, opt.Embedder)
		lengths = tokenLengths(dt.Tokens)
		build = func(ch retrieval.Chunking) (sweepIndex, error) {
			s, err := dense.BuildTokenized(dt, ch, opt.Aggregation)
			if err != nil {
				return sweepIndex{}, err
			}
			return sweepIndex{s.ChunkMap(), s.Truncated, s.Run}, nil
		}
	} else {
		tok, err := retrieval.NewTokenizer()
		if err != nil {
			return Sweep{}, err
		}
		sw.Tokenizer, sw.Model = "cl100k_base", opt.Model.String() // retrieval's Tokenizer
		tz := retrieval.Tokenize(tok, c.Docs)
		lengths = tokenLengths(tz.Tokens)
		build = func(ch retrieval.Chunking) (sweepIndex, error) {
			s, err := retrieval.BuildTokenized(tz, ch, opt.Model, opt.Aggregation)
			if err != nil {
				return sweepIndex{}, err
			}
			run := func(q []retrieval.Query, o retrieval.RunOptions) (retrieval.Runs, error) { return s.Run(q, o), nil }
			return sweepIndex{s.ChunkMap(), 0, run}, nil
		}
	}
	sw.Stages.Tokenize = time.Since(t0)
	for _, n := range lengths {
		sw.Tokens += n
	}

	for _, ch := range opt.Chunkings {
		row := SweepRow{Chunking: ch}
		t0 = time.Now()
		s, err := build(ch)
		if err != nil {
			return Sweep{}, fmt.Errorf("sweep %s: %w", ch, err)
		}
		row.Stages.Index = time.Since(t0)
		row.Chunks, row.Truncated = len(s.chunkMap), s.truncated
		for _, sp := range s.chunkMap {
			row.Indexed += sp.End - sp.Start
		}
		if sw.Tokens > 0 {
			row.Duplication = float64(row.Indexed-sw.Tokens) / float64(sw.Tokens)
		}
		row.Footprint, err = footprintOf(lengths, ch, limit)
		if err != nil {
			return Sweep{}, err
		}

		t0 = time.Now()
		// ChunkDepth counts chunks: every chunk holds a token, so maxBudget + 1 chunks pass any
		// budget; without budgets there is no chunk run.
		chunkDepth := maxBudget + 1
		if maxBudget == 0 {
			chunkDepth = -1
		}
		runs, err := s.run(c.Queries, retrieval.RunOptions{Depth: opt.Depth, ChunkDepth: chunkDepth, ChunkTokens: maxBudget, Tag: "sweep"})
		if err != nil {
			return Sweep{}, fmt.Errorf("sweep %s: %w", ch, err)
		}
		row.Stages.Search = time.Since(t0)

		t0 = time.Now()
		row.Result, err = eval.Options{AllQueries: true}.Evaluate(c.Qrels, runs.Docs, sw.Measures...)
		if err != nil {
			return Sweep{}, fmt.Errorf("sweep %s: %w", ch, err)
		}
		row.Result.Tag = ch.String()
		if len(budgetMeasures) > 0 {
			row.Budget, err = rag.EvaluateBudgets(c.Qrels, runs.Chunks, s.chunkMap, eval.Options{}, budgetMeasures...)
			if err != nil {
				return Sweep{}, fmt.Errorf("sweep %s: %w", ch, err)
			}
			row.Budget.Tag = ch.String()
		}
		row.Stages.Evaluate = time.Since(t0)
		sw.Rows = append(sw.Rows, row)
		if opt.Progress != nil {
			opt.Progress(row)
		}
	}

	t0 = time.Now()
	sw.Tests = compare.Options{Permutations: opt.Permutations, Resamples: opt.Resamples, Seed: opt.Seed}
	if err := sw.compare(sw.Tests); err != nil {
		return Sweep{}, err
	}
	sw.Stages.Evaluate += time.Since(t0)
	for _, r := range sw.Rows {
		sw.Stages.add(r.Stages)
	}
	return sw, nil
}

// sweepIndex is what a sweep reads of one configuration's searcher (a retrieval.Searcher or
// dense.Searcher): its chunk map (every unit and the tokens it holds), the documents cut at a
// dense model's limit, and its search.
type sweepIndex struct {
	chunkMap  rag.ChunkMap
	truncated int
	run       func([]retrieval.Query, retrieval.RunOptions) (retrieval.Runs, error)
}

// tokenLengths returns each document's number of tokens.
func tokenLengths[T int | int32](docs [][]T) []int {
	out := make([]int, len(docs))
	for i, t := range docs {
		out[i] = len(t)
	}
	return out
}

// footprintOf is the footprint model of a configuration: chunking.FootprintOf for chunks; for
// whole documents, one unit per non-empty document holding all its tokens, or with limit > 0
// at most limit of them (Indexed = Σ min(n, limit), Duplicated = Indexed − Corpus).
func footprintOf(lengths []int, ch retrieval.Chunking, limit int) (chunking.Footprint, error) {
	if ch.Chunk > 0 {
		return chunking.FootprintOf(lengths, ch.Chunk, ch.Overlap)
	}
	var f chunking.Footprint
	for _, n := range lengths {
		f.Corpus += n
		if n > 0 {
			f.Chunks++
		}
		if limit > 0 {
			n = min(n, limit)
		}
		f.Indexed += n
	}
	f.Duplicated = f.Indexed - f.Corpus
	if f.Corpus > 0 {
		f.Duplication = float64(f.Duplicated) / float64(f.Corpus)
	}
	return f, nil
}

// compare fills Reports and Budget with package compare: every row against Rows[0], paired over
// the evaluated queries (every qrels query).
func (s *Sweep) compare(opt compare.Options) error {
	if len(s.Rows) < 2 {
		return nil
	}
	universe := s.Rows[0].Result.Queries
	for _, r := range s.Rows[1:] {
		if !slices.Equal(r.Result.Queries, universe) || len(s.Budgets) > 0 && !slices.Equal(r.Budget.Queries, universe) {
			return fmt.Errorf("sweep: %s evaluated other queries than the baseline", r.Chunking)
		}
	}
	s.Reports = make([]compare.Report, len(s.Measures))
	for j, m := range s.Measures {
		scores := make([]compare.Scores, len(s.Rows))
		for i, r := range s.Rows {
			col := r.Result.Column(m)
			vals := make([][]float64, len(col))
			for k, v := range col {
				vals[k] = []float64{v}
			}
			scores[i] = compare.Scores{Name: r.Chunking.String(), Measures: []compare.Measure{m}, Queries: r.Result.Queries, Values: vals}
		}
		rep, err := opt.FromScores(scores...)
		if err != nil {
			return fmt.Errorf("sweep: %w", err)
		}
		s.Reports[j] = rep
	}
	if len(s.Budgets) == 0 {
		return nil
	}
	scores := make([]compare.Scores, len(s.Rows))
	for i, r := range s.Rows {
		scores[i] = budgetScores(r.Budget)
	}
	var err error
	if s.Budget, err = opt.FromScores(scores...); err != nil {
		return fmt.Errorf("sweep: %w", err)
	}
	return nil
}

// budgetScores is a row's budget results as package compare reads them, named by their Tag.
func budgetScores(r rag.BudgetResult) compare.Scores {
	ms := make([]compare.Measure, len(r.Measures))
	for j, m := range r.Measures {
		ms[j] = m
	}
	return compare.Scores{Name: r.Tag, Measures: ms, Queries: r.Queries, Values: r.Values, Missing: r.Missing, Ignored: r.Ignored}
}

// BudgetGrid returns one budget measure of the sweep as a grid of strings: a row per
// configuration, a column per budget, each cell the mean, then for the other configurations the
// difference to the baseline with its bootstrap interval and a "*" when the Holm-adjusted t-test
// p (Holm over the whole budget report) is at most 0.05:
//
//	0.567  +0.564 [+0.513, +0.613] *
//
// name is "R", "nDCG" or "Success". Numbers are rounded to 3 decimals for reading.
func (s Sweep) BudgetGrid(name string) (header []string, rows [][]string) {
	header = []string{"config"}
	for _, b := range s.Budgets {
		header = append(header, fmt.Sprintf("%s@%dtok", name, b))
	}
	for i, r := range s.Rows {
		row := []string{r.Chunking.String()}
		for _, b := range s.Budgets {
			m := rag.BudgetMeasure{Name: name, Tokens: b}
			cell := fmt.Sprintf("%.3f", r.Budget.Mean(m))
			if i > 0 {
				c, err := s.Budget.Comparison(r.Chunking.String(), m)
				if err != nil {
					panic(err) // every row and budget measure is in the report
				}
				cell += fmt.Sprintf("  %+.3f [%+.3f, %+.3f]", c.Diff, c.CILow, c.CIHigh)
				if c.SignificantT(0.05) {
					cell += " *"
				}
			}
			row = append(row, cell)
		}
		rows = append(rows, row)
	}
	return header, rows
}
