package main

import (
	"flag"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/ranklab/ranklab/compare"
	"github.com/ranklab/ranklab/embed"
	"github.com/ranklab/ranklab/internal/numflag"
	"github.com/ranklab/ranklab/rerank"
	"github.com/ranklab/ranklab/stats"
)

func init() {
	commands["rerank"] = command{summary: "rerank a first stage's top N with all-MiniLM-L6-v2 at several depths: runs, cost, tests against N = 0", run: runRerank}
}

const rerankUsage = `usage: ranklab rerank [--data DIR] [--split test] --run FIRST_STAGE_RUN [--depth N[,N...]] [--model minilm]
                      [--mix W] [--k 10] [--out DIR] [--permutations N] [--resamples N] [--seed N] [-f text|json]

Reranks the first N documents of each query of FIRST_STAGE_RUN (any TREC run of the collection,
e.g. from ranklab beir run; - reads stdin) at each depth N, and evaluates every depth on the
collection's qrels. DIR is a BEIR collection (default: SciFact, downloaded on first use).

The reranker (--model minilm) is all-MiniLM-L6-v2 used as a bi-encoder: the cosine of the query's
and the document's vectors (title + " " + text, cut at the model's 256 tokens). It stands in for
the cross-encoder pipelines usually rerank with, because none ships in the package registries
here. Vectors are cached on disk (RANKLAB_VECTOR_CACHE, else beside the model) and shared with
ranklab beir run --model minilm, so reranking at 1000 embeds at most what one dense run embeds.

Scores: --mix 0 (the default) replaces the first stage's scores with the reranker's; --mix W
ranks the prefix by (1 − W)·minmax(reranker) + W·minmax(first stage), both min-max normalised
over the query's N candidates. Documents past N keep their first-stage order below the prefix.

Printed per depth: nDCG@K and R@K with the difference from N = 0 (95 % bootstrap interval), the
paired t-test and randomization test p-values Holm-adjusted over one family (every depth > 0 ×
both measures), the first stage's R@N (the ceiling of what reranking N documents can recall);
the documents scored per query, the texts embedded per query (documents and queries the vector
cache did not hold) and the CPU time per query (the whole process, this depth alone and
cumulated: depths run in increasing order and each vector is embedded once, so the cumulated CPU
through N is what depth N costs alone from the same cache); the relevant
documents the first stage put past N (and the queries with one) and those lost: in the deepest
depth's top K but not in this depth's.

--out DIR writes each reranked run (N > 0) to DIR/TAG.run, TAG = <first tag>-minilmN[-mixW],
each through a temporary file renamed when complete.

Example: ranklab beir run --data ../shared/data/scifact --out bm25.run
         ranklab rerank --data ../shared/data/scifact --run bm25.run --depth 0,10,100,1000 --out reranked`

// rerankDepths is the default sweep.
var rerankDepths = []int{0, 5, 10, 20, 50, 100, 200, 1000}

func runRerank(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("ranklab rerank", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() { fmt.Fprintln(stderr, rerankUsage); fs.PrintDefaults() }
	data := fs.String("data", "", "BEIR collection `DIR` (default: SciFact, downloaded when missing)")
	split := fs.String("split", "test", "qrels split: the file qrels/`SPLIT`.tsv")
	runPath := fs.String("run", "", "the first stage's TREC run `FILE` (required; - for stdin)")
	depthList := fs.String("depth", "", "comma-separated rerank depths (default 0,5,10,20,50,100,200,1000)")
	model := fs.String("model", "minilm", "the reranker: minilm (all-MiniLM-L6-v2, bi-encoder)")
	mix := numflag.NewFloat64(fs, "mix", 0, "the first stage's weight `W` in [0, 1] (0: the reranker's scores replace it)")
	k := numflag.NewInt(fs, "k", 10, "the cut-off of nDCG@K, R@K and the losses")
	out := fs.String("out", "", "write each reranked run into this `DIR`")
	format := fs.String("f", "text", "output format: text or json")
	perms := numflag.NewInt(fs, "permutations", stats.DefaultPermutations, "sign flips of the randomization test")
	resamples := numflag.NewInt(fs, "resamples", stats.DefaultResamples, "bootstrap resamples of the intervals")
	seed := numflag.NewUint64(fs, "seed", stats.DefaultSeed, "seed of the randomization test and the bootstrap")
	if code, ok := parseArgs(fs, args); !ok {
		return code
	}
	fail := failer(stderr, "ranklab rerank")
	if *runPath == "" {
		return fail(2, "--run is required (a first-stage run, e.g. from ranklab beir run)")
	}
	if *format != "text" && *format != "json" {
		return fail(2, "-f %q: want text or json", *format)
	}
	if *model != "minilm" {
		return fail(2, "--model %q: want minilm", *model)
	}
	if !(*mix >= 0 && *mix <= 1) {
		return fail(2, "--mix %v: the first stage's weight must be in [0, 1]", *mix)
	}
	if *k < 1 || *perms < 1 || *resamples < 1 {
		return fail(2, "--k, --permutations and --resamples must be positive")
	}
	depths := rerankDepths
	if *depthList != "" {
		depths = nil
		for _, s := range strings.Split(*depthList, ",") {
			n, err := numflag.Int(strings.TrimSpace(s))
			if err != nil || n < 0 {
				return fail(2, "--depth: %q is not a depth >= 0", s)
			}
			depths = append(depths, n)
		}
	}
	first, err := readRunArg(*runPath)
	if err != nil {
		return fail(1, "%v", err)
	}
	c, err := beirFlags{data: data, split: split, queries: new(string)}.collection("ranklab rerank", stderr)
	if err != nil {
		return fail(1, "%v", err)
	}
	t0 := time.Now()
	cache, closeModel, err := openMiniLM()
	if err != nil {
		return fail(1, "%v", err)
	}
	defer closeModel()
	fmt.Fprintf(stderr, "ranklab rerank: %s loaded in %.1f s; reranking %q (%d queries) of %s at depths %v\n",
		embed.MiniLM, time.Since(t0).Seconds(), first.Tag, len(first.Queries), c.Dir, depths)
	nq := max(len(first.Queries), 1)
	var misses, hits int64
	embedded := map[int]float64{}
	opt := rerank.Options{Mix: *mix, Name: *model, K: *k,
		Compare: compare.Options{Permutations: *perms, Resamples: *resamples, Seed: *seed},
		Progress: func(r rerank.SweepRow) {
			m, h := cache.Misses.Load(), cache.Hits.Load()
			embedded[r.Depth] = float64(m-misses) / float64(nq)
			fmt.Fprintf(stderr, "ranklab rerank: depth %d: %.1f documents scored per query; embedded %d texts, %d from the disk cache; CPU %.2f ms per query (%.2f cumulated), %.1f s\n",
				r.Depth, r.Scored, m-misses, h-hits, float64(r.CPU)/1e6, float64(r.Cumulative)/1e6, (r.Wall * time.Duration(nq)).Seconds())
			misses, hits = m, h
		}}
	sw, err := rerank.RunSweep(c, first, rerank.BiEncoder(cache), opt, depths...)
	if err != nil {
		return fail(1, "%v", err)
	}
	if *out != "" {
		if err := os.MkdirAll(*out, 0o777); err != nil {
			return fail(1, "%v", err)
		}
		for _, r := range sw.Rows[1:] {
			if err := writeRunTo(filepath.Join(*out, r.Run.Tag+".run"), r.Run, stdout); err != nil {
				return fail(1, "%v", err)
			}
		}
		fmt.Fprintf(stderr, "ranklab rerank: %d reranked runs written to %s\n", len(sw.Rows)-1, *out)
	}
	head := rerankHead{Collection: c.Dir, Split: c.Split, FirstStage: first.Tag, Reranker: embed.MiniLM + " (bi-encoder: cosine of the query's and the document's vectors)",
		Mix: *mix, Queries: sw.Queries, Relevant: sw.Relevant, Never: sw.Never, Family: sw.Report.Family}
	if *format == "json" {
		err = writeRerankJSON(stdout, head, sw, embedded)
	} else {
		err = writeRerankText(stdout, head, sw, embedded)
	}
	if err != nil {
		return fail(1, "%v", err)
	}
	return 0
}

// rerankHead is what a sweep's output says before its rows.
type rerankHead struct {
	Collection string  `json:"collection"`
	Split      string  `json:"split"`
	FirstStage string  `json:"first_stage"`
	Reranker   string  `json:"reranker"`
	Mix        float64 `json:"mix"`
	Queries    int     `json:"queries"`
	Relevant   int     `json:"relevant"`
	Never      int     `json:"relevant_never_retrieved"`
	Family     int     `json:"family"`
}

// writeRerankText prints the sweep's table (rerank.Sweep.Table) with the texts embedded per
// query beside the documents scored.
func writeRerankText(w io.Writer, h rerankHead, sw rerank.Sweep, embedded map[int]float64) error {
	how := "its scores replace the first stage's"
	if h.Mix != 0 {
		how = fmt.Sprintf("mixed: %.3g·minmax(first stage) + %.3g·minmax(reranker)", h.Mix, 1-h.Mix)
	}
	fmt.Fprintf(w, "%s (split %s): %q reranked by %s; %s\n", h.Collection, h.Split, h.FirstStage, h.Reranker, how)
	fmt.Fprintf(w, "%d queries with a relevant document, %d relevant documents, %d of them never returned by the first stage\n",
		h.Queries, h.Relevant, h.Never)
	fmt.Fprintf(w, "tests: every depth against N = 0 on %s and %s, one family of %d comparisons; p = paired t-test / randomization test, Holm-adjusted\n\n",
		sw.Measures[0], sw.Measures[1], h.Family)
	header, rows := sw.Table()
	at := slices.Index(header, "scored/q") + 1
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, strings.Join(slices.Insert(header, at, "embedded/q"), "\t")+"\t")
	for i, r := range rows {
		fmt.Fprintln(tw, strings.Join(slices.Insert(r, at, fmt.Sprintf("%.1f", embedded[sw.Rows[i].Depth])), "\t")+"\t")
	}
	return tw.Flush()
}

// rerankRowJSON is one depth in JSON; a value not defined at a depth is null.
type rerankRowJSON struct {
	Depth       int                `json:"depth"`
	Tag         string             `json:"tag"`
	Means       map[string]float64 `json:"means"`
	Compare     []rerankDiffJSON   `json:"compare,omitempty"`
	Ceiling     *float64           `json:"ceiling_recall_at_depth"`
	Scored      float64            `json:"scored_per_query"`
	Embedded    float64            `json:"embedded_per_query"`
	CPUms       *float64           `json:"cpu_ms_per_query"`
	CumulatedMS *float64           `json:"cpu_ms_per_query_cumulated"`
	Past        int                `json:"relevant_past_depth"`
	PastQueries int                `json:"queries_with_relevant_past_depth"`
	Lost        int                `json:"relevant_lost"`
	LostQueries []string           `json:"queries_losing"`
}

type rerankDiffJSON struct {
	Measure   string   `json:"measure"`
	Diff      float64  `json:"diff"`
	CILow     *float64 `json:"ci_low"`
	CIHigh    *float64 `json:"ci_high"`
	PTHolm    *float64 `json:"p_t_holm"`
	PPermHolm float64  `json:"p_perm_holm"`
}

func writeRerankJSON(w io.Writer, h rerankHead, sw rerank.Sweep, embedded map[int]float64) error {
	out := struct {
		rerankHead
		Measures []string        `json:"measures"`
		Rows     []rerankRowJSON `json:"rows"`
	}{rerankHead: h}
	for _, m := range sw.Measures {
		out.Measures = append(out.Measures, m.String())
	}
	opt := func(x float64) *float64 {
		if math.IsNaN(x) || math.IsInf(x, 0) {
			return nil
		}
		return &x
	}
	ms := func(d time.Duration) *float64 {
		if d < 0 {
			return nil
		}
		return opt(float64(d) / 1e6)
	}
	for _, r := range sw.Rows {
		row := rerankRowJSON{Depth: r.Depth, Tag: r.Run.Tag, Means: map[string]float64{}, Ceiling: opt(r.Ceiling), Scored: r.Scored,
			Embedded: embedded[r.Depth], CPUms: ms(r.CPU), CumulatedMS: ms(r.Cumulative), Past: r.Past, PastQueries: r.PastQueries,
			Lost: r.Lost, LostQueries: r.LostQueries}
		if row.LostQueries == nil {
			row.LostQueries = []string{}
		}
		for _, m := range sw.Measures {
			row.Means[m.String()] = r.Result.Mean(m)
			if c, err := sw.Report.Comparison(r.Run.Tag, m); err == nil {
				row.Compare = append(row.Compare, rerankDiffJSON{Measure: m.String(), Diff: c.Diff, CILow: opt(c.CILow), CIHigh: opt(c.CIHigh),
					PTHolm: opt(c.PTHolm), PPermHolm: c.PPermHolm})
			}
		}
		out.Rows = append(out.Rows, row)
	}
	return writeJSON(w, out)
}
