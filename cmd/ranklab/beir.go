package main

import (
	"context"
	"encoding/csv"
	"errors"
	"flag"
	"fmt"
	"github.com/ranklab/ranklab/eval"
	"io"
	"os"
	"strings"
	"text/tabwriter"

	"github.com/ranklab/ranklab/retrieval"
	"github.com/ranklab/ranklab/stats"
)

func init() {
	commands["beir"] = command{summary: "BM25 on a BEIR collection: write a TREC run, or sweep chunk sizes", run: runBEIR}
}

const beirUsage = `usage:
  ranklab beir run   [--data DIR] [--split test] [--chunk N --overlap N --agg maxp|firstp|sump] [--k 1000] [--tag T] --out RUN
  ranklab beir sweep [--data DIR] [--split test] [--agg maxp|firstp|sump] [--k 1000] [--permutations N] [-f text|json|csv]

DIR is a BEIR collection (corpus.jsonl[.gz], queries.jsonl, qrels/<split>.tsv). Without
--data, BEIR's SciFact is used, downloaded on first use into ` + "`ranklab/beir`" + ` under the
user cache directory (SHA-256 of corpus.jsonl checked). BM25 is Lucene's (k1=0.9, b=0.4),
title and text as one field, bleve's English analyzer; chunks are cl100k_base token windows.
The sweep compares whole documents with chunks of 32..512 tokens, overlap 0 and 25 %.`

func runBEIR(args []string, stdout, stderr io.Writer) int {
	if len(args) == 0 || args[0] == "-h" || args[0] == "--help" {
		fmt.Fprintln(stderr, beirUsage)
		if len(args) == 0 {
			return 2
		}
		return 0
	}
	switch args[0] {
	case "run":
		return beirRun(args[1:], stdout, stderr)
	case "sweep":
		return beirSweep(args[1:], stdout, stderr)
	}
	fmt.Fprintf(stderr, "ranklab beir: unknown action %q (want run or sweep)\n%s\n", args[0], beirUsage)
	return 2
}

// beirFlags are the flags both actions share.
type beirFlags struct {
	data, split, agg *string
	k                *int
}

func newBEIRFlags(name string, stderr io.Writer) (*flag.FlagSet, beirFlags) {
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() { fmt.Fprintln(stderr, beirUsage); fs.PrintDefaults() }
	return fs, beirFlags{
		data:  fs.String("data", "", "BEIR collection `DIR` (default: SciFact, downloaded when missing)"),
		split: fs.String("split", "test", "qrels split: the file qrels/`SPLIT`.tsv"),
		agg:   fs.String("agg", "maxp", "document score from its chunks: maxp, firstp or sump"),
		k:     fs.Int("k", 1000, "documents retrieved per query"),
	}
}

// collection reads the flags' collection, downloading SciFact when no --data is given.
func (f beirFlags) collection(stderr io.Writer) (retrieval.Collection, error) {
	dir := *f.data
	if dir == "" {
		var err error
		dir, err = retrieval.SciFact.Ensure(context.Background(), nil, retrieval.DefaultDataDir(), stderr)
		if err != nil {
			return retrieval.Collection{}, err
		}
	}
	return retrieval.ReadCollection(dir, *f.split)
}

func parseArgs(fs *flag.FlagSet, args []string) (int, bool) {
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return 0, false
		}
		return 2, false
	}
	if fs.NArg() > 0 {
		fmt.Fprintf(fs.Output(), "%s: unexpected argument %q\n", fs.Name(), fs.Arg(0))
		return 2, false
	}
	return 0, true
}

// beirRun writes the BM25 run of the collection's queries (those its qrels judge).
func beirRun(args []string, stdout, stderr io.Writer) int {
	fs, f := newBEIRFlags("ranklab beir run", stderr)
	chunk := fs.Int("chunk", 0, "chunk size in cl100k_base tokens (0 = whole documents)")
	overlap := fs.Int("overlap", 0, "overlap between chunks in tokens")
	tag := fs.String("tag", "", "run tag (default bm25, or bm25-chunkN-overlapM-AGG)")
	out := fs.String("out", "", "output TREC run `FILE` (required; - for stdout)")
	if code, ok := parseArgs(fs, args); !ok {
		return code
	}
	if *out == "" {
		fmt.Fprintln(stderr, "ranklab beir run: --out is required")
		return 2
	}
	agg, err := retrieval.ParseAggregation(*f.agg)
	if err != nil {
		fmt.Fprintf(stderr, "ranklab beir run: --agg: %v\n", err)
		return 2
	}
	ch := retrieval.Chunking{Chunk: *chunk, Overlap: *overlap}
	if err := ch.Validate(); err != nil {
		fmt.Fprintf(stderr, "ranklab beir run: %v\n", err)
		return 2
	}
	if *tag == "" {
		*tag = "bm25"
		if ch.Chunk > 0 {
			*tag = fmt.Sprintf("bm25-chunk%d-overlap%d-%s", ch.Chunk, ch.Overlap, agg)
		}
	}
	run, err := beirRunCollection(f, ch, agg, *tag, stderr)
	if err != nil {
		fmt.Fprintf(stderr, "ranklab beir run: %v\n", err)
		return 1
	}
	if err := writeRunTo(*out, run, stdout); err != nil {
		fmt.Fprintf(stderr, "ranklab beir run: %v\n", err)
		return 1
	}
	return 0
}

func beirRunCollection(f beirFlags, ch retrieval.Chunking, agg retrieval.Aggregation, tag string, stderr io.Writer) (eval.Run, error) {
	c, err := f.collection(stderr)
	if err != nil {
		return eval.Run{}, err
	}
	tok, err := retrieval.NewTokenizer()
	if err != nil {
		return eval.Run{}, err
	}
	an, err := retrieval.English()
	if err != nil {
		return eval.Run{}, err
	}
	chunks, err := retrieval.Tokenize(tok, c.Docs).Chunks(tok, ch)
	if err != nil {
		return eval.Run{}, err
	}
	s := retrieval.NewSearcher(an, retrieval.Anserini, c.Docs, chunks, ch, agg)
	return retrieval.RunQueries(s, c.Queries, *f.k, tag), nil
}

func writeRunTo(out string, run eval.Run, stdout io.Writer) error {
	if out == "-" {
		return eval.WriteRun(stdout, run)
	}
	w, err := os.Create(out)
	if err != nil {
		return err
	}
	if err := eval.WriteRun(w, run); err != nil {
		w.Close()
		return fmt.Errorf("%s: %w", out, err)
	}
	return w.Close()
}

// beirSweep prints the chunking sweep.
func beirSweep(args []string, stdout, stderr io.Writer) int {
	fs, f := newBEIRFlags("ranklab beir sweep", stderr)
	format := fs.String("f", "text", "output format: text, json or csv")
	perms := fs.Int("permutations", stats.DefaultPermutations, "sign flips of the randomization test")
	seed := fs.Uint64("seed", stats.DefaultSeed, "seed of the randomization test")
	if code, ok := parseArgs(fs, args); !ok {
		return code
	}
	if *format != "text" && *format != "json" && *format != "csv" {
		fmt.Fprintf(stderr, "ranklab beir sweep: -f %q: want text, json or csv\n", *format)
		return 2
	}
	agg, err := retrieval.ParseAggregation(*f.agg)
	if err != nil {
		fmt.Fprintf(stderr, "ranklab beir sweep: --agg: %v\n", err)
		return 2
	}
	if *perms < 1 || *f.k < 1 {
		fmt.Fprintln(stderr, "ranklab beir sweep: --permutations and --k must be positive")
		return 2
	}
	c, err := f.collection(stderr)
	if err != nil {
		fmt.Fprintf(stderr, "ranklab beir sweep: %v\n", err)
		return 1
	}
	sw, err := retrieval.RunSweep(c, retrieval.SweepOptions{Aggregation: agg, Depth: *f.k, Permutations: *perms, Seed: *seed})
	if err != nil {
		fmt.Fprintf(stderr, "ranklab beir sweep: %v\n", err)
		return 1
	}
	switch *format {
	case "json":
		err = writeSweepJSON(stdout, sw, len(c.Queries))
	case "csv":
		header, rows := sw.Table()
		w := csv.NewWriter(stdout)
		w.Write(header)
		w.WriteAll(rows)
		err = w.Error()
	default:
		err = writeSweepText(stdout, sw, len(c.Queries))
	}
	if err != nil {
		fmt.Fprintf(stderr, "ranklab beir sweep: %v\n", err)
		return 1
	}
	return 0
}

func writeSweepText(w io.Writer, sw retrieval.Sweep, queries int) error {
	fmt.Fprintf(w, "%s (qrels %s): %d documents, %d queries, %d cl100k_base tokens; BM25 k1=%.1f b=%.1f, %s\n",
		sw.Collection, sw.Split, sw.Docs, queries, sw.Tokens, retrieval.Anserini.K1, retrieval.Anserini.B, sw.Aggregation)
	fmt.Fprintln(w, "Δ and p: against whole documents, paired over queries; p Holm-adjusted over the configurations")
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	header, rows := sw.Table()
	fmt.Fprintln(tw, strings.Join(header, "\t")+"\t")
	for _, r := range rows {
		fmt.Fprintln(tw, strings.Join(r, "\t")+"\t")
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	st := sw.Stages
	_, err := fmt.Fprintf(w, "time: tokenize %.2fs, index %.2fs, search %.2fs, evaluate %.2fs; total %.2fs\n",
		st.Tokenize.Seconds(), st.Index.Seconds(), st.Search.Seconds(), st.Evaluate.Seconds(), st.Total().Seconds())
	return err
}

// sweepJSON is the JSON form of a sweep: means and tests, without per-query values.
type sweepJSON struct {
	Collection  string        `json:"collection"`
	Split       string        `json:"split"`
	Docs        int           `json:"docs"`
	Queries     int           `json:"queries"`
	Tokens      int           `json:"tokens"`
	Aggregation string        `json:"aggregation"`
	Measures    []string      `json:"measures"`
	Rows        []sweepRowOut `json:"rows"`
	Seconds     stagesJSON    `json:"seconds"`
}

type sweepRowOut struct {
	Chunk       int                    `json:"chunk"`
	Overlap     int                    `json:"overlap"`
	Chunks      int                    `json:"chunks"`
	Indexed     int                    `json:"indexed"`
	Duplication float64                `json:"duplication"`
	Means       []float64              `json:"means"`
	Compare     []retrieval.Comparison `json:"compare,omitempty"`
	Seconds     stagesJSON             `json:"seconds"`
}

type stagesJSON struct {
	Tokenize, Index, Search, Evaluate, Total float64
}

func stagesOut(s retrieval.Stages) stagesJSON {
	return stagesJSON{s.Tokenize.Seconds(), s.Index.Seconds(), s.Search.Seconds(), s.Evaluate.Seconds(), s.Total().Seconds()}
}

func writeSweepJSON(w io.Writer, sw retrieval.Sweep, queries int) error {
	out := sweepJSON{Collection: sw.Collection, Split: sw.Split, Docs: sw.Docs, Queries: queries, Tokens: sw.Tokens,
		Aggregation: sw.Aggregation.String(), Seconds: stagesOut(sw.Stages)}
	for _, m := range sw.Measures {
		out.Measures = append(out.Measures, m.String())
	}
	for _, r := range sw.Rows {
		out.Rows = append(out.Rows, sweepRowOut{Chunk: r.Chunking.Chunk, Overlap: r.Chunking.Overlap, Chunks: r.Chunks,
			Indexed: r.Indexed, Duplication: r.Duplication, Means: r.Result.Means, Compare: r.Compare, Seconds: stagesOut(r.Stages)})
	}
	return writeJSON(w, out)
}
