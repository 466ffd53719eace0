package corpus

import (
	"bufio"
	"io"
	"os"
	"path/filepath"

	"github.com/ranklab/ranklab/internal/atomicfile"
	"github.com/ranklab/ranklab/internal/jsonx"
	"github.com/ranklab/ranklab/retrieval"
)

// Write writes docs to dir/corpus.jsonl ({"_id", "title", "text"} a line, in order) and, when
// queries is not nil, queries to dir/queries.jsonl ({"_id", "text"}), making dir if needed.
// Each file is written to a temporary file and renamed, so a failed write leaves the old one.
// Invalid UTF-8 is escaped losslessly (internal/jsonx).
func Write(dir string, docs []retrieval.Document, queries []retrieval.Query) error {
	if err := os.MkdirAll(dir, 0o777); err != nil {
		return err
	}
	type doc struct {
		ID    string `json:"_id"`
		Title string `json:"title"`
		Text  string `json:"text"`
	}
	err := atomicfile.Write(filepath.Join(dir, "corpus.jsonl"), func(w io.Writer) error {
		bw := bufio.NewWriter(w)
		for _, d := range docs {
			if err := line(bw, doc{d.ID, d.Title, d.Text}); err != nil {
				return err
			}
		}
		return bw.Flush()
	})
	if err != nil || queries == nil {
		return err
	}
	type query struct {
		ID   string `json:"_id"`
		Text string `json:"text"`
	}
	return atomicfile.Write(filepath.Join(dir, "queries.jsonl"), func(w io.Writer) error {
		bw := bufio.NewWriter(w)
		for _, q := range queries {
			if err := line(bw, query{q.ID, q.Text}); err != nil {
				return err
			}
		}
		return bw.Flush()
	})
}

// line writes v as one JSON line.
func line(w io.Writer, v any) error {
	b, err := jsonx.Encode(v, "", "", false) // "<" stays "<": HTML text reads as written
	if err != nil {
		return err
	}
	_, err = w.Write(b)
	return err
}
