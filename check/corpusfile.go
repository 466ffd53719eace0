package check

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/ranklab/ranklab/eval"
	"github.com/ranklab/ranklab/internal/scan"
	"github.com/ranklab/ranklab/retrieval"
)

// Codes of the corpus preflight's own findings (parse, empty, bom, id-characters and
// duplicate-doc are shared with the qrels and runs).
const (
	codeEmptyDoc = "empty-doc" // a document whose title and text hold no word
)

// CorpusFile is the preflight of a corpus: it reads path (a BEIR folder holding corpus.jsonl or
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
// through Twins with qrels (nil: none) and opt, and are returned. The error is for a file that
// cannot be opened or read at all.
func CorpusFile(path string, qrels eval.Qrels, opt TwinOptions) (TwinReport, []retrieval.Document, error) {
	in, name, closeFn, err := openCorpus(path)
	if err != nil {
		return TwinReport{}, nil, err
	}
	defer closeFn()
	docs, findings := readCorpus(in, name)
	r := TwinReport{Docs: len(docs)}
	if !opt.LinesOnly {
		r = Twins(docs, qrels, opt)
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
		return nil, path, nil, openErr(path, err)
	}
	return in, path, closeFn, nil
}

// readCorpus reads a corpus.jsonl leniently: every line, every problem a finding.
func readCorpus(in io.Reader, path string) ([]retrieval.Document, []Finding) {
	r := &reader{path: path, ids: map[string]bool{}}
	var docs []retrieval.Document
	first := map[string]int{}
	var data int
	n := r.lines(in, func(b []byte, n int) {
		line := scan.TrimSpace(string(b))
		if line == "" {
			return
		}
		data++
		var obj map[string]json.RawMessage
		if err := json.Unmarshal([]byte(line), &obj); err != nil || obj == nil {
			msg := "null"
			if err != nil {
				msg = err.Error()
			}
			r.add(Error, codeParse, n, "", "not a JSON object: %s", msg)
			return
		}
		field := func(key string, optional bool) (string, bool) {
			raw, ok := obj[key]
			if !ok {
				if !optional {
					r.add(Error, codeParse, n, "", "missing field %q", key)
				}
				return "", optional
			}
			var s string
			if err := json.Unmarshal(raw, &s); err != nil || string(raw) == "null" {
				r.add(Error, codeParse, n, "", "field %q: want a string, got %.40s", key, raw)
				return "", false
			}
			return s, true
		}
		id, okID := field("_id", false)
		title, okTitle := field("title", true)
		text, okText := field("text", false)
		if !okID {
			return
		}
		if why, _ := scan.IDProblem(id); why != "" {
			r.add(Error, codeIDChars, n, "", "document \"_id\" %q %s", id, why)
			okID = false
		}
		if prev, dup := first[id]; dup {
			r.add(Error, codeDuplicate, n, "", "document %q listed twice (first on line %d)", id, prev)
			return
		}
		first[id] = n
		if !okID || !okTitle || !okText {
			return
		}
		if strings.TrimSpace(title+" "+text) == "" || normalText(retrieval.Document{Title: title, Text: text}) == "" {
			r.add(Warning, codeEmptyDoc, n, "", "document %q has no text: no retriever can find it by its words", id)
		}
		docs = append(docs, retrieval.Document{ID: id, Title: title, Text: text})
	})
	if n > 0 && data == 0 {
		r.add(Error, codeEmpty, 0, "", "no document")
	}
	return docs, r.findings
}
