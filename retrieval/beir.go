package retrieval

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/ranklab/ranklab/eval"
	"github.com/ranklab/ranklab/internal/scan"
)

// Document is one corpus entry of a BEIR collection.
type Document struct {
	ID, Title, Text string
}

// DenseText is the text a dense model embeds for d: the title, a space and the text, trimmed
// (what BEIR's and sentence-transformers' evaluations embed; the model cuts it at its token
// limit, 256 for all-MiniLM-L6-v2). Package dense embeds it.
func (d Document) DenseText() string { return strings.TrimSpace(d.Title + " " + d.Text) }

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
// queries searched (byte order of their IDs) and the split's qrels. Queries may have no qrels:
// a team's own collection starts with none (Qrels nil, every query in Unjudged), and a query
// asked after the last round of judging has none yet. Unjudged lists them (byte order), so a
// command can say which queries its numbers leave out: evaluation scores only the queries
// the qrels judge (eval's rule).
type Collection struct {
	Dir, Split string
	Docs       []Document
	Queries    []Query
	Qrels      eval.Qrels
	// QrelsFile is the qrels file read, "" when the collection has none.
	QrelsFile string
	// Unjudged holds the IDs of the Queries the qrels do not judge.
	Unjudged []string
	// OtherSplit holds the IDs of the queries of queries.jsonl left out because another
	// split's qrels judge them and this split's do not (BEIR's queries.jsonl holds every split).
	OtherSplit []string
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
// dir/qrels/<split>.tsv: TREC qrels ("qid iter docno grade", as `ranklab pool` and the judging
// panel write them) or BEIR TSV (header "query-id corpus-id score"), gzipped or not.
//
// The queries searched are every query of queries.jsonl except those another split judges and
// this split does not (qrels/train.tsv's queries are not test queries); the ones the split's
// qrels do not judge are kept and listed in Unjudged. Without a qrels folder (or one holding
// no qrels file) the collection has no qrels: Qrels is nil and every query is unjudged; a
// qrels file with no judgment (empty, or a BEIR header alone) means nothing is judged yet. A
// missing split file while other splits exist is an error naming them, as is qrels naming a
// query missing from queries.jsonl or a document missing from the corpus.
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
	c := Collection{Dir: dir, Split: split, Docs: docs}
	splits, err := qrelsSplits(dir)
	if err != nil {
		return Collection{}, err
	}
	if path, ok := splits[split]; ok {
		c.QrelsFile = path
		if c.Qrels, err = readSplitQrels(path); err != nil {
			return Collection{}, err
		}
	} else if len(splits) > 0 {
		return Collection{}, fmt.Errorf("%s: no such file (%s holds the qrels of %s)", filepath.Join(dir, "qrels", split+".tsv"),
			filepath.Join(dir, "qrels"), strings.Join(slices.Sorted(maps.Keys(splits)), ", "))
	}
	byID := make(map[string]bool, len(queries))
	for _, q := range queries {
		byID[q.ID] = true
	}
	docIDs := make(map[string]bool, len(docs))
	for _, d := range docs {
		docIDs[d.ID] = true
	}
	for _, qid := range slices.Sorted(maps.Keys(c.Qrels)) {
		if !byID[qid] {
			return Collection{}, fmt.Errorf("%s: query %q is not in queries.jsonl", c.QrelsFile, qid)
		}
		for _, did := range slices.Sorted(maps.Keys(c.Qrels[qid])) {
			if !docIDs[did] {
				return Collection{}, fmt.Errorf("%s: query %q judges document %q, which is not in the corpus", c.QrelsFile, qid, did)
			}
		}
	}
	other := map[string]bool{}
	for name, path := range splits {
		if name == split {
			continue
		}
		q, err := readSplitQrels(path)
		if err != nil {
			return Collection{}, err
		}
		for qid := range q {
			other[qid] = true
		}
	}
	slices.SortFunc(queries, func(a, b Query) int { return strings.Compare(a.ID, b.ID) })
	for _, q := range queries {
		_, judged := c.Qrels[q.ID]
		switch {
		case judged:
		case other[q.ID]:
			c.OtherSplit = append(c.OtherSplit, q.ID)
			continue
		default:
			c.Unjudged = append(c.Unjudged, q.ID)
		}
		c.Queries = append(c.Queries, q)
	}
	return c, nil
}

// qrelsSplits returns the qrels files of dir/qrels by split name: <split>.tsv, or
// <split>.tsv.gz when only that exists. A missing folder has none.
func qrelsSplits(dir string) (map[string]string, error) {
	entries, err := os.ReadDir(filepath.Join(dir, "qrels"))
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	} else if err != nil {
		return nil, err
	}
	out := map[string]string{}
	for _, e := range entries {
		name := e.Name()
		if e.IsDir() || strings.HasPrefix(name, ".") {
			continue
		}
		split, gz := strings.CutSuffix(name, ".tsv.gz")
		if !gz {
			var ok bool
			if split, ok = strings.CutSuffix(name, ".tsv"); !ok {
				continue
			}
		}
		if _, seen := out[split]; seen && gz {
			continue // the plain file wins, as for corpus.jsonl
		}
		out[split] = filepath.Join(dir, "qrels", name)
	}
	return out, nil
}

// readSplitQrels reads a split's qrels in either format; a file with no judgment gives empty
// qrels (nothing judged yet), not an error.
func readSplitQrels(path string) (eval.Qrels, error) {
	q, err := eval.ReadQrelsFile(path)
	if errors.Is(err, eval.ErrEmpty) {
		return eval.Qrels{}, nil
	}
	return q, err
}
