package main

import (
	"flag"
	"fmt"
	"io"
	"strings"

	"github.com/ranklab/ranklab/internal/numflag"

	"github.com/ranklab/ranklab/eval"
	"github.com/ranklab/ranklab/fusion"
)

func init() {
	commands["fuse"] = command{summary: "fuse TREC runs: RRF, CombSUM, CombMNZ, weighted sums", run: runFuse}
}

const fuseUsage = `usage: ranklab fuse [--method rrf|combsum|combmnz] [--norm none|minmax|zscore|rank] [--k 60]
                    [--weights W1,W2,...] [--depth N] [--top N] [--tag fused] [--out FILE] RUN RUN [RUN...]

Fuses two or more TREC runs (gzipped or not; - reads one of them from stdin) query by query and
writes the fused run in TREC format (stdout unless --out). Each run's documents are ranked as
trec_eval ranks them (score descending, then docno descending) before fusing; a document missing
from a run contributes nothing to its sum. With w_i the weights and x_i the normalised scores:

  rrf      F(d) = Σ w_i / (k + rank_i(d))           (Cormack et al. 2009; --norm must be none)
  combsum  F(d) = Σ w_i · x_i(d)                    (weighted sum)
  combmnz  F(d) = (runs holding d) · Σ w_i · x_i(d)

  minmax  x = (s − min) / max(max − min, 1e-9)   zscore  x = (s − mean) / max(sd, 1e-9)
  rank    x = 1 − (rank − 1) / n                 none    x = s

per run and query. The fused run is ranked in trec_eval's order (ties by docno descending) with
scores at full precision. Results equal ranx 0.3.21's fuse on the same runs.

Example: ranklab fuse --method rrf --k 60 bm25.run chunks.run > fused.run
`

func runFuse(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("ranklab fuse", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() { fmt.Fprint(stderr, fuseUsage); fs.PrintDefaults() }
	method := fs.String("method", "rrf", "fusion method: rrf, combsum or combmnz")
	norm := fs.String("norm", "", "normalisation: none, minmax, zscore or rank (default: none for rrf, minmax otherwise)")
	k := numflag.NewFloat64(fs, "k", fusion.DefaultK, "RRF's k (Cormack et al. 2009: 60)")
	weights := fs.String("weights", "", "comma-separated weights, one per run (default: 1 each)")
	depth := numflag.NewInt(fs, "depth", 0, "fuse only the first `N` documents of each input ranking (0: all)")
	top := numflag.NewInt(fs, "top", 0, "keep the first `N` fused documents per query (0: all)")
	tag := fs.String("tag", "fused", "run tag of the fused run")
	out := fs.String("out", "", "output `FILE` (default: stdout)")
	files, err := parseInterleaved(fs, args)
	if err != nil {
		return flagStatus(err, 2)
	}
	fail := failer(stderr, "ranklab fuse")
	opt := fusion.Options{K: *k, Depth: *depth, Top: *top, Tag: *tag}
	if opt.Method, err = parseName("fusion method", *method, fusion.RRF, fusion.CombSUM, fusion.CombMNZ); err != nil {
		return fail(2, "--method: %v", err)
	}
	switch {
	case *norm != "":
		if opt.Norm, err = parseName("normalisation", *norm, fusion.Norm(0), fusion.MinMax, fusion.ZScore, fusion.Rank); err != nil {
			return fail(2, "--norm: %v", err)
		}
	case opt.Method != fusion.RRF:
		opt.Norm = fusion.MinMax
	}
	if *k <= 0 {
		return fail(2, "--k %v: must be positive", *k)
	}
	if *weights != "" {
		for _, f := range strings.Split(*weights, ",") {
			w, err := numflag.Float(strings.TrimSpace(f))
			if err != nil {
				return fail(2, "--weights: %q is not a number (want a finite decimal number, as in a run file)", f)
			}
			opt.Weights = append(opt.Weights, w)
		}
	}
	if len(files) < 2 {
		return fail(2, "need at least 2 runs, got %d\n%s", len(files), strings.SplitN(fuseUsage, "\n\n", 2)[0])
	}
	stdins := 0
	for _, f := range files {
		if f == "-" {
			stdins++
		}
	}
	if stdins > 1 {
		return fail(2, "- (stdin) given twice")
	}
	runs := make([]eval.Run, len(files))
	for i, f := range files {
		if runs[i], err = readRunArg(f); err != nil {
			return fail(1, "%v", err)
		}
	}
	fused, err := fusion.Fuse(runs, opt)
	if err != nil {
		return fail(1, "%v", err)
	}
	if *out == "" {
		*out = "-"
	}
	if err := writeRunTo(*out, fused, stdout); err != nil {
		return fail(1, "%v", err)
	}
	return 0
}
