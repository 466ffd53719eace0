package main

import (
	"bytes"
	"flag"
	"fmt"
	"io"
	"strings"

	"github.com/ranklab/ranklab/internal/corpuscheck"

	"github.com/ranklab/ranklab/internal/numflag"

	"github.com/ranklab/ranklab/check"
	"github.com/ranklab/ranklab/eval"
	"github.com/ranklab/ranklab/internal/words"
	"github.com/ranklab/ranklab/provenance"
	"github.com/ranklab/ranklab/retrieval"
)

const checkCorpusUsage = `usage: ranklab check --corpus CORPUS [--qrels QRELS] [--threshold 0.9] [--examples 5] [--json] [--no-stamp]

The collection preflight of CORPUS (a BEIR folder holding corpus.jsonl or corpus.jsonl.gz, or
such a file; gzip is known by its magic bytes, whatever the name). Every line is read, and
every problem is printed with its line, none stopping the others: lines that are not a JSON
object or lack a string "_id" or "text", IDs a run file cannot carry or that are not what they
look like (white space, control characters, U+00A0, U+200B, a leading U+FEFF), IDs listed twice
(errors), documents with no text (warnings). ranklab beir run makes the same check before it
retrieves or embeds anything.

Then the documents with the same text under different IDs: exact twins (after lower-casing and
collapsing white space; title and text together), as groups, and near twins (Jaccard of word
5-shingles >= --threshold): every pair of texts verified up to 2,000 texts, else MinHash
candidates with bands and rows shaped for the threshold (the output states the chance of a
miss), each verified exactly; and with QRELS the judged documents with a twin that the same
query does not judge: a retriever that returns the twin is counted wrong. The check package
doc (Twins) states the rules. Exit status 1 when a line has an error.
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
	for _, a := range args { // -h anywhere, also right after --corpus (which would take it as its value)
		if a == "--" {
			break
		}
		if a == "-h" || a == "-help" || a == "--help" {
			fs.Usage()
			return 0
		}
	}
	if status, ok := parseArgs(fs, args); !ok {
		return status
	}
	fail := failer(stderr, "ranklab check")
	switch {
	case !(*threshold > 0 && *threshold <= 1):
		return fail(2, "--threshold %v: want a Jaccard similarity in (0, 1]", *threshold)
	case *examples < 0:
		return fail(2, "--examples %d: want 0 or more", *examples)
	case *corpus == "":
		return fail(2, "--corpus: want a BEIR folder or a corpus.jsonl file")
	}
	var qrels eval.Qrels
	var err error
	if *qrelsPath != "" {
		if qrels, err = eval.ReadQrelsFile(*qrelsPath); err != nil {
			return fail(1, "%v", err)
		}
	}
	r, docs, err := corpuscheck.File(*corpus, qrels, check.TwinOptions{Threshold: *threshold}, false)
	if err != nil {
		return fail(1, "%v", err)
	}
	if *asJSON {
		var b bytes.Buffer
		if err = writeJSON(&b, r); err == nil && !*noStamp {
			in := []provenance.File{{Role: "corpus", Path: *corpus}}
			if *qrelsPath != "" {
				in = append(in, provenance.File{Role: "qrels", Path: *qrelsPath})
			}
			err = stampJSON(&b, "ranklab check --corpus", args, []string{fmt.Sprintf(
				"text: title and text, lower-cased, white space collapsed; near twins: Jaccard of word 5-shingles >= %g, %s", r.Threshold, nearMethod(r))}, in)
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
	if corpusErrors(r) > 0 {
		return 1
	}
	return 0
}

// corpusErrors counts the preflight's errors.
func corpusErrors(r check.TwinReport) int {
	n := 0
	for _, f := range r.Findings {
		if f.Severity == check.Error {
			n++
		}
	}
	return n
}

// maxFindingsShown is how many findings of one code the text prints (--json lists every one).
const maxFindingsShown = 100

// writeCorpusFindings prints the preflight's findings, errors first, each "file:line: severity:
// message", up to maxFindingsShown of a code, then a count.
func writeCorpusFindings(w io.Writer, r check.TwinReport) {
	shown := map[string]int{}
	var codes []string
	for _, sev := range []check.Severity{check.Error, check.Warning, check.Info} {
		for _, f := range r.Findings {
			if f.Severity != sev {
				continue
			}
			if shown[f.Code] == 0 {
				codes = append(codes, f.Code)
			}
			if shown[f.Code]++; shown[f.Code] <= maxFindingsShown {
				fmt.Fprintln(w, f.String())
			}
		}
	}
	for _, code := range codes {
		if n := shown[code]; n > maxFindingsShown {
			fmt.Fprintf(w, "%s: ... %d more %s findings (--json lists every one)\n", r.File, n-maxFindingsShown, code)
		}
	}
	errs := corpusErrors(r)
	fmt.Fprintf(w, "%s: %d %s, %d %s\n", r.File, errs, words.Plural(errs, "error", "errors"), len(r.Findings)-errs, words.Plural(len(r.Findings)-errs, "warning", "warnings"))
}

// nearMethod says how near twins were searched, and how sure a count is.
func nearMethod(r check.TwinReport) string {
	switch {
	case r.Refused != "":
		return "not searched: " + r.Refused
	case r.Method == "minhash":
		return fmt.Sprintf("MinHash candidates, %d bands x %d rows (a pair at the threshold missed with probability %.1g), each verified", r.Bands, r.Rows, r.Miss)
	}
	return "every pair of texts verified"
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
	writeCorpusFindings(w, r)
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
	fmt.Fprintf(w, "near twins (Jaccard of word 5-shingles >= %g, not exact; pairs of groups, each named by its first ID): %d %s (%s; %d pairs of texts verified)\n",
		r.Threshold, len(r.Near), words.Plural(len(r.Near), "pair", "pairs"), nearMethod(r), r.Candidates)
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
	if r.TwinPairsOmitted > 0 {
		fmt.Fprintf(w, "  (%d more unjudged twins beyond the 20 listed per judged pair)\n", r.TwinPairsOmitted)
	}
	return nil
}
