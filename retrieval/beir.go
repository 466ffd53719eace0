package retrieval

import (
	"encoding/json"
	"errors"
	"fmt"
	"github.com/ranklab/ranklab/eval"
	"github.com/ranklab/ranklab/internal/scan"
	"io"
	"io/fs"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"unicode/utf8"
)

// Document is one corpus entry of a BEIR collection.
type Document struct {
	ID, Title, Text string
}

// Content is the one field that is tokenized, chunked and indexed: the title, a newline and
// the text ("title\ntext"); just the text when the title is empty. On SciFact this gives
// 1,660,493 cl100k_base tokens; for BM25 the separator does not matter (it is whitespace).
func (d Document) Content() string {
	if d.Title == "" {
		return d.Text
	}
	return d.Title + "\n" + d.Text
}

// Query is one query of a BEIR collection.
type Query struct {
	ID, Text string
}

// Collection is a BEIR collection read from a directory: every document (file order), the
// queries that the split's qrels judge (byte order of their IDs), and the split's qrels.
type Collection struct {
	Dir, Split string
	Docs       []Document
	Queries    []Query
	Qrels      eval.Qrels
}

// jsonLines calls fn with each non-blank line of r and its 1-based number. The lines are read
// by scan.Lines, with the rules of every ranklab reader: a UTF-8 byte-order mark at the start is
// dropped, CRLF is read, a carriage return inside a line (raw CRs are not valid in a JSON
// string either), a line that is not valid UTF-8 (encoding/json would replace its bytes by
// U+FFFD, silently changing an ID) and a line longer than 64 MiB are errors. There are no comment lines: JSON
// Lines has none.
func jsonLines(r io.Reader, name string, fn func(line []byte, n int) error) error {
	lines := scan.NewLines(r)
	for lines.Next() {
		n := lines.Line()
		line := []byte(scan.TrimSpace(string(lines.Bytes())))
		if len(line) == 0 {
			continue
		}
		if !utf8.Valid(line) { // encoding/json would turn the bytes into U+FFFD: another ID
			return fmt.Errorf("%s:%d: not valid UTF-8 (a JSON text is UTF-8)", name, n)
		}
		if err := fn(line, n); err != nil {
			return fmt.Errorf("%s:%d: %w", name, n, err)
		}
	}
	if err := lines.Err(); err != nil {
		return fmt.Errorf("%s:%d: %w", name, lines.Line()+1, scan.ReadError(err))
	}
	return nil
}

// stringField reads field key of obj: it must be present and a JSON string unless optional.
func stringField(obj map[string]json.RawMessage, key string, optional bool) (string, error) {
	raw, ok := obj[key]
	if !ok {
		if optional {
			return "", nil
		}
		return "", fmt.Errorf("missing field %q", key)
	}
	var s string
	if err := json.Unmarshal(raw, &s); err != nil || string(raw) == "null" {
		return "", fmt.Errorf("field %q: want a string, got %s", key, abbreviate(raw))
	}
	return s, nil
}

func abbreviate(raw []byte) string {
	if len(raw) > 40 {
		return string(raw[:40]) + "..."
	}
	return string(raw)
}

// decodeObject decodes one JSON line into an object, with an error saying what is wrong.
func decodeObject(line []byte) (map[string]json.RawMessage, error) {
	var obj map[string]json.RawMessage
	if err := json.Unmarshal(line, &obj); err != nil {
		return nil, fmt.Errorf("not a JSON object: %v", err)
	}
	if obj == nil {
		return nil, errors.New("not a JSON object: null")
	}
	return obj, nil
}

// ReadCorpus reads a BEIR corpus.jsonl: one JSON object per line with a string "_id"
// (unique, and fit for a TREC run: scan.IDProblem refuses an empty ID, white space, control
// and invisible characters, a leading U+FEFF), a string "text" and an optional string "title"; other fields are
// ignored; blank lines are skipped. Documents come back in file order. Errors read
// "name:line: message"; a file without documents is an error (eval.ErrEmpty).
func ReadCorpus(r io.Reader, name string) ([]Document, error) {
	var docs []Document
	err := readRecords(r, name, "document", func(id string, obj map[string]json.RawMessage) (err error) {
		d := Document{ID: id}
		if d.Title, err = stringField(obj, "title", true); err != nil {
			return err
		}
		if d.Text, err = stringField(obj, "text", false); err != nil {
			return err
		}
		docs = append(docs, d)
		return nil
	})
	return docs, err
}

// ReadQueries reads a BEIR queries.jsonl: one JSON object per line with a string "_id"
// (unique, fit for a TREC run as in ReadCorpus) and a string "text"; other fields are ignored; blank lines are
// skipped. Queries come back in file order; a file without queries is an error (eval.ErrEmpty).
func ReadQueries(r io.Reader, name string) ([]Query, error) {
	var qs []Query
	err := readRecords(r, name, "query", func(id string, obj map[string]json.RawMessage) (err error) {
		q := Query{ID: id}
		if q.Text, err = stringField(obj, "text", false); err != nil {
			return err
		}
		qs = append(qs, q)
		return nil
	})
	return qs, err
}

// readRecords reads the JSON Lines of a corpus or queries file (kind "document" or "query"):
// each non-blank line a JSON object whose string "_id" is non-empty and unique, handed to fn
// with the object for the other fields, in file order. Errors read "name:line: message"; a file
// without records is an error (eval.ErrEmpty).
func readRecords(r io.Reader, name, kind string, fn func(id string, obj map[string]json.RawMessage) error) error {
	seen := map[string]int{}
	err := jsonLines(r, name, func(line []byte, n int) error {
		obj, err := decodeObject(line)
		if err != nil {
			return err
		}
		id, err := stringField(obj, "_id", false)
		if err != nil {
			return err
		}
		if why, _ := scan.IDProblem(id); why != "" { // a run could not carry it, or it is not what it looks like
			return fmt.Errorf(`%s "_id" %q %s`, kind, id, why)
		}
		if prev, dup := seen[id]; dup {
			return fmt.Errorf("duplicate %s %q (first on line %d)", kind, id, prev)
		}
		seen[id] = n
		return fn(id, obj)
	})
	if err == nil && len(seen) == 0 {
		err = fmt.Errorf("%s: %w: no %s", name, eval.ErrEmpty, kind)
	}
	return err
}

// openMaybeGzip opens path, or path+".gz" when path is missing, decompressing the latter.
// It returns the name of the file opened.
func openMaybeGzip(path string) (io.ReadCloser, string, error) {
	f, err := os.Open(path)
	if err == nil {
		r, err := scan.Decompress(f) // gzip is recognised by its magic bytes, whatever the name
		if err != nil {
			f.Close()
			return nil, path, fmt.Errorf("%s:1: %w", path, err)
		}
		return struct {
			io.Reader
			io.Closer
		}{r, f}, path, nil
	}
	if !errors.Is(err, fs.ErrNotExist) {
		return nil, path, err
	}
	gzPath := path + ".gz"
	f, gzErr := os.Open(gzPath)
	if gzErr != nil {
		if errors.Is(gzErr, fs.ErrNotExist) {
			return nil, path, fmt.Errorf("%s: neither it nor %s exists", path, filepath.Base(gzPath))
		}
		return nil, gzPath, gzErr
	}
	z, err := scan.Decompress(f) // gunzipped as every ranklab reader does (members, padding)
	if err != nil {
		f.Close()
		return nil, gzPath, fmt.Errorf("%s:1: %w", gzPath, err)
	}
	return struct {
		io.Reader
		io.Closer
	}{z, f}, gzPath, nil
}

// ReadCorpusFile reads dir/corpus.jsonl, or dir/corpus.jsonl.gz when the former is missing.
func ReadCorpusFile(dir string) ([]Document, error) {
	rc, name, err := openMaybeGzip(filepath.Join(dir, "corpus.jsonl"))
	if err != nil {
		return nil, err
	}
	defer rc.Close()
	return ReadCorpus(rc, name)
}

// ReadQueriesFile reads dir/queries.jsonl (or dir/queries.jsonl.gz).
func ReadQueriesFile(dir string) ([]Query, error) {
	rc, name, err := openMaybeGzip(filepath.Join(dir, "queries.jsonl"))
	if err != nil {
		return nil, err
	}
	defer rc.Close()
	return ReadQueries(rc, name)
}

// ReadCollection reads the BEIR collection in dir with the qrels of split, the file
// dir/qrels/<split>.tsv (header "query-id corpus-id score"). Only the queries the qrels
// judge are kept. It is an error for the qrels to name a query missing from queries.jsonl
// or a document missing from the corpus (the error names the qrels file).
func ReadCollection(dir, split string) (Collection, error) {
	if split == "" || strings.ContainsAny(split, `/\`) {
		return Collection{}, fmt.Errorf("split %q: want a file name under %s", split, filepath.Join(dir, "qrels"))
	}
	docs, err := ReadCorpusFile(dir)
	if err != nil {
		return Collection{}, err
	}
	queries, err := ReadQueriesFile(dir)
	if err != nil {
		return Collection{}, err
	}
	qrelsPath := filepath.Join(dir, "qrels", split+".tsv")
	f, closeQrels, err := scan.Open(qrelsPath)
	var pathErr *fs.PathError
	if errors.As(err, &pathErr) {
		return Collection{}, err
	} else if err != nil {
		return Collection{}, fmt.Errorf("%s: %w", qrelsPath, err)
	}
	defer closeQrels()
	qrels, err := eval.ReadBEIRQrels(f, qrelsPath)
	if err != nil {
		return Collection{}, err
	}
	byID := make(map[string]Query, len(queries))
	for _, q := range queries {
		byID[q.ID] = q
	}
	docIDs := make(map[string]bool, len(docs))
	for _, d := range docs {
		docIDs[d.ID] = true
	}
	c := Collection{Dir: dir, Split: split, Docs: docs, Qrels: qrels}
	for _, qid := range slices.Sorted(maps.Keys(qrels)) {
		q, ok := byID[qid]
		if !ok {
			return Collection{}, fmt.Errorf("%s: query %q is not in queries.jsonl", qrelsPath, qid)
		}
		for _, did := range slices.Sorted(maps.Keys(qrels[qid])) {
			if !docIDs[did] {
				return Collection{}, fmt.Errorf("%s: query %q judges document %q, which is not in the corpus", qrelsPath, qid, did)
			}
		}
		c.Queries = append(c.Queries, q)
	}
	return c, nil
}
