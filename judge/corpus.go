package judge

import (
	"fmt"
	"io"
	"os"
	"path/filepath"

	"github.com/ranklab/ranklab/internal/scan"
	"github.com/ranklab/ranklab/pool"
	"github.com/ranklab/ranklab/retrieval"
)

// docTexts holds what the panel shows: each pool document's title and text and each query's text.
type docTexts struct {
	Docs    map[string]retrieval.Document
	Queries map[string]string
}

// loadTexts reads the documents and queries of pairs. corpus is a BEIR folder (corpus.jsonl or
// corpus.jsonl.gz, and queries.jsonl, read with retrieval's BEIR readers: SciFact, Cranfield, a
// user's own) or a JSONL corpus file in BEIR's format ({"_id", "title", "text"}, optionally
// gzipped, known by its magic bytes); queries is the queries JSONL file, "" for the folder's queries.jsonl. A pair whose
// document or query is missing is an error naming it: a pool must match its corpus.
func loadTexts(pairs []pool.Pair, corpus, queries string) (docTexts, error) {
	st, err := os.Stat(corpus)
	if err != nil {
		return docTexts{}, err
	}
	var docs []retrieval.Document
	var qs []retrieval.Query
	if st.IsDir() {
		if docs, err = retrieval.ReadCorpusFile(corpus); err != nil {
			return docTexts{}, err
		}
		if queries == "" {
			qs, err = retrieval.ReadQueriesFile(corpus)
		}
	} else {
		err = readFile(corpus, func(r io.Reader) (err error) { docs, err = retrieval.ReadCorpus(r, corpus); return })
		if err == nil && queries == "" {
			err = fmt.Errorf("%s is a file: give the queries file too", corpus)
		}
	}
	if err != nil {
		return docTexts{}, err
	}
	if queries != "" {
		if err := readFile(queries, func(r io.Reader) (err error) { qs, err = retrieval.ReadQueries(r, queries); return }); err != nil {
			return docTexts{}, err
		}
	}
	need := map[string]bool{}
	needQ := map[string]bool{}
	for _, p := range pairs {
		need[p.Doc], needQ[p.Query] = true, true
	}
	t := docTexts{Docs: map[string]retrieval.Document{}, Queries: map[string]string{}}
	for _, d := range docs {
		if need[d.ID] {
			t.Docs[d.ID] = d
		}
	}
	for _, q := range qs {
		if needQ[q.ID] {
			t.Queries[q.ID] = q.Text
		}
	}
	for _, p := range pairs {
		if _, ok := t.Docs[p.Doc]; !ok {
			return docTexts{}, fmt.Errorf("judge: the pool's document %q (query %q) is not in %s", p.Doc, p.Query, corpus)
		}
		if _, ok := t.Queries[p.Query]; !ok {
			where := queries
			if where == "" {
				where = filepath.Join(corpus, "queries.jsonl")
			}
			return docTexts{}, fmt.Errorf("judge: the pool's query %q is not in %s", p.Query, where)
		}
	}
	return t, nil
}

// readFile opens path through internal/scan, as every ranklab reader does (gzip known by its
// magic bytes whatever the name, zero padding read as gzip -d reads it), and calls read.
func readFile(path string, read func(io.Reader) error) error {
	r, closeFn, err := scan.Open(path)
	if err != nil {
		return err
	}
	defer closeFn()
	return read(r)
}
