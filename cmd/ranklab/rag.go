package main

import (
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"strings"
	"text/tabwriter"

	"github.com/ranklab/ranklab/internal/numflag"
	"github.com/ranklab/ranklab/internal/scan"

	"github.com/ranklab/ranklab/compare"
	"github.com/ranklab/ranklab/eval"
	"github.com/ranklab/ranklab/provenance"
	"github.com/ranklab/ranklab/rag"
)

func init() {
	commands["rag"] = command{summary: "evaluate a chunk run on document qrels: dedup, MaxP, FirstP, SumP, token budgets", run: runRAG}
}

const ragUsage = `usage: ranklab rag QRELS CHUNK_RUN --map MAP [--k 10] [-m MEASURE]... [--budgets B1,B2,...] [--truncate]
                  [--passages PASSAGE_QRELS] [-f text|json]

Evaluates a chunk run (a TREC run whose IDs are chunks) against document qrels the ways RAG
pipelines read it. MAP says which document span each chunk covers, one chunk a line
"chunk-id doc-id start end" (tokens [start, end); ` + "`ranklab beir run --chunks RUN --map MAP`" + ` writes
both). Side by side, with paired tests against the first:

  top-k chunks, dedup   the documents of the first k chunks, each once (what a k-chunk context holds)
  MaxP, FirstP, SumP    every document scored from its chunks in the run (best, first, sum)

A document retrieved through several chunks counts once. With --budgets, each budget B gives
R@Btok, nDCG@Btok and Success@Btok: the documents of the longest prefix of the ranked,
deduplicated chunk list whose chunks sum to at most B tokens (a chunk counts only if it fits
whole; the first that does not fit ends the context). --truncate builds the context as RAG
systems do: the first chunk or document that does not fit is cut to the tokens left, and taken
(R(trunc)@Btok ...); its document counts as in the context. Budgets count the map's tokens:
` + "`ranklab beir run --map`" + ` names them on the map's first line ("# tokens: cl100k_base" for
bm25 and qld, "# tokens: all-MiniLM-L6-v2 WordPiece" for minilm), and the report repeats it, so
two budget tables in different units are not set side by side unawares. With --passages (judged spans, one a line
"query-id doc-id start end grade" in the map's token unit), chunks are also judged by span
overlap, and SpanR@Btok and SpanP@Btok give the share of the judged tokens a context covers
and of the context's tokens that are judged relevant.
`

func runRAG(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("ranklab rag", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() { fmt.Fprint(stderr, ragUsage); fs.PrintDefaults() }
	mapFile := fs.String("map", "", "chunk map `FILE` (required)")
	k := numflag.NewInt(fs, "k", 10, "chunks in the deduplicated top-k view")
	var ms stringList
	fs.Var(&ms, "m", "a document measure, repeatable (default nDCG@10 and R@100)")
	budgets := fs.String("budgets", "", "comma-separated token budgets, e.g. 512,1024,2048")
	passages := fs.String("passages", "", "passage qrels `FILE` (judged spans)")
	truncate := fs.Bool("truncate", false, "budgets: cut the first chunk that does not fit to the tokens left, as RAG systems do")
	format := fs.String("f", "text", "output format: text or json")
	seed := numflag.NewUint64(fs, "seed", 0, "seed of the randomization test and the bootstrap (0: 42)")
	stamp := fs.Bool("stamp", false, "stamp the text output too (json carries the provenance stamp by default)")
	noStamp := fs.Bool("no-stamp", false, "no provenance stamp")
	files, err := parseInterleaved(fs, args)
	if err != nil {
		return flagStatus(err, 2)
	}
	fail := failer(stderr, "ranklab rag")
	if len(files) != 2 {
		return fail(2, "want QRELS and CHUNK_RUN, got %d file(s)", len(files))
	}
	if *mapFile == "" {
		return fail(2, "--map is required (chunk-id doc-id start end)")
	}
	if *k < 1 {
		return fail(2, "--k %d: want at least 1", *k)
	}
	if *format != "text" && *format != "json" {
		return fail(2, "-f %q: want text or json", *format)
	}
	if len(ms) == 0 {
		ms = stringList{"nDCG@10", "R@100"}
	}
	measures, err := eval.ParseMeasures(ms...)
	if err != nil {
		return fail(2, "%v", err)
	}
	var bs []int
	if *budgets != "" {
		for _, f := range strings.Split(*budgets, ",") {
			b, err := numflag.Int(strings.TrimSpace(f))
			if err != nil || b < 1 {
				return fail(2, "--budgets: %q is not a token count >= 1", f)
			}
			bs = append(bs, b)
		}
	}
	qrels, err := eval.ReadQrelsFile(files[0])
	if err != nil {
		return fail(1, "%v", err)
	}
	run, err := readRunArg(files[1])
	if err != nil {
		return fail(1, "%v", err)
	}
	m, err := rag.ReadChunkMapFile(*mapFile)
	if err != nil {
		return fail(1, "%v", err)
	}
	unit := mapUnit(*mapFile)
	var pq rag.PassageQrels
	if *passages != "" {
		if pq, err = rag.ReadPassageQrelsFile(*passages); err != nil {
			return fail(1, "%v", err)
		}
	}
	vs, err := rag.Variants(run, m, *k)
	if err != nil {
		return fail(1, "%s: %v", files[1], err)
	}
	// The documents of a chunk run may lie deeper than a pool judged (eval's and compare's
	// judged-depth warnings), read on its MaxP documents; only for qrels from a pool (a grade 0).
	if ks := judgedCutoffs(measures); len(ks) > 0 && pooledQrels(qrels, 0) {
		for _, v := range vs {
			if v.Tag != rag.MaxP.Label() {
				continue
			}
			res, err := eval.Options{}.Evaluate(qrels, v, judgedMeasures(ks)...)
			if err != nil {
				return fail(1, "%v", err)
			}
			for _, w := range judgedWarnings(res, files[1]+" (its MaxP documents)", files[0], ks) {
				fmt.Fprintf(stderr, "ranklab rag: warning: %s\n", escapeText(w))
			}
		}
	}
	report, err := compare.Options{Seed: *seed, Eval: eval.Options{AllQueries: true}}.Runs(qrels, measures, vs...)
	if err != nil {
		return fail(1, "%v", err)
	}
	var budget, spans rag.BudgetResult
	var chunkLevel eval.Result
	if len(bs) > 0 {
		bms := rag.BudgetMeasures(bs...)
		for i := range bms {
			bms[i].Truncate = *truncate
		}
		if budget, err = rag.EvaluateBudgets(qrels, run, m, eval.Options{}, bms...); err != nil {
			return fail(1, "%v", err)
		}
	}
	if pq != nil {
		if chunkLevel, err = (eval.Options{AllQueries: true}).Evaluate(pq.ChunkQrels(m), run, measures...); err != nil {
			return fail(1, "chunk level: %v", err)
		}
		if len(bs) > 0 {
			var sm []rag.BudgetMeasure
			for _, b := range bs {
				sm = append(sm, rag.SpanRecallAt(b), rag.SpanPrecisionAt(b))
			}
			for i := range sm {
				sm[i].Truncate = *truncate
			}
			if spans, err = rag.EvaluatePassages(pq, run, m, eval.Options{}, sm...); err != nil {
				return fail(1, "%v", err)
			}
		}
	}
	var out bytes.Buffer
	if *format == "json" {
		err = writeRAGJSON(&out, report, budget, chunkLevel, spans, unit)
	} else {
		err = writeRAGText(&out, report, budget, chunkLevel, spans, unit)
	}
	data := out.Bytes()
	if err == nil && wantStamp(*format, *stamp, *noStamp) {
		in := []provenance.File{{Role: "qrels", Path: files[0]}, {Role: "chunk run", Path: files[1]}, {Role: "chunk map", Path: *mapFile}}
		if *passages != "" {
			in = append(in, provenance.File{Role: "passage qrels", Path: *passages})
		}
		conv := append(compareConventions(compare.Options{Seed: *seed, Eval: eval.Options{AllQueries: true}}, measures),
			"document views: top-k chunks deduplicated, MaxP, FirstP, SumP; each document once",
			budgetConvention(*truncate, unit))
		var st provenance.Stamp
		if st, err = provenance.New("ranklab rag", args, conv, in...); err == nil {
			data, err = st.Append(*format, data)
		}
	}
	if err == nil {
		_, err = stdout.Write(data)
	}
	if err != nil {
		return fail(1, "%v", err)
	}
	return 0
}

// mapUnit returns the token unit a chunk map names on its first line ("# tokens: NAME", as
// beir run --map writes it), or "" when it names none.
func mapUnit(path string) string {
	r, closeMap, err := scan.Open(path)
	if err != nil {
		return ""
	}
	defer closeMap()
	lines := scan.NewLines(r)
	if !lines.Next() {
		return ""
	}
	unit, ok := strings.CutPrefix(scan.TrimSpace(string(lines.Bytes())), mapUnitPrefix)
	if !ok {
		return ""
	}
	return escapeText(scan.TrimSpace(unit))
}

// mapUnitPrefix starts the comment line that names a chunk map's token unit.
const mapUnitPrefix = "# tokens:"

// budgetUnit says what a budget's tokens are, for a heading.
func budgetUnit(unit string) string {
	if unit == "" {
		return "tokens of the chunk map's unit (its first line names none)"
	}
	return unit + " tokens"
}

// budgetConvention is the stamp's line on budgets.
func budgetConvention(truncate bool, unit string) string {
	if truncate {
		return "budget (" + budgetUnit(unit) + "): the deduplicated ranked chunks within B tokens, the first that does not fit cut to the tokens left"
	}
	return "budget (" + budgetUnit(unit) + "): the longest prefix of the deduplicated ranked chunks within B tokens; a chunk counts only whole"
}

func writeRAGText(w io.Writer, report compare.Report, budget rag.BudgetResult, chunkLevel eval.Result, spans rag.BudgetResult, unit string) error {
	fmt.Fprintln(w, "Document views of the chunk run (each document once; paired against the first view):")
	if _, err := io.WriteString(w, report.Text()); err != nil {
		return err
	}
	if len(budget.Measures) > 0 {
		fmt.Fprintf(w, "\nToken budgets in %s (%d queries; a query whose context is empty scores 0):\n", budgetUnit(unit), len(budget.Queries))
		writeBudgetMeans(w, budget)
	}
	if len(chunkLevel.Measures) > 0 {
		fmt.Fprintf(w, "\nChunk level, chunks judged by span overlap with the passage qrels (%d queries):\n", len(chunkLevel.Queries))
		for _, m := range chunkLevel.Measures {
			fmt.Fprintf(w, "  %-10s %.4f\n", m, chunkLevel.Mean(m))
		}
	}
	if len(spans.Measures) > 0 {
		fmt.Fprintf(w, "\nJudged spans covered at each budget in %s (%d queries):\n", budgetUnit(unit), len(spans.Queries))
		writeBudgetMeans(w, spans)
	}
	return nil
}

// writeBudgetMeans prints one line per budget with the mean of each measure at that budget.
func writeBudgetMeans(w io.Writer, r rag.BudgetResult) {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	var order []int
	byBudget := map[int][]rag.BudgetMeasure{}
	for _, m := range r.Measures {
		if _, ok := byBudget[m.Tokens]; !ok {
			order = append(order, m.Tokens)
		}
		byBudget[m.Tokens] = append(byBudget[m.Tokens], m)
	}
	for _, b := range order {
		fmt.Fprint(tw, "  ")
		for _, m := range byBudget[b] {
			fmt.Fprintf(tw, "%s\t%.4f\t", m, r.Mean(m))
		}
		fmt.Fprintln(tw)
	}
	tw.Flush()
}

func writeRAGJSON(w io.Writer, report compare.Report, budget rag.BudgetResult, chunkLevel eval.Result, spans rag.BudgetResult, unit string) error {
	means := func(r rag.BudgetResult) map[string]float64 {
		if len(r.Measures) == 0 {
			return nil
		}
		out := map[string]float64{}
		for _, m := range r.Measures {
			out[m.String()] = r.Mean(m)
		}
		return out
	}
	var chunk map[string]float64
	if len(chunkLevel.Measures) > 0 {
		chunk = map[string]float64{}
		for _, m := range chunkLevel.Measures {
			chunk[m.String()] = chunkLevel.Mean(m)
		}
	}
	views, err := report.Format("json")
	if err != nil {
		return err
	}
	return writeJSON(w, struct {
		Views      json.RawMessage    `json:"views"`
		Budgets    map[string]float64 `json:"budgets,omitempty"`
		ChunkLevel map[string]float64 `json:"chunk_level,omitempty"`
		Spans      map[string]float64 `json:"spans,omitempty"`
		Tokens     string             `json:"tokens"` // the budgets' unit, "" when the map names none
	}{json.RawMessage(views), means(budget), chunk, means(spans), unit})
}
