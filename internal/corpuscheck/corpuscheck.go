// Package corpuscheck is the corpus preflight of ranklab check --corpus and beir run: a BEIR
// corpus.jsonl read leniently, every line, every problem a check.Finding with its line, then
// check.Twins on the documents that read. It lives apart from package check to keep the public
// API small; its findings use check's types and codes.
package corpuscheck

import (
	"encoding/json"
	"unicode/utf8"

	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/ranklab/ranklab/check"

	"github.com/ranklab/ranklab/eval"
	"github.com/ranklab/ranklab/internal/scan"
	"github.com/ranklab/ranklab/retrieval"
)

// The codes of the findings, as package check names them.
const (
	codeParse     = "parse"
	codeEmpty     = "empty"
	codeBOM       = "bom"
	codeIDChars   = "id-characters"
	codeDuplicate = "duplicate-doc"
	codeEmptyDoc  = "empty-doc" // a document whose text holds no word (its title may)
)

// File is the preflight of a corpus: it reads path (a BEIR folder holding corpus.jsonl or
// corpus.jsonl.gz, or such a file, gzip known by its magic bytes whatever the name) leniently,
// every line, and reports in TwinReport.Findings, each with its line:
//
//	parse          error    a line that is not a JSON object, a missing or non-string "_id" or
//	                        "text", a non-string "title"; an empty file
//	id-characters  error    an "_id" a run file cannot carry or that is not what it looks like
//	                        (scan.IDProblem: white space, control characters, U+00A0, U+200B, a
//	                        leading U+FEFF, invalid UTF-8)
//	duplicate-doc  error    an "_id" seen on an earlier line
//	bom            warning  a byte order mark (dropped)
//	empty-doc      warning  a document whose title and text hold no word: no retriever can find
//	                        it by its text
//
// nothing stopping at the first. The documents that read (those with an error left out) then go
// through check.Twins with qrels (nil: none) and opt, unless linesOnly (beir run's preflight),
// and are returned. The error is for a file that cannot be opened or read at all.
func File(path string, qrels eval.Qrels, opt check.TwinOptions, linesOnly bool) (check.TwinReport, []retrieval.Document, error) {
	in, name, closeFn, err := openCorpus(path)
	if err != nil {
		return check.TwinReport{}, nil, err
	}
	defer closeFn()
	docs, findings := readCorpus(in, name)
	r := check.TwinReport{Docs: len(docs)}
	if !linesOnly {
		r = check.Twins(docs, qrels, opt)
	}
	r.File = name
	r.Findings = append(findings, r.Findings...)
	return r, docs, nil
}

// openCorpus opens a corpus file, or a BEIR folder's corpus.jsonl (else corpus.jsonl.gz).
func openCorpus(path string) (io.Reader, string, func() error, error) {
	st, err := os.Stat(path)
	if err != nil {
		return nil, path, nil, err
	}
	if st.IsDir() {
		name := filepath.Join(path, "corpus.jsonl")
		if _, err := os.Stat(name); errors.Is(err, fs.ErrNotExist) {
			if _, gzErr := os.Stat(name + ".gz"); gzErr == nil {
				name += ".gz"
			} else {
				return nil, name, nil, fmt.Errorf("%s: neither it nor corpus.jsonl.gz exists", name)
			}
		}
		path = name
	}
	in, closeFn, err := scan.Open(path)
	if err != nil {
		var pe *fs.PathError
		if errors.As(err, &pe) {
			return nil, path, nil, err
		}
		return nil, path, nil, fmt.Errorf("%s:1: %w", path, err)
	}
	return in, path, closeFn, nil
}

// readCorpus reads a corpus.jsonl leniently: every line, every problem a finding.
func readCorpus(in io.Reader, path string) ([]retrieval.Document, []check.Finding) {
	var findings []check.Finding
	add := func(sev check.Severity, code string, line int, format string, args ...any) {
		findings = append(findings, check.Finding{Severity: sev, Code: code, File: path, Line: line, Message: fmt.Sprintf(format, args...)})
	}
	var docs []retrieval.Document
	first := map[string]int{}
	data := 0
	lines := scan.NewLines(in)
	n := 0
	for lines.Next() {
		n = lines.Line()
		if n == 1 && lines.BOM() {
			add(check.Warning, codeBOM, 1, "the file starts with a UTF-8 byte order mark (dropped)")
		}
		line := scan.TrimSpace(string(lines.Bytes()))
		if line == "" {
			continue
		}
		data++
		if !utf8.ValidString(line) { // encoding/json would turn the bytes into U+FFFD: another ID
			add(check.Error, codeParse, n, "not valid UTF-8 (a JSON text is UTF-8; the bytes would read as U+FFFD)")
			continue
		}
		var obj map[string]json.RawMessage
		if err := json.Unmarshal([]byte(line), &obj); err != nil || obj == nil {
			msg := "null"
			if err != nil {
				msg = err.Error()
			}
			add(check.Error, codeParse, n, "not a JSON object: %s", msg)
			continue
		}
		field := func(key string, optional bool) (string, bool) {
			raw, ok := obj[key]
			if !ok {
				if !optional {
					add(check.Error, codeParse, n, "missing field %q", key)
				}
				return "", optional
			}
			var s string
			if err := json.Unmarshal(raw, &s); err != nil || string(raw) == "null" {
				add(check.Error, codeParse, n, "field %q: want a string, got %.40s", key, raw)
				return "", false
			}
			return s, true
		}
		id, okID := field("_id", false)
		title, okTitle := field("title", true)
		text, okText := field("text", false)
		if !okID {
			continue
		}
		if why, _ := scan.IDProblem(id); why != "" {
			add(check.Error, codeIDChars, n, "document \"_id\" %q %s", id, why)
			okID = false
		}
		if prev, dup := first[id]; dup {
			add(check.Error, codeDuplicate, n, "document %q listed twice (first on line %d)", id, prev)
			continue
		}
		first[id] = n
		if !okID || !okTitle || !okText {
			continue
		}
		// One rule with corpus import, check's Twins and the judging panel: a document has no
		// text when its text holds no word, whatever its title (a heading with nothing under it).
		if strings.TrimSpace(text) == "" {
			if strings.TrimSpace(title) == "" {
				add(check.Warning, codeEmptyDoc, n, "document %q has no text: no retriever can find it by its words", id)
			} else {
				add(check.Warning, codeEmptyDoc, n, "document %q has a title and no text: only its title's words can match, and it answers nothing", id)
			}
		}
		docs = append(docs, retrieval.Document{ID: id, Title: title, Text: text})
	}
	if err := lines.Err(); err != nil {
		add(check.Error, codeParse, n+1, "%v", scan.ReadError(err))
	}
	switch {
	case n == 0:
		add(check.Error, codeEmpty, 0, "the file is empty")
	case data == 0:
		add(check.Error, codeEmpty, 0, "no document")
	}
	return docs, findings
}
