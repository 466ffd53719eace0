package main

import (
	"bytes"
	"compress/gzip"
	"flag"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/ranklab/ranklab/internal/numflag"

	"github.com/ranklab/ranklab/check"
	"github.com/ranklab/ranklab/eval"
	"github.com/ranklab/ranklab/internal/words"
	"github.com/ranklab/ranklab/provenance"
	"github.com/ranklab/ranklab/retrieval"
)

const checkCorpusUsage = `usage: ranklab check --corpus CORPUS [--qrels QRELS] [--threshold 0.9] [--examples 5] [--json] [--no-stamp]

The collection check: documents of CORPUS (a BEIR folder holding corpus.jsonl or corpus.jsonl.gz,
or such a file) with the same text under different IDs, exact (after lower-casing and
collapsing white space; title and text together) and near (Jaccard of word 5-shingles >=
--threshold, candidates from MinHash with 20 bands of 5 rows, each verified exactly), and with
QRELS the judged documents with a twin that the same query does not judge: a retriever that
returns the twin is counted wrong. The check package doc (Twins) states the rules.
`

// hasCorpusFlag reports whether args ask for the collection check.
func hasCorpusFlag(args []string) bool {
	for _, a := range args {
		if a == "--" {
			return false
		}
		if a == "--corpus" || a == "-corpus" || strings.HasPrefix(a, "--corpus=") || strings.HasPrefix(a, "-corpus=") {
			return true
		}
	}
	return false
}

func runCheckCorpus(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("ranklab check --corpus", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() { fmt.Fprint(stderr, checkCorpusUsage); fs.PrintDefaults() }
	corpus := fs.String("corpus", "", "BEIR folder or corpus.jsonl[.gz] `FILE`")
	qrelsPath := fs.String("qrels", "", "qrels `FILE` (TREC or BEIR TSV)")
	threshold := numflag.NewFloat64(fs, "threshold", 0.9, "near twins: Jaccard of word 5-shingles >= `J`")
	examples := numflag.NewInt(fs, "examples", 5, "print up to `N` examples of each kind")
	asJSON := fs.Bool("json", false, "the report as JSON (every group and pair), with a provenance stamp")
	noStamp := fs.Bool("no-stamp", false, "leave the stamp out of --json")
	if status, ok := parseArgs(fs, args); !ok {
		return status
	}
	fail := failer(stderr, "ranklab check")
	if !(*threshold > 0 && *threshold <= 1) {
		return fail(2, "--threshold %v: want a Jaccard similarity in (0, 1]", *threshold)
	}
	docs, err := readCorpusArg(*corpus)
	if err != nil {
		return fail(1, "%v", err)
	}
	var qrels eval.Qrels
	if *qrelsPath != "" {
		if qrels, err = eval.ReadQrelsFile(*qrelsPath); err != nil {
			return fail(1, "%v", err)
		}
	}
	r := check.Twins(docs, qrels, check.TwinOptions{Threshold: *threshold})
	if *asJSON {
		var b bytes.Buffer
		if err = writeJSON(&b, r); err == nil && !*noStamp {
			in := []provenance.File{{Role: "corpus", Path: *corpus}}
			if *qrelsPath != "" {
				in = append(in, provenance.File{Role: "qrels", Path: *qrelsPath})
			}
			err = stampJSON(&b, "ranklab check --corpus", args, []string{fmt.Sprintf(
				"text: title and text, lower-cased, white space collapsed; near twins: Jaccard of word 5-shingles >= %g, MinHash 20 bands x 5 rows, verified exactly", r.Threshold)}, in)
		}
		if err == nil {
			_, err = stdout.Write(b.Bytes())
		}
	} else {
		err = writeTwins(stdout, r, docs, qrels != nil, *examples)
	}
	if err != nil {
		return fail(1, "%v", err)
	}
	return 0
}

// readCorpusArg reads a BEIR folder's corpus, or a corpus.jsonl file (gunzipped when its name
// ends in .gz), with retrieval's reader.
func readCorpusArg(path string) ([]retrieval.Document, error) {
	st, err := os.Stat(path)
	if err != nil {
		return nil, err
	}
	if st.IsDir() {
		return retrieval.ReadCorpusFile(path)
	}
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	var r io.Reader = f
	if strings.HasSuffix(path, ".gz") {
		z, err := gzip.NewReader(f)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", path, err)
		}
		r = z
	}
	return retrieval.ReadCorpus(r, path)
}

// writeTwins prints the counts and up to n examples of each kind, with the start of each text.
func writeTwins(w io.Writer, r check.TwinReport, docs []retrieval.Document, withQrels bool, n int) error {
	byID := make(map[string]retrieval.Document, len(docs))
	for _, d := range docs {
		byID[d.ID] = d
	}
	snippet := func(id string) string {
		d := byID[id]
		s := strings.Join(strings.Fields(d.Title+" "+d.Text), " ")
		if r := []rune(s); len(r) > 70 {
			s = string(r[:70]) + "…"
		}
		return fmt.Sprintf("%q", s)
	}
	fmt.Fprintf(w, "%d documents; %d with no text", r.Docs, len(r.Empty))
	if len(r.Empty) > 0 {
		fmt.Fprintf(w, ": %s", words.IDs(r.Empty))
	}
	fmt.Fprintln(w)
	inExact := 0 // documents that have an exact twin
	for _, g := range r.Exact {
		inExact += len(g)
	}
	fmt.Fprintf(w, "exact twins (same text, other ID): %d %s, %d documents\n", len(r.Exact), words.Plural(len(r.Exact), "group", "groups"), inExact)
	for _, g := range r.Exact[:min(n, len(r.Exact))] {
		fmt.Fprintf(w, "  %s: %s\n", strings.Join(g, " = "), snippet(g[0]))
	}
	fmt.Fprintf(w, "near twins (Jaccard of word 5-shingles >= %g, not exact): %d pairs (%d candidate pairs verified)\n", r.Threshold, len(r.Near), r.Candidates)
	for _, p := range r.Near[:min(n, len(r.Near))] {
		fmt.Fprintf(w, "  %s ~ %s (J = %.3f)\n    %s\n    %s\n", p.A, p.B, p.Jaccard, snippet(p.A), snippet(p.B))
	}
	if !withQrels {
		return nil
	}
	fmt.Fprintf(w, "judged pairs: %d; with a twin the query does not judge: %d (%d of them relevant, grade >= 1); of a document with no text: %d\n",
		r.Judged, r.JudgedWithTwin, r.RelevantTwin, len(r.EmptyJudged))
	for _, p := range r.EmptyJudged[:min(n, len(r.EmptyJudged))] {
		fmt.Fprintf(w, "  query %s judges %s (grade %d), a document with no text\n", p.Query, p.Doc, p.Grade)
	}
	if len(r.Unknown) > 0 {
		fmt.Fprintf(w, "judged docs not in the corpus: %d\n", len(r.Unknown))
	}
	for _, p := range r.TwinPairs[:min(n, len(r.TwinPairs))] {
		kind := "near"
		if p.Exact {
			kind = "exact"
		}
		fmt.Fprintf(w, "  query %s: %s (grade %d) has the unjudged %s twin %s\n", p.Query, p.Doc, p.Grade, kind, p.Twin)
	}
	return nil
}
