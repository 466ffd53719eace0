package main

import (
	"flag"
	"fmt"
	"io"
	"maps"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/ranklab/ranklab/corpus"
	"github.com/ranklab/ranklab/internal/numflag"
	"github.com/ranklab/ranklab/internal/scan"
	"github.com/ranklab/ranklab/internal/words"
	"github.com/ranklab/ranklab/retrieval"
)

func init() {
	commands["corpus"] = command{summary: "a collection from your own files: corpus.jsonl from a folder of text, Markdown, HTML, PDF, CSV or JSON Lines", run: runCorpus}
}

const corpusUsage = `usage:
  ranklab corpus import [--split-on file|headings] [--level N] [--id F --title F --text F] [--questions FILE] --out DIR PATH...

Reads the documents of each PATH (a folder, walked, or a file) and writes DIR/corpus.jsonl, with
--questions also DIR/queries.jsonl: a BEIR collection for ranklab beir run --data DIR.
  .txt .text            one document per file
  .md .markdown         one per file, titled by its first heading, or one per heading (--split-on headings)
  .html .htm            the same, from the visible text (h1-h6; <title> when there is no heading)
  .pdf                  one per file, its text through github.com/ledongthuc/pdf (NFKC: "ﬁ" reads "fi")
  .csv .jsonl .ndjson   one per row, from the fields --id (default _id, or id), --title, --text
Other files are listed and skipped; names starting with "." are passed over. A document's ID is
its path under the folder ("guide/setup.md"), with "_" for white space and other characters a
TREC file cannot carry; a section's is path:slug ("guide/setup.md:install-go"). Questions: one a
line ("ID<tab>question" names its ID; else the ID is the question's slug, so it never moves to
another question when you add, remove or reorder lines); # lines and blank lines skipped.
The corpus format: one JSON object a line, "_id" a non-empty string, "title" optional, "text".`

func runCorpus(args []string, stdout, stderr io.Writer) int {
	return runAction("ranklab corpus", "action", corpusUsage, []action{{"import", corpusImport}}, args, stdout, stderr)
}

// corpusImport writes a collection from files.
func corpusImport(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("ranklab corpus import", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() { fmt.Fprintln(stderr, corpusUsage); fs.PrintDefaults() }
	var opt corpus.Options
	fs.StringVar(&opt.SplitOn, "split-on", "file", "one document per `file`, or per heading of Markdown and HTML (headings)")
	level := numflag.NewInt(fs, "level", 6, "with --split-on headings: the deepest heading `level` that starts a document (1-6)")
	fs.StringVar(&opt.IDField, "id", "", "CSV and JSON Lines: the `field` of the ID (default _id, or id)")
	fs.StringVar(&opt.TitleField, "title", "", "CSV and JSON Lines: the `field` of the title (default title; optional)")
	fs.StringVar(&opt.TextField, "text", "", "CSV and JSON Lines: the `field` of the text (default text)")
	questions := fs.String("questions", "", "plain text `FILE` of questions, one a line: written as DIR/queries.jsonl")
	out := fs.String("out", "", "the collection's folder `DIR` (required)")
	pos, err := parseInterleaved(fs, args)
	if err != nil {
		return flagStatus(err, 2)
	}
	fail := failer(stderr, "ranklab corpus import")
	if *out == "" {
		return fail(2, "--out is required")
	}
	if len(pos) == 0 {
		return fail(2, "name a folder or files to import")
	}
	opt.Level = *level
	t0 := time.Now()
	im, err := corpus.Import(pos, opt)
	if err != nil {
		return fail(1, "%v", err)
	}
	if len(im.Docs) == 0 {
		return fail(1, "no document in %s (%s)", strings.Join(pos, ", "), skippedNote(im.Skipped))
	}
	var qs []retrieval.Query
	if *questions != "" {
		r, closeQ, err := scan.Open(*questions)
		if err != nil {
			return fail(1, "%v", err)
		}
		qs, err = corpus.ReadQuestions(r, *questions)
		closeQ()
		if err != nil {
			return fail(1, "%v", err)
		}
	}
	if err := corpus.Write(*out, im.Docs, qs); err != nil {
		return fail(1, "%v", err)
	}
	var kinds []string
	for _, k := range slices.Sorted(maps.Keys(im.Files)) {
		kinds = append(kinds, fmt.Sprintf("%d %s", im.Files[k], k))
	}
	fmt.Fprintf(stdout, "%d %s (%s) -> %d %s in %s (%.1f s)\n", filesRead(im), words.Plural(filesRead(im), "file", "files"),
		strings.Join(kinds, ", "), len(im.Docs), words.Plural(len(im.Docs), "document", "documents"), filepath.Join(*out, "corpus.jsonl"), time.Since(t0).Seconds())
	if qs != nil {
		fmt.Fprintf(stdout, "%d %s -> %s\n", len(qs), words.Plural(len(qs), "question", "questions"), filepath.Join(*out, "queries.jsonl"))
	}
	if len(im.Skipped) > 0 {
		fmt.Fprintf(stderr, "ranklab corpus import: %s\n", skippedNote(im.Skipped))
	}
	if len(im.Empty) > 0 {
		fmt.Fprintf(stderr, "ranklab corpus import: %d %s with no text (kept, so the documents match your files; a PDF of scanned pages needs OCR first): %s\n",
			len(im.Empty), words.Plural(len(im.Empty), "document", "documents"), words.IDs(im.Empty))
	}
	if len(im.Replaced) > 0 {
		fmt.Fprintf(stderr, "ranklab corpus import: %d %s not UTF-8, invalid bytes replaced by U+FFFD: %s\n",
			len(im.Replaced), words.Plural(len(im.Replaced), "file", "files"), words.IDs(im.Replaced))
	}
	if qs == nil {
		fmt.Fprintf(stdout, "next: write your questions one a line and add --questions FILE, then ranklab beir run --data %s --out bm25.run\n", *out)
	} else {
		fmt.Fprintf(stdout, "next: ranklab beir run --data %s --out bm25.run\n", *out)
	}
	return 0
}

func filesRead(im corpus.Imported) int {
	n := 0
	for _, c := range im.Files {
		n += c
	}
	return n
}

// skippedNote says which files were not read.
func skippedNote(skipped []string) string {
	if len(skipped) == 0 {
		return "no file of a type it reads"
	}
	var shown []string
	for _, p := range skipped[:min(len(skipped), 10)] {
		if q := strconv.Quote(p); q[1:len(q)-1] != p || strings.ContainsAny(p, " ,") {
			p = q // a name with control characters cannot move the terminal's cursor
		}
		shown = append(shown, p)
	}
	list := strings.Join(shown, ", ")
	if len(skipped) > 10 {
		list += fmt.Sprintf(", … (%d more)", len(skipped)-10)
	}
	return fmt.Sprintf("%d %s of other types skipped: %s", len(skipped), words.Plural(len(skipped), "file", "files"), list)
}
