package corpus

import (
	"encoding/csv"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"maps"
	"slices"
	"strings"

	"github.com/ranklab/ranklab/internal/scan"
	"github.com/ranklab/ranklab/retrieval"
)

// fields are the field names of rows: ID, title (optional) and text.
type fields struct{ id, title, text string }

// fieldsFor returns the fields opt names for a file whose fields are have: the ID field "_id",
// or "id" when the file has no "_id", unless opt names one.
func fieldsFor(opt Options, has func(string) bool) fields {
	f := fields{opt.IDField, opt.TitleField, opt.TextField}
	if f.id == "" {
		f.id = "_id"
		if !has("_id") && has("id") {
			f.id = "id"
		}
	}
	if f.title == "" {
		f.title = "title"
	}
	if f.text == "" {
		f.text = "text"
	}
	return f
}

// readRows reads one document per row of a CSV file (a header row names the fields) or a JSON
// Lines file (one object a line; blank lines skipped). The ID is used as written; one a TREC
// file cannot carry, a missing ID or text field, and an ID twice are errors naming file:line.
func readRows(path, kind string, opt Options) ([]retrieval.Document, error) {
	r, closeFile, err := scan.Open(path)
	if err != nil {
		return nil, err
	}
	defer closeFile()
	if kind == "csv" {
		return readCSV(r, path, opt)
	}
	return readJSONL(r, path, opt)
}

func readCSV(r io.Reader, path string, opt Options) ([]retrieval.Document, error) {
	lc := scan.LineCap(r)
	cr := csv.NewReader(lc)
	cr.FieldsPerRecord = 0
	header, err := cr.Read()
	if err == io.EOF {
		return nil, fmt.Errorf("%s: empty file: want a header row naming the fields", path)
	} else if err != nil {
		return nil, csvError(path, lc, err)
	}
	col := map[string]int{}
	for i, h := range header {
		col[strings.TrimSpace(h)] = i
	}
	f := fieldsFor(opt, func(name string) bool { _, ok := col[name]; return ok })
	for _, name := range []string{f.id, f.text} {
		if _, ok := col[name]; !ok {
			return nil, fmt.Errorf("%s:1: no field %q in the header (%s)", path, name, strings.Join(header, ", "))
		}
	}
	titleCol, hasTitle := col[f.title]
	var docs []retrieval.Document
	seen := map[string]int{}
	for {
		rec, err := cr.Read()
		if err == io.EOF {
			return docs, nil
		}
		if err != nil {
			return nil, csvError(path, lc, err)
		}
		line, _ := cr.FieldPos(0)
		d := retrieval.Document{ID: rec[col[f.id]], Text: rec[col[f.text]]}
		if hasTitle {
			d.Title = rec[titleCol]
		}
		if err := checkRow(d.ID, line, seen); err != nil {
			return nil, fmt.Errorf("%s:%d: %w", path, line, err)
		}
		docs = append(docs, d)
	}
}

// csvError gives an encoding/csv or scan error its file and line.
func csvError(path string, lc *scan.LineCapReader, err error) error {
	var pe *csv.ParseError
	if errors.As(err, &pe) {
		return fmt.Errorf("%s:%d: %v", path, pe.Line, pe.Err)
	}
	return fmt.Errorf("%s:%d: %w", path, lc.Line(), scan.ReadError(err))
}

// checkRow checks a row's ID: TREC-safe and not seen before (seen maps IDs to lines).
func checkRow(id string, line int, seen map[string]int) error {
	if err := checkID(id); err != nil {
		return err
	}
	if prev, dup := seen[id]; dup {
		return fmt.Errorf("ID %q twice (first on line %d)", id, prev)
	}
	seen[id] = line
	return nil
}

func readJSONL(r io.Reader, path string, opt Options) ([]retrieval.Document, error) {
	lines := scan.NewLines(r)
	var docs []retrieval.Document
	seen := map[string]int{}
	for lines.Next() {
		n := lines.Line()
		b := []byte(scan.TrimSpace(string(lines.Bytes())))
		if len(b) == 0 {
			continue
		}
		var obj map[string]json.RawMessage
		if err := json.Unmarshal(b, &obj); err != nil || obj == nil {
			return nil, fmt.Errorf("%s:%d: not a JSON object", path, n)
		}
		f := fieldsFor(opt, func(name string) bool { _, ok := obj[name]; return ok })
		var d retrieval.Document
		for _, p := range []struct {
			name     string
			dst      *string
			optional bool
		}{{f.id, &d.ID, false}, {f.title, &d.Title, true}, {f.text, &d.Text, false}} {
			raw, ok := obj[p.name]
			if !ok {
				if p.optional {
					continue
				}
				keys := slices.Sorted(maps.Keys(obj))
				return nil, fmt.Errorf("%s:%d: no field %q (the object has %s)", path, n, p.name, strings.Join(keys, ", "))
			}
			if err := json.Unmarshal(raw, p.dst); err != nil || string(raw) == "null" {
				return nil, fmt.Errorf("%s:%d: field %q: want a string", path, n, p.name)
			}
		}
		if err := checkRow(d.ID, n, seen); err != nil {
			return nil, fmt.Errorf("%s:%d: %w", path, n, err)
		}
		docs = append(docs, d)
	}
	if err := lines.Err(); err != nil {
		return nil, fmt.Errorf("%s:%d: %w", path, lines.Line()+1, scan.ReadError(err))
	}
	return docs, nil
}
