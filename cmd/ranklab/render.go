package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/ranklab/ranklab/charts"
	"github.com/ranklab/ranklab/lab"
)

func init() {
	commands["render"] = command{summary: "write a standalone offline HTML page of the lab or of an evaluated run", run: runRender}
}

const renderUsage = `usage:
  ranklab render lab [--link K=V&...] [--k N] [--rerank N] [--grade N] [--total N]
                     [--corpus N] [--chunk N] [--overlap N] [--seed N] [--n N] --out FILE.html
  ranklab render eval [-c] [-l N] [-M N] [-m MEASURE]... QRELS RUN --out FILE.html

The page embeds ECharts 5.4.3 once and needs no network.`

// runRender dispatches "render lab" and "render eval".
func runRender(args []string, stdout, stderr io.Writer) int {
	if len(args) == 0 || args[0] == "-h" || args[0] == "--help" {
		fmt.Fprintln(stderr, renderUsage)
		if len(args) == 0 {
			return 2
		}
		return 0
	}
	switch args[0] {
	case "lab":
		return renderLab(args[1:], stdout, stderr)
	case "eval":
		return renderEval(args[1:], stdout, stderr)
	}
	fmt.Fprintf(stderr, "ranklab render: unknown page %q (want lab or eval)\n%s\n", args[0], renderUsage)
	return 2
}

// renderLab writes the whole lab (both panels) for one state.
func renderLab(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("ranklab render lab", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() { fmt.Fprintln(stderr, renderUsage); fs.PrintDefaults() }
	d := lab.DefaultState()
	link := fs.String("link", "", "start from a lab link (k=5&rerank=10&...); other flags override it")
	out := fs.String("out", "", "output `FILE.html` (required)")
	k := fs.Int("k", d.K, "evaluation depth k")
	rerank := fs.Int("rerank", d.Rerank, "rerank depth (0 = first-stage order)")
	grade := fs.Int("grade", d.MinGrade, "minimum grade counted as relevant")
	total := fs.Int("total", d.Total, "recall denominator (0 = the qrels' count)")
	corpus := fs.Int("corpus", d.Corpus, "corpus tokens")
	chunk := fs.Int("chunk", d.Chunk, "chunk size in tokens")
	overlap := fs.Int("overlap", d.Overlap, "overlap in tokens")
	seed := fs.Int64("seed", d.Seed, "seed of the synthetic ranking")
	n := fs.Int("n", d.Size, "candidates in the synthetic ranking")
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return 0
		}
		return 2
	}
	if fs.NArg() > 0 {
		fmt.Fprintf(stderr, "ranklab render lab: unexpected argument %q\n", fs.Arg(0))
		return 2
	}
	if *out == "" {
		fmt.Fprintln(stderr, "ranklab render lab: --out FILE.html is required")
		return 2
	}
	s := d
	if *link != "" {
		var err error
		if s, err = lab.ParseLink(*link); err != nil {
			fmt.Fprintf(stderr, "ranklab render lab: --link: %v\n", err)
			return 2
		}
	}
	fs.Visit(func(f *flag.Flag) {
		switch f.Name {
		case "k":
			s.K = *k
		case "rerank":
			s.Rerank = *rerank
		case "grade":
			s.MinGrade = *grade
		case "total":
			s.Total = *total
		case "corpus":
			s.Corpus = *corpus
		case "chunk":
			s.Chunk = *chunk
		case "overlap":
			s.Overlap = *overlap
		case "seed":
			s.Seed = *seed
		case "n":
			s.Size = *n
		}
	})
	o, err := s.Outcome()
	if err != nil {
		fmt.Fprintf(stderr, "ranklab render lab: %v\n", err)
		return 2
	}
	sweepK, err := s.SweepK()
	if err != nil {
		fmt.Fprintf(stderr, "ranklab render lab: %v\n", err)
		return 1
	}
	sweepRerank, err := s.SweepRerank()
	if err != nil {
		fmt.Fprintf(stderr, "ranklab render lab: %v\n", err)
		return 1
	}
	frags := append(charts.RankingPanel(o, sweepK, sweepRerank), charts.ChunkingPanel(o)...)
	return renderWrite(*out, charts.Page("ranklab lab — "+o.Link, frags...), "ranklab render lab", stdout, stderr)
}

// renderWrite writes the page and reports its size.
func renderWrite(path, page, who string, stdout, stderr io.Writer) int {
	if err := os.WriteFile(path, []byte(page), 0o644); err != nil {
		fmt.Fprintf(stderr, "%s: %v\n", who, err)
		return 1
	}
	fmt.Fprintf(stdout, "%s: wrote %s (%d bytes)\n", who, path, len(page))
	return 0
}

// renderMeasureList collects repeated -m flags.
type renderMeasureList []string

func (m *renderMeasureList) String() string     { return strings.Join(*m, ",") }
func (m *renderMeasureList) Set(v string) error { *m = append(*m, v); return nil }

// renderEval is a placeholder until lab.Evaluate lands.
func renderEval(args []string, stdout, stderr io.Writer) int {
	fmt.Fprintln(stderr, "ranklab render eval: not available yet")
	return 1
}
