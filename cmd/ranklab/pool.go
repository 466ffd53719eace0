package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"path/filepath"
	"text/tabwriter"

	"github.com/ranklab/ranklab/internal/numflag"

	"github.com/ranklab/ranklab/eval"
	"github.com/ranklab/ranklab/internal/words"
	"github.com/ranklab/ranklab/pool"
)

func init() {
	commands["pool"] = command{summary: "the query-document pairs to judge: depth-k or move-to-front pooling of runs", run: runPool}
}

const poolUsage = `usage: ranklab pool [--depth 20] [--method depth|mtf] [--judged QRELS] [-l N] [--out FILE] RUN...

Writes the pool of query-document pairs to judge from one or more TREC runs (gzipped or not) as
qrels lines "query 0 doc -1" (grade -1: pooled, not judged; every qrels reader reads them), in
judging order, to --out (written to a temporary file, then renamed) or stdout. What each run
contributes is printed on stderr (stdout with --out):

  top     new pairs in the run's top k
  unique  of those, pairs no other run has in its top k
  added   of those, pairs no run given before it has in its top k (sums to the pool's size)

  --method depth  the union of every run's top k (--depth; 0: whole runs), by best rank
  --method mtf    move-to-front (Cormack, Palmer & Clarke 1998): adaptive, so the pool holds the
                  NEXT pair to judge for each query given the grades in --judged; judge them, then
                  pool again. A run keeps the front while it finds relevant docs (grade >= -l).

--judged QRELS: pairs it grades (grade >= 0) are left out, so a pool grows (deeper, more runs,
more of move-to-front) without judging any pair twice. See the pool package doc for the rules.

Example: ranklab pool --depth 20 --out pool.txt bm25.run dense.run
         ranklab pool --depth 50 --judged judged.qrels --out more.txt bm25.run dense.run
`

func runPool(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("ranklab pool", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() { fmt.Fprint(stderr, poolUsage); fs.PrintDefaults() }
	depth := numflag.NewInt(fs, "depth", 20, "pool each run's first `N` docs (0: all)")
	method := fs.String("method", "depth", "pooling method: depth or mtf")
	judgedPath := fs.String("judged", "", "qrels `FILE` of the pairs judged so far")
	rel := numflag.NewInt(fs, "l", 1, "relevance level of move-to-front: grade >= `N` is relevant")
	out := fs.String("out", "", "write the pool to `FILE` (default: stdout)")
	files, err := parseInterleaved(fs, args)
	if err != nil {
		return flagStatus(err, 2)
	}
	fail := failer(stderr, "ranklab pool")
	switch {
	case *depth < 0:
		return fail(2, "--depth %d: want 0 (whole runs) or more", *depth)
	case *rel < 1:
		return fail(2, "-l %d: want 1 or more", *rel)
	case *method != "depth" && *method != "mtf":
		return fail(2, "--method %q: want depth or mtf", *method)
	case len(files) == 0:
		return fail(2, "need at least one run\n%s", synopsis(poolUsage))
	}
	runs := make([]eval.Run, len(files))
	for i, f := range files {
		r, err := readRunArg(f)
		if err != nil {
			return fail(1, "%v", err)
		}
		r.Tag = filepath.Base(f)
		runs[i] = r
	}
	var judged eval.Qrels
	if *judgedPath != "" {
		// An empty file is a valid start: nothing judged yet (the panel leaves one after every
		// judgment is undone).
		if judged, err = eval.ReadQrelsFile(*judgedPath); errors.Is(err, eval.ErrEmpty) {
			judged = eval.Qrels{}
		} else if err != nil {
			return fail(1, "%v", err)
		}
	}
	var p pool.Pool
	if *method == "mtf" {
		p = pool.MoveToFront(runs, *depth, judged, *rel)
	} else {
		p = pool.Depth(runs, *depth, judged)
	}
	report := stderr
	if *out == "" {
		if err := pool.Write(stdout, p.Pairs); err != nil {
			return fail(1, "%v", err)
		}
	} else {
		if err := pool.WriteFile(*out, p.Pairs); err != nil {
			return fail(1, "%v", err)
		}
		report = stdout
	}
	if err := writePoolReport(report, p); err != nil {
		return fail(1, "%v", err)
	}
	return 0
}

// writePoolReport prints the pool's size and each run's contribution.
func writePoolReport(w io.Writer, p pool.Pool) error {
	depth := fmt.Sprint(p.Depth)
	if p.Depth == 0 {
		depth = "all"
	}
	fmt.Fprintf(w, "%s pool, depth %s: %d %s to judge over %d %s (%d %s in reach already judged)\n",
		p.Method, depth, len(p.Pairs), words.Plural(len(p.Pairs), "pair", "pairs"), p.Queries, words.Plural(p.Queries, "query", "queries"),
		p.Judged, words.Plural(p.Judged, "pair", "pairs"))
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "top\tunique\tadded\t  run\t")
	for _, c := range p.Runs {
		fmt.Fprintf(tw, "%d\t%d\t%d\t  %s\t\n", c.Top, c.Unique, c.Added, c.Run)
	}
	return tw.Flush()
}
