package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"maps"
	"math"
	"os"
	"os/signal"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"text/tabwriter"
	"time"

	"github.com/ranklab/ranklab/dense"
	"github.com/ranklab/ranklab/internal/corpuscheck"

	"github.com/ranklab/ranklab/check"
	"github.com/ranklab/ranklab/embed"
	"github.com/ranklab/ranklab/eval"
	"github.com/ranklab/ranklab/study"

	"github.com/ranklab/ranklab/compare"
	"github.com/ranklab/ranklab/internal/numflag"
	"github.com/ranklab/ranklab/internal/scan"
	"github.com/ranklab/ranklab/internal/words"

	"github.com/ranklab/ranklab/internal/csvcell"

	"github.com/ranklab/ranklab/rag"
	"github.com/ranklab/ranklab/retrieval"
	"github.com/ranklab/ranklab/stats"
)

func init() {
	commands["beir"] = command{summary: "BM25, QLD or dense retrieval on a BEIR collection: write a TREC run, or sweep chunk sizes", run: runBEIR}
}

const beirUsage = `usage:
  ranklab beir run   [--data DIR] [--split test] [--queries FILE] [--chunk N --overlap N --agg maxp|firstp|sump] [--model bm25|qld|minilm] [--mu 1000]
                     [--k 1000] [--tag T] --out RUN [--chunks CHUNK_RUN --map MAP [--chunk-k 1000]] [--stamp]
                     [--engine URL [--model bm25|minilm|hybrid] [--index NAME [--replace]] [--shards 1] [--exact-stats]
                      [--width W] [--weight 0.5] [--timeout 60]]
  ranklab beir sweep [--data DIR] [--split test] [--queries FILE] [--agg maxp|firstp|sump] [--model bm25|qld|minilm] [--mu 1000] [--k 1000]
                     [--chunkings whole,64,64/16,...] [--budgets 128,256,...] [--permutations N] [--resamples N] [-f text|json|csv]

DIR is a BEIR collection (corpus.jsonl[.gz], queries.jsonl, qrels/<split>.tsv in TREC qrels or
BEIR TSV; ` + "`ranklab corpus import`" + ` makes one from a folder of files). A run searches every query
of queries.jsonl (or of --queries FILE) but those another split judges; stderr names the queries
with no qrels, and a collection without a qrels folder runs them all unjudged. Without
--data, BEIR's SciFact is used, downloaded on first use into ` + "`ranklab/beir`" + ` under the
user cache directory (SHA-256 of corpus.jsonl checked). BM25 is Lucene's (k1=0.9, b=0.4), qld
Lucene's query likelihood with Dirichlet smoothing (mu 1000, Anserini's default); title and
text as one field, bleve's English analyzer; chunks are cl100k_base token windows.
minilm is dense retrieval with all-MiniLM-L6-v2 (exact cosine search; installed by ` + "`make lab`" + `):
a document is title + " " + text cut at the model's 256 tokens; chunks are windows of the
model's own WordPiece tokens (at most 254), and its chunk map counts those tokens. Vectors are
cached under the user cache directory, so a second run embeds nothing.
run --chunks also writes the chunk run (IDs DOC#i) and --map its chunk map (chunk-id doc-id
start end, token offsets in title+"\n"+text), the input of ` + "`ranklab rag`" + `.
The sweep compares whole documents with chunks of 32..512 tokens, overlap 0 and 25 %, on
document measures and at token budgets (R, nDCG and Success of what a context of B tokens
holds), with paired tests against whole documents. With --model minilm every size and budget
is in the model's WordPiece tokens and the chunks are 32, 64, 128 and 192 tokens (no more than
254 fit); stderr says how long each configuration took and how many units it embedded.
--engine runs the same retrieval on a search engine (Solr in SolrCloud mode or OpenSearch, the
kind found from its answer; ` + "`ranklab engine start`" + ` starts a local one): the collection is indexed
there (index ranklab-<collection>-..., replaced on each run; --index NAME names it, and replaces an
existing one only with --replace) in --shards shards, with per-shard term statistics or, with
--exact-stats, distributed ones (Solr ExactStatsCache, OpenSearch dfs_query_then_fetch). bm25 is
Lucene's with Anserini's analyzer (EnglishAnalyzer, k1 0.9, b 0.4: SciFact 0.6789 / 0.9253);
minilm indexes ranklab's own vectors in the engine's HNSW and searches --width candidates per
query (default max(k, 100)); hybrid is the engine's (1-w)*BM25 + w*(1+cos)/2 in one request (w =
--weight). Runs, chunk runs and maps are written as in-process; stderr and --stamp record the
engine, its version, the index, its shards and its statistics mode (credentials never: they come
from RANKLAB_ENGINE_USER/RANKLAB_ENGINE_PASSWORD or RANKLAB_ENGINE_API_KEY; ` + "`ranklab engine -h`" + `).
--stamp appends the provenance stamp as "# " lines after the run (ranklab's readers skip them).
--chunkings replaces the configurations: whole (or 0), N (chunks of N tokens) or N/M (overlap
M), the first one the baseline.`

func runBEIR(args []string, stdout, stderr io.Writer) int {
	return runAction("ranklab beir", "action", beirUsage, []action{{"run", beirRun}, {"sweep", beirSweep}}, args, stdout, stderr)
}

// beirFlags are the flags both actions share.
type beirFlags struct {
	data, split, agg, model, queries *string
	k                                *int
	mu                               *float64
}

func newBEIRFlags(name string, stderr io.Writer) (*flag.FlagSet, beirFlags) {
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() { fmt.Fprintln(stderr, beirUsage); fs.PrintDefaults() }
	return fs, beirFlags{
		data:    fs.String("data", "", "BEIR collection `DIR` (default: SciFact, downloaded when missing)"),
		split:   fs.String("split", "test", "qrels split: the file qrels/`SPLIT`.tsv (TREC qrels or BEIR TSV; none: every query runs unjudged)"),
		queries: fs.String("queries", "", "search every query of this BEIR queries.jsonl `FILE` instead of DIR's"),
		agg:     fs.String("agg", "maxp", "document score from its chunks: maxp, firstp or sump"),
		k:       numflag.NewInt(fs, "k", 1000, "documents retrieved per query"),
		model:   fs.String("model", "bm25", "ranking function: bm25 (k1=0.9, b=0.4), qld (query likelihood, Dirichlet) or minilm (dense, all-MiniLM-L6-v2)"),
		mu:      numflag.NewFloat64(fs, "mu", retrieval.AnseriniQL.Mu, "Dirichlet prior of qld"),
	}
}

// rankingModel returns the model the flags choose.
func (f beirFlags) rankingModel() (retrieval.Model, error) {
	switch *f.model {
	case "bm25":
		return retrieval.Anserini, nil
	case "qld":
		if !(*f.mu > 0) {
			return nil, fmt.Errorf("--mu %v: must be positive", *f.mu)
		}
		return retrieval.QLDirichlet{Mu: *f.mu}, nil
	}
	return nil, fmt.Errorf("--model %q: want bm25 or qld", *f.model)
}

// collection reads the flags' collection, downloading SciFact when no --data is given, and says
// on stderr which queries have no qrels (who names the command).
func (f beirFlags) collection(who string, stderr io.Writer) (retrieval.Collection, error) {
	c, err := f.readCollection(stderr)
	if err != nil {
		return c, err
	}
	sayUnjudged(c, who, stderr)
	return c, nil
}

// sayUnjudged tells on stderr which of c's queries have no qrels, and which queries.jsonl
// holds for another split: a run searches the former too, evaluation scores neither.
func sayUnjudged(c retrieval.Collection, who string, stderr io.Writer) {
	if len(c.OtherSplit) > 0 {
		fmt.Fprintf(stderr, "%s: %d %s of queries.jsonl left out: another split's qrels judge them, %s does not\n",
			who, len(c.OtherSplit), words.Plural(len(c.OtherSplit), "query", "queries"), c.QrelsFile)
	}
	switch n := len(c.Unjudged); {
	case n == 0:
	case c.QrelsFile == "":
		fmt.Fprintf(stderr, "%s: no qrels (no %s): all %d %s run unjudged; judge a pool of the runs (ranklab pool, then the judging panel) to evaluate them\n",
			who, filepath.Join(c.Dir, "qrels", c.Split+".tsv"), n, words.Plural(n, "query", "queries"))
	case n == len(c.Queries):
		fmt.Fprintf(stderr, "%s: %s holds no judgment: all %d %s run unjudged\n", who, c.QrelsFile, n, words.Plural(n, "query", "queries"))
	default:
		fmt.Fprintf(stderr, "%s: %d of %d queries have no qrels in %s (kept in the run; evaluation scores only judged queries): %s\n",
			who, n, len(c.Queries), c.QrelsFile, words.IDs(c.Unjudged))
	}
}

// readCollection reads the collection the flags name, with --queries' queries when given.
func (f beirFlags) readCollection(stderr io.Writer) (retrieval.Collection, error) {
	dir := *f.data
	if dir == "" {
		// Ctrl-C or SIGTERM cancels the download, which then removes its partial files.
		ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
		defer stop()
		var err error
		dir, err = retrieval.SciFact.Ensure(ctx, nil, "", stderr)
		if err != nil {
			return retrieval.Collection{}, err
		}
	}
	if err := corpusPreflight(dir, stderr); err != nil {
		return retrieval.Collection{}, err
	}
	if *f.queries == "" {
		return retrieval.ReadCollection(dir, *f.split)
	}
	return collectionWithQueries(dir, *f.split, *f.queries, stderr)
}

// collectionWithQueries reads the collection in dir with every query of the queries file and
// the split's qrels when qrels/<split>.tsv exists (either format; a judged document must be in
// the corpus). A judged query the file lacks is named on stderr: eval -c scores it 0.
func collectionWithQueries(dir, split, queriesFile string, stderr io.Writer) (retrieval.Collection, error) {
	docs, err := retrieval.ReadCorpusFile(dir)
	if err != nil {
		return retrieval.Collection{}, err
	}
	rc, closeQueries, err := scan.Open(queriesFile)
	if err != nil {
		return retrieval.Collection{}, err
	}
	defer closeQueries()
	qs, err := retrieval.ReadQueries(rc, queriesFile)
	if err != nil {
		return retrieval.Collection{}, err
	}
	slices.SortFunc(qs, func(a, b retrieval.Query) int { return strings.Compare(a.ID, b.ID) })
	c := retrieval.Collection{Dir: dir, Split: split, Docs: docs, Queries: qs}
	path := filepath.Join(dir, "qrels", split+".tsv")
	if _, err := os.Stat(path); err == nil {
		c.QrelsFile = path
		if c.Qrels, err = eval.ReadQrelsFile(path); errors.Is(err, eval.ErrEmpty) {
			c.Qrels = eval.Qrels{}
		} else if err != nil {
			return retrieval.Collection{}, err
		}
	}
	inCorpus := make(map[string]bool, len(docs))
	for _, d := range docs {
		inCorpus[d.ID] = true
	}
	asked := make(map[string]bool, len(qs))
	for _, q := range qs {
		asked[q.ID] = true
		if _, ok := c.Qrels[q.ID]; !ok {
			c.Unjudged = append(c.Unjudged, q.ID)
		}
	}
	var notAsked []string
	for _, qid := range slices.Sorted(maps.Keys(c.Qrels)) {
		for _, did := range slices.Sorted(maps.Keys(c.Qrels[qid])) {
			if !inCorpus[did] {
				return retrieval.Collection{}, fmt.Errorf("%s: query %q judges document %q, which is not in the corpus", path, qid, did)
			}
		}
		if !asked[qid] {
			notAsked = append(notAsked, qid)
		}
	}
	if len(notAsked) > 0 {
		fmt.Fprintf(stderr, "ranklab beir: %d %s judged in %s not in %s (not searched): %s\n", len(notAsked),
			words.Plural(len(notAsked), "query", "queries"), path, queriesFile, words.IDs(notAsked))
	}
	return c, nil
}

// corpusPreflight is check --corpus's line check (internal/corpuscheck, no twin search), made before
// anything is retrieved or embedded: every line with an error is printed on stderr with its
// file and line, and the command stops; documents with no text are printed as warnings.
func corpusPreflight(dir string, stderr io.Writer) error {
	if st, err := os.Stat(dir); err != nil || !st.IsDir() {
		return nil // ReadCollection says what is missing
	}
	r, _, err := corpuscheck.File(dir, nil, check.TwinOptions{}, true)
	if err != nil {
		return err
	}
	if len(r.Findings) == 0 {
		return nil
	}
	writeCorpusFindings(stderr, r)
	if n := corpusErrors(r); n > 0 {
		return fmt.Errorf("%s: %d %s above: fix the corpus before retrieving (ranklab check --corpus %s lists them again)", r.File, n, words.Plural(n, "error", "errors"), dir)
	}
	return nil
}

// beirRun writes the run of the collection's queries (judged or not), and with --chunks
// the chunk run and with --map its chunk map.
func beirRun(args []string, stdout, stderr io.Writer) int {
	fs, f := newBEIRFlags("ranklab beir run", stderr)
	chunk := numflag.NewInt(fs, "chunk", 0, "chunk size in cl100k_base tokens, WordPiece tokens for minilm (0 = whole documents)")
	overlap := numflag.NewInt(fs, "overlap", 0, "overlap between chunks in tokens")
	tag := fs.String("tag", "", "run tag (default bm25 or qld, or bm25-chunkN-overlapM-AGG)")
	out := fs.String("out", "", "output TREC run `FILE` (required; - for stdout)")
	chunksOut := fs.String("chunks", "", "also write the chunk run to `FILE` (IDs DOC#i)")
	mapOut := fs.String("map", "", "also write the chunk map to `FILE` (chunk-id doc-id start end)")
	chunkK := numflag.NewInt(fs, "chunk-k", 1000, "chunks per query in the chunk run")
	stamp := fs.Bool("stamp", false, "append the provenance stamp (\"# \" lines) to the run")
	ef := newEngineFlags(fs)
	if code, ok := parseArgs(fs, args); !ok {
		return code
	}
	fail := failer(stderr, "ranklab beir run")
	if *ef.url != "" {
		return beirEngineRun(args, f, ef, engineRunFlags{chunk: *chunk, overlap: *overlap, tag: *tag, out: *out, chunksOut: *chunksOut, mapOut: *mapOut, chunkK: *chunkK, stamp: *stamp}, stdout, stderr)
	}
	if *f.model == "hybrid" {
		return fail(2, "--model hybrid is the engine's: give --engine URL (in-process, fuse a bm25 and a minilm run with ranklab fuse)")
	}
	if *out == "" {
		return fail(2, "--out is required")
	}
	if *f.k < 1 {
		return fail(2, "--k %d: the number of documents retrieved per query must be at least 1", *f.k)
	}
	if *out == "-" && (*chunksOut == "-" || *mapOut == "-") {
		return fail(2, "only one output can go to stdout")
	}
	if *stamp && *out == "-" {
		return fail(2, "--stamp needs --out FILE")
	}
	agg, err := parseName("aggregation", *f.agg, rag.MaxP, rag.FirstP, rag.SumP)
	if err != nil {
		return fail(2, "--agg: %v", err)
	}
	dense := *f.model == "minilm"
	var model retrieval.Model
	if !dense {
		if model, err = f.rankingModel(); err != nil {
			return fail(2, "%v", err)
		}
	}
	ch := retrieval.Chunking{Chunk: *chunk, Overlap: *overlap}
	if err := ch.Validate(); err != nil {
		return fail(2, "%v", err)
	}
	if *f.k < 1 || *chunkK < 1 {
		return fail(2, "--k and --chunk-k must be positive")
	}
	if *tag == "" {
		*tag = *f.model
		if ch.Chunk > 0 {
			*tag = fmt.Sprintf("%s-chunk%d-overlap%d-%s", *f.model, ch.Chunk, ch.Overlap, agg)
		}
	}
	c, err := f.collection("ranklab beir run", stderr)
	if err != nil {
		return fail(1, "%v", err)
	}
	opt := retrieval.RunOptions{Depth: *f.k, ChunkDepth: *chunkK, Tag: *tag}
	var runs retrieval.Runs
	var chunkMap func() rag.ChunkMap
	if dense {
		ds, r, err := denseRuns(c, ch, agg, opt, stderr)
		if err != nil {
			return fail(1, "%v", err)
		}
		runs, chunkMap = r, ds.ChunkMap
	} else {
		s, err := retrieval.Build(c, ch, model, agg)
		if err != nil {
			return fail(1, "%v", err)
		}
		runs, chunkMap = s.Run(c.Queries, opt), s.ChunkMap
	}
	var conv []string
	if *stamp {
		conv = inProcessConventions(*f.model, ch, agg)
	}
	if code := writeEngineRun(*out, runs.Docs, *stamp, "ranklab beir run", args, conv, beirInputs(c), stdout, fail); code != 0 {
		return code
	}
	if *chunksOut != "" {
		if err := writeRunTo(*chunksOut, runs.Chunks, stdout); err != nil {
			return fail(1, "%v", err)
		}
	}
	if *mapOut != "" {
		unit := "cl100k_base" // the units sweeps name (retrieval.Sweep.Tokenizer)
		if dense {
			unit = embed.MiniLM + " WordPiece"
		}
		write := func(w io.Writer) error {
			if _, err := fmt.Fprintf(w, "%s %s\n", mapUnitPrefix, unit); err != nil { // rag reads the unit back
				return err
			}
			return rag.WriteChunkMap(w, chunkMap())
		}
		if err := writeTo(*mapOut, stdout, write); err != nil {
			return fail(1, "%v", err)
		}
	}
	return 0
}

// openMiniLM opens all-MiniLM-L6-v2 behind the on-disk vector cache (embed.Cache's default
// directory), so a text is embedded once across runs; close releases the model.
func openMiniLM() (cache *embed.Cache, close func(), err error) {
	m, err := embed.Open(embed.Options{})
	if err != nil {
		return nil, nil, err
	}
	return &embed.Cache{Inner: m}, m.Close, nil
}

// denseRuns embeds the collection with all-MiniLM-L6-v2 through the on-disk cache and searches
// its queries, saying on stderr how many units were embedded and how long it took.
func denseRuns(c retrieval.Collection, ch retrieval.Chunking, agg rag.Aggregation, opt retrieval.RunOptions, stderr io.Writer) (*dense.Searcher, retrieval.Runs, error) {
	t0 := time.Now()
	cache, closeModel, err := openMiniLM()
	if err != nil {
		return nil, retrieval.Runs{}, err
	}
	defer closeModel()
	s, err := dense.Build(c.Docs, cache, ch, agg)
	if err != nil {
		return nil, retrieval.Runs{}, err
	}
	runs, err := s.Run(c.Queries, opt)
	if err != nil {
		return nil, retrieval.Runs{}, err
	}
	fmt.Fprintf(stderr, "ranklab beir run: %s, %d units (%d documents, %d truncated at the model's limit); embedded %d texts, %d from the cache; %.1f s\n",
		embed.MiniLM, len(s.ChunkMap()), len(c.Docs), s.Truncated, cache.Misses.Load(), cache.Hits.Load(), time.Since(t0).Seconds())
	if len(s.Empty) > 0 {
		fmt.Fprintf(stderr, "ranklab beir run: %d documents have no tokens and are in no run: %s\n", len(s.Empty), idList(s.Empty, 10))
	}
	return s, runs, nil
}

// idList joins up to n IDs (quoted when they hold a space or a comma) and says how many more.
func idList(ids []string, n int) string {
	var b strings.Builder
	for i, id := range ids[:min(n, len(ids))] {
		if i > 0 {
			b.WriteString(", ")
		}
		if strings.ContainsAny(id, " ,") || id == "" {
			fmt.Fprintf(&b, "%q", id)
		} else {
			b.WriteString(id)
		}
	}
	if len(ids) > n {
		fmt.Fprintf(&b, " and %d more", len(ids)-n)
	}
	return b.String()
}

// beirSweep prints the chunking sweep.
func beirSweep(args []string, stdout, stderr io.Writer) int {
	fs, f := newBEIRFlags("ranklab beir sweep", stderr)
	format := fs.String("f", "text", "output format: text, json or csv")
	perms := numflag.NewInt(fs, "permutations", stats.DefaultPermutations, "sign flips of the randomization test")
	resamples := numflag.NewInt(fs, "resamples", stats.DefaultResamples, "bootstrap resamples of the intervals")
	seed := numflag.NewUint64(fs, "seed", stats.DefaultSeed, "seed of the randomization test and the bootstrap")
	budgetList := fs.String("budgets", "", "comma-separated token budgets (default 128,256,512,1024,2048,4096; none: document measures only)")
	chunkList := fs.String("chunkings", "", "comma-separated configurations, the first the baseline: whole (or 0), N or N/OVERLAP (default: the standard sweep)")
	if code, ok := parseArgs(fs, args); !ok {
		return code
	}
	fail := failer(stderr, "ranklab beir sweep")
	if *format != "text" && *format != "json" && *format != "csv" {
		return fail(2, "-f %q: want text, json or csv", *format)
	}
	agg, err := parseName("aggregation", *f.agg, rag.MaxP, rag.FirstP, rag.SumP)
	if err != nil {
		return fail(2, "--agg: %v", err)
	}
	if *perms < 1 || *resamples < 1 || *f.k < 1 {
		return fail(2, "--permutations, --resamples and --k must be positive")
	}
	dense := *f.model == "minilm"
	var model retrieval.Model
	if !dense {
		if model, err = f.rankingModel(); err != nil {
			return fail(2, "%v", err)
		}
	}
	chunkings, err := parseChunkings(*chunkList)
	if err != nil {
		return fail(2, "--chunkings: %v", err)
	}
	var budgets []int
	if *budgetList == "none" {
		budgets = []int{}
	} else if *budgetList != "" {
		for _, b := range strings.Split(*budgetList, ",") {
			n, err := numflag.Int(strings.TrimSpace(b))
			if err != nil || n < 1 {
				return fail(2, "--budgets: %q is not a token count >= 1", b)
			}
			budgets = append(budgets, n)
		}
	}
	c, err := f.collection("ranklab beir sweep", stderr)
	if err != nil {
		return fail(1, "%v", err)
	}
	if len(c.Qrels) == 0 {
		return fail(1, "%s: the sweep compares measures, and no query of %s is judged: judge a pool of runs first (ranklab pool, then the judging panel), or use beir run", c.Dir, c.Split)
	}
	opt := study.SweepOptions{Chunkings: chunkings, Aggregation: agg, Model: model, Depth: *f.k, Budgets: budgets,
		Permutations: *perms, Resamples: *resamples, Seed: *seed}
	if dense {
		cache, closeModel, err := openMiniLM()
		if err != nil {
			return fail(1, "%v", err)
		}
		defer closeModel()
		opt.Embedder = cache
		opt.Progress = denseProgress(cache, stderr)
		n := "the standard configurations"
		if chunkings != nil {
			n = fmt.Sprintf("%d configurations", len(chunkings))
		}
		fmt.Fprintf(stderr, "ranklab beir sweep: %s (dense, exact cosine) on %s, %d documents, %d queries: %s, each embedded through the vector cache\n",
			embed.MiniLM, c.Dir, len(c.Docs), len(c.Queries), n)
	}
	sw, err := study.RunSweep(c, opt)
	if err != nil {
		return fail(1, "%v", err)
	}
	switch *format {
	case "json":
		err = writeSweepJSON(stdout, sw, len(c.Queries))
	case "csv":
		header, rows := sweepTable(sw)
		w := csvcell.NewWriter(stdout)
		w.Write(header)
		w.WriteAll(rows)
		w.Write(nil)
		header, rows = sweepBudgetTable(sw)
		w.Write(header)
		w.WriteAll(rows)
		err = w.Error()
	default:
		err = writeSweepText(stdout, sw, len(c.Queries))
	}
	if err != nil {
		return fail(1, "%v", err)
	}
	return 0
}

// denseProgress returns a SweepOptions.Progress that prints each configuration of a dense sweep
// on stderr: its units, the documents cut at the model's limit, the texts embedded and found in
// the cache while building and searching it (its units and the queries), and its time per stage.
func denseProgress(cache *embed.Cache, stderr io.Writer) func(study.SweepRow) {
	var misses, hits int64
	return func(r study.SweepRow) {
		m, h := cache.Misses.Load(), cache.Hits.Load()
		fmt.Fprintf(stderr, "ranklab beir sweep: %s: %d units (%d truncated at the model's limit); embedded %d texts, %d from the cache; index %.1f s, search %.1f s, evaluate %.1f s\n",
			r.Chunking, r.Chunks, r.Truncated, m-misses, h-hits, r.Stages.Index.Seconds(), r.Stages.Search.Seconds(), r.Stages.Evaluate.Seconds())
		misses, hits = m, h
	}
}

// parseChunkings reads --chunkings: nil for "", else one Chunking per comma-separated item
// (whole or 0, N, or N/OVERLAP).
func parseChunkings(list string) ([]retrieval.Chunking, error) {
	if list == "" {
		return nil, nil
	}
	var out []retrieval.Chunking
	for _, item := range strings.Split(list, ",") {
		item = strings.TrimSpace(item)
		if item == "whole" {
			out = append(out, retrieval.Whole)
			continue
		}
		size, over, hasOverlap := strings.Cut(item, "/")
		var ch retrieval.Chunking
		var err error
		if ch.Chunk, err = numflag.Int(size); err == nil && hasOverlap {
			ch.Overlap, err = numflag.Int(over)
		}
		if err != nil {
			return nil, fmt.Errorf("%q: want whole, N or N/OVERLAP", item)
		}
		if err := ch.Validate(); err != nil {
			return nil, fmt.Errorf("%q: %v", item, err)
		}
		for _, prev := range out {
			if prev == ch {
				return nil, fmt.Errorf("%q: the configuration %s is listed twice", item, ch)
			}
		}
		out = append(out, ch)
	}
	return out, nil
}

func writeSweepText(w io.Writer, sw study.Sweep, queries int) error {
	fmt.Fprintf(w, "%s (qrels %s): %d documents, %d queries, %d %s tokens; %s, %s\n",
		sw.Collection, sw.Split, sw.Docs, queries, sw.Tokens, sw.Tokenizer, sw.Model, sw.Aggregation)
	if len(sw.Rows) > 1 {
		fmt.Fprintf(w, "Δ and p: against %s, paired over queries; p Holm-adjusted over the configurations\n", baseline(sw))
	}
	header, rows := sweepTable(sw)
	if err := writeTable(w, header, rows); err != nil {
		return err
	}
	if len(sw.Budgets) == 0 {
		return writeStages(w, sw.Stages)
	}
	fmt.Fprintf(w, "\nAt a token budget B (%s tokens): the documents of the longest prefix of the ranked chunks that fits B tokens.\n", sw.Tokenizer)
	if len(sw.Rows) > 1 {
		fmt.Fprintf(w, "Δ: against %s at the same budget, with its bootstrap interval; p: t-test, Holm over the whole table\n", baseline(sw))
	}
	header, rows = sweepBudgetTable(sw)
	if err := writeTable(w, header, rows); err != nil {
		return err
	}
	return writeStages(w, sw.Stages)
}

// baseline names the sweep's first configuration, the one every other is compared with.
func baseline(sw study.Sweep) string {
	if len(sw.Rows) == 0 || sw.Rows[0].Chunking == retrieval.Whole {
		return "whole documents"
	}
	return sw.Rows[0].Chunking.String()
}

// writeStages prints the time spent per stage of a sweep.
func writeStages(w io.Writer, st study.Stages) error {
	_, err := fmt.Fprintf(w, "time: tokenize %.2fs, index %.2fs, search %.2fs, evaluate %.2fs; total %.2fs\n",
		st.Tokenize.Seconds(), st.Index.Seconds(), st.Search.Seconds(), st.Evaluate.Seconds(), st.Total().Seconds())
	return err
}

// sweepTable returns the sweep as a table of strings, one row per configuration: the chunking,
// chunks, indexed tokens, duplication (percent of the corpus), then for each measure its
// mean, the difference to the baseline and the Holm-adjusted p-values of the t-test and the
// randomization test (empty for the baseline). Numbers are rounded for reading; the Sweep
// holds them exactly.
func sweepTable(s study.Sweep) (header []string, rows [][]string) {
	header = []string{"config", "chunks", "indexed", "dup%"}
	compared := len(s.Rows) > 1 // one configuration: nothing to compare, no Δ or p columns
	for _, m := range s.Measures {
		name := m.String()
		header = append(header, name)
		if compared {
			header = append(header, "Δ "+name, "p(t,Holm)", "p(rand,Holm)")
		}
	}
	for _, r := range s.Rows {
		row := []string{r.Chunking.String(), fmt.Sprint(r.Chunks), fmt.Sprint(r.Indexed), fmt.Sprintf("%.1f", 100*r.Duplication)}
		for _, m := range s.Measures {
			row = append(row, fmt.Sprintf("%.4f", r.Result.Mean(m)))
			if !compared {
				continue
			}
			c, err := s.Comparison(r.Chunking, m)
			if err != nil { // the baseline
				row = append(row, "", "", "")
				continue
			}
			row = append(row, fmt.Sprintf("%+.4f", c.Diff), fmt.Sprintf("%.3g", c.PTHolm), fmt.Sprintf("%.3g", c.PPermHolm))
		}
		rows = append(rows, row)
	}
	return header, rows
}

// sweepBudgetTable returns the budget part of the sweep as a table of strings, one row per budget
// and configuration (budget-major): the budget, the configuration, then for nDCG, R and Success
// at that budget the mean, the difference to the baseline with its bootstrap interval
// ("+0.0123 [+0.0050, +0.0190]", at the report's level, 95 % by default) and the Holm-adjusted
// t-test p (Holm over the whole budget report). The baseline's cells of Δ and p are empty.
// Numbers are rounded for reading; Budget holds them exactly.
func sweepBudgetTable(s study.Sweep) (header []string, rows [][]string) {
	level := s.Budget.Options.Level
	compared := len(s.Rows) > 1 // one configuration: no comparison, no interval (its level is unset)
	header = []string{"budget (" + s.Tokenizer + " tokens)", "config"}
	for _, name := range []string{"nDCG", "R", "Success"} {
		header = append(header, name)
		if compared {
			header = append(header, fmt.Sprintf("Δ %s [%g%% CI]", name, 100*level), "p(t,Holm)")
		}
	}
	ms := rag.BudgetMeasures(s.Budgets...)
	for b := range s.Budgets {
		for i, r := range s.Rows {
			row := []string{fmt.Sprint(s.Budgets[b]), r.Chunking.String()}
			for k := range 3 {
				j := 3*b + k
				row = append(row, fmt.Sprintf("%.4f", r.Budget.Mean(ms[j])))
				if !compared {
					continue
				}
				if i == 0 {
					row = append(row, "", "")
					continue
				}
				c, err := s.Budget.Comparison(r.Chunking.String(), ms[j])
				if err != nil {
					panic(err) // every row and budget measure is in the report
				}
				row = append(row, fmt.Sprintf("%+.4f [%+.4f, %+.4f]", c.Diff, c.CILow, c.CIHigh), fmt.Sprintf("%.3g", c.PTHolm))
			}
			rows = append(rows, row)
		}
	}
	return header, rows
}

// writeTable prints a table of strings aligned in columns.
func writeTable(w io.Writer, header []string, rows [][]string) error {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, strings.Join(header, "\t")+"\t")
	for _, r := range rows {
		fmt.Fprintln(tw, strings.Join(r, "\t")+"\t")
	}
	return tw.Flush()
}

// sweepJSON is the JSON form of a sweep: means and tests, without per-query values.
type sweepJSON struct {
	Collection  string        `json:"collection"`
	Split       string        `json:"split"`
	Docs        int           `json:"docs"`
	Queries     int           `json:"queries"`
	Tokens      int           `json:"tokens"`
	Tokenizer   string        `json:"tokenizer"` // the unit of tokens, indexed, chunk sizes and budgets
	Aggregation string        `json:"aggregation"`
	Model       string        `json:"model"`
	Measures    []string      `json:"measures"`
	Budgets     []string      `json:"budget_measures"`
	Rows        []sweepRowOut `json:"rows"`
	Seconds     stagesJSON    `json:"seconds"`
}

type sweepRowOut struct {
	Chunk       int        `json:"chunk"`
	Overlap     int        `json:"overlap"`
	Chunks      int        `json:"chunks"`
	Indexed     int        `json:"indexed"`
	Duplication float64    `json:"duplication"`
	Means       []float64  `json:"means"`
	Compare     []diffJSON `json:"compare,omitempty"`
	BudgetMeans []float64  `json:"budget_means"`
	BudgetDiffs []diffJSON `json:"budget_compare,omitempty"`
	Seconds     stagesJSON `json:"seconds"`
}

// diffJSON is one measure of a row against the baseline (whole documents), its p-values named
// as package compare names them. A value not computed (NaN: the t-test with one query) or
// infinite (t when every difference is equal and not 0) is null.
type diffJSON struct {
	Diff, CILow, CIHigh, T, PT, PTHolm, PPerm, PPermHolm jsonFloat
}

// jsonFloat is a number that encodes NaN and ±Inf as null (encoding/json refuses them).
type jsonFloat float64

func (v jsonFloat) MarshalJSON() ([]byte, error) {
	if f := float64(v); math.IsNaN(f) || math.IsInf(f, 0) {
		return []byte("null"), nil
	}
	return json.Marshal(float64(v))
}

// sweepDiffs returns row ch against the baseline on every measure of ms, or nil for the baseline.
func sweepDiffs[M compare.Measure](sw study.Sweep, ch retrieval.Chunking, ms []M) []diffJSON {
	var out []diffJSON
	for _, m := range ms {
		c, err := sw.Comparison(ch, m)
		if err != nil { // the baseline, or a sweep without budgets
			return nil
		}
		out = append(out, diffJSON{jsonFloat(c.Diff), jsonFloat(c.CILow), jsonFloat(c.CIHigh), jsonFloat(c.T),
			jsonFloat(c.PT), jsonFloat(c.PTHolm), jsonFloat(c.PPerm), jsonFloat(c.PPermHolm)})
	}
	return out
}

type stagesJSON struct {
	Tokenize, Index, Search, Evaluate, Total float64
}

func stagesOut(s study.Stages) stagesJSON {
	return stagesJSON{s.Tokenize.Seconds(), s.Index.Seconds(), s.Search.Seconds(), s.Evaluate.Seconds(), s.Total().Seconds()}
}

func writeSweepJSON(w io.Writer, sw study.Sweep, queries int) error {
	out := sweepJSON{Collection: sw.Collection, Split: sw.Split, Docs: sw.Docs, Queries: queries, Tokens: sw.Tokens,
		Tokenizer: sw.Tokenizer, Aggregation: sw.Aggregation.String(), Model: sw.Model, Seconds: stagesOut(sw.Stages)}
	for _, m := range sw.Measures {
		out.Measures = append(out.Measures, m.String())
	}
	for _, m := range rag.BudgetMeasures(sw.Budgets...) {
		out.Budgets = append(out.Budgets, m.String())
	}
	for _, r := range sw.Rows {
		row := sweepRowOut{Chunk: r.Chunking.Chunk, Overlap: r.Chunking.Overlap, Chunks: r.Chunks, Indexed: r.Indexed,
			Duplication: r.Duplication, Means: r.Result.Means, BudgetMeans: r.Budget.Means, Seconds: stagesOut(r.Stages),
			Compare: sweepDiffs(sw, r.Chunking, sw.Measures), BudgetDiffs: sweepDiffs(sw, r.Chunking, rag.BudgetMeasures(sw.Budgets...))}
		out.Rows = append(out.Rows, row)
	}
	return writeJSON(w, out)
}
