package corpus

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/ranklab/ranklab/internal/scan"
	"github.com/ranklab/ranklab/retrieval"
)

// Options says how Import reads files. The zero value gives one document per file and reads
// CSV and JSON Lines rows from the fields "_id" (or "id"), "title" and "text".
type Options struct {
	// SplitOn is "" or "file" (one document per file) or "headings" (one per heading of a
	// Markdown or HTML file).
	SplitOn string
	// Level is the deepest heading level that starts a document with SplitOn "headings"
	// (1–6; 0 means 6).
	Level int
	// IDField, TitleField and TextField name the fields of CSV and JSON Lines rows; "" means
	// "_id" (or "id" when a file has no "_id"), "title" (optional) and "text".
	IDField, TitleField, TextField string
}

// Imported is what Import read: the documents, and what a user should hear about.
type Imported struct {
	Docs []retrieval.Document
	// Files counts the files read, by kind ("text", "markdown", "html", "pdf", "csv", "jsonl").
	Files map[string]int
	// Skipped lists the files of other types, unread: paths under the folder named (as IDs are).
	Skipped []string
	// Empty lists the IDs of documents with no text.
	Empty []string
	// Replaced lists the files with bytes that are not UTF-8 (paths): replaced by U+FFFD.
	Replaced []string
}

// maxFile is the largest file Import reads (64 MiB, scan.MaxLine).
const maxFile = scan.MaxLine

// kinds maps a lower-case extension to the kind of file Import reads.
var kinds = map[string]string{
	".txt": "text", ".text": "text", ".md": "markdown", ".markdown": "markdown",
	".html": "html", ".htm": "html", ".pdf": "pdf", ".csv": "csv", ".jsonl": "jsonl", ".ndjson": "jsonl",
}

// Import reads the documents of paths: each a folder (walked in lexical order) or a file (see
// the package doc for the formats, IDs and splits). Errors name the file, and the line where
// there is one.
func Import(paths []string, opt Options) (Imported, error) {
	if opt.SplitOn != "" && opt.SplitOn != "file" && opt.SplitOn != "headings" {
		return Imported{}, fmt.Errorf("corpus: split on %q: want file or headings", opt.SplitOn)
	}
	if opt.Level == 0 {
		opt.Level = 6
	}
	if opt.Level < 1 || opt.Level > 6 {
		return Imported{}, fmt.Errorf("corpus: heading level %d: want 1 to 6", opt.Level)
	}
	im := Imported{Files: map[string]int{}}
	from := map[string]string{} // document ID -> the file it came from
	add := func(path string, docs []retrieval.Document) error {
		for _, d := range docs {
			if prev, dup := from[d.ID]; dup {
				if prev == path {
					return fmt.Errorf("%s: document ID %q twice", path, d.ID)
				}
				return fmt.Errorf("%s and %s: both give the document ID %q (rename one)", prev, path, d.ID)
			}
			from[d.ID] = path
			if strings.TrimSpace(d.Text) == "" {
				im.Empty = append(im.Empty, d.ID)
			}
			im.Docs = append(im.Docs, d)
		}
		return nil
	}
	for _, root := range paths {
		st, err := os.Stat(root)
		if err != nil {
			return Imported{}, err
		}
		if !st.IsDir() {
			docs, err := im.readFile(root, filepath.ToSlash(filepath.Clean(root)), opt)
			if err != nil {
				return Imported{}, err
			}
			if err := add(root, docs); err != nil {
				return Imported{}, err
			}
			continue
		}
		err = filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
			if err != nil {
				return err
			}
			if path != root && strings.HasPrefix(d.Name(), ".") {
				if d.IsDir() {
					return filepath.SkipDir
				}
				return nil
			}
			if d.IsDir() {
				return nil
			}
			rel, err := filepath.Rel(root, path)
			if err != nil {
				return err
			}
			if !d.Type().IsRegular() {
				if st, err := os.Stat(path); err != nil || !st.Mode().IsRegular() {
					im.Skipped = append(im.Skipped, filepath.ToSlash(rel)) // a link to a folder, a pipe, a dangling link
					return nil
				}
			}
			docs, err := im.readFile(path, filepath.ToSlash(rel), opt)
			if err != nil {
				return err
			}
			return add(path, docs)
		})
		if err != nil {
			return Imported{}, err
		}
	}
	return im, nil
}

// readFile reads the documents of one file, named rel under its folder, or lists it in Skipped.
func (im *Imported) readFile(path, rel string, opt Options) ([]retrieval.Document, error) {
	kind, ok := kinds[strings.ToLower(filepath.Ext(path))]
	if !ok {
		im.Skipped = append(im.Skipped, rel)
		return nil, nil
	}
	id := fileID(rel)
	im.Files[kind]++
	switch kind {
	case "csv", "jsonl":
		return readRows(path, kind, opt)
	case "pdf":
		text, err := readPDF(path)
		if err != nil {
			return nil, err
		}
		return []retrieval.Document{{ID: id, Text: text}}, nil
	}
	text, replaced, err := readText(path)
	if err != nil {
		return nil, err
	}
	if replaced {
		im.Replaced = append(im.Replaced, path)
	}
	var secs []section
	var title string
	switch kind {
	case "markdown":
		secs, title = markdownSections(text)
	case "html":
		secs, title, err = htmlSections(text)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", path, err)
		}
	default:
		return []retrieval.Document{{ID: id, Text: text}}, nil
	}
	return documents(id, title, secs, opt), nil
}

// readText reads a text file whole under scan's line rules (BOM dropped, CRLF read as LF, a
// bare CR an error naming the line), its invalid UTF-8 replaced by U+FFFD (replaced says so).
func readText(path string) (text string, replaced bool, err error) {
	if st, err := os.Stat(path); err == nil && st.Size() > maxFile {
		return "", false, fmt.Errorf("%s: %d bytes: larger than the 64 MiB a document may hold", path, st.Size())
	}
	r, closeFile, err := scan.Open(path)
	if err != nil {
		return "", false, err
	}
	defer closeFile()
	var b strings.Builder
	lines := scan.NewLines(io.LimitReader(r, maxFile+1))
	for lines.Next() {
		if lines.Line() > 1 {
			b.WriteByte('\n')
		}
		b.Write(lines.Bytes())
		if b.Len() > maxFile {
			return "", false, fmt.Errorf("%s: larger than the 64 MiB a document may hold", path)
		}
	}
	if err := lines.Err(); err != nil {
		return "", false, fmt.Errorf("%s:%d: %w", path, lines.Line()+1, scan.ReadError(err))
	}
	text = b.String()
	if !utf8.ValidString(text) {
		return strings.ToValidUTF8(text, "\uFFFD"), true, nil
	}
	return text, false, nil
}

// fileID turns a slash-separated path into a document ID: every character a TREC file cannot
// carry in an ID becomes "_" (see the package doc).
func fileID(path string) string {
	var b strings.Builder
	for len(path) > 0 {
		r, n := utf8.DecodeRuneInString(path)
		if r == utf8.RuneError && n == 1 || badIDRune(r) {
			b.WriteByte('_')
		} else {
			b.WriteString(path[:n])
		}
		path = path[n:]
	}
	return b.String()
}

// badIDRune reports a rune that a TREC file cannot carry in an ID or that a reader would
// not see: white space, a control or a format character (U+200B, U+FEFF).
func badIDRune(r rune) bool {
	return unicode.IsSpace(r) || unicode.IsControl(r) || unicode.Is(unicode.Cf, r)
}

// checkID returns an error when id cannot be a document ID of a TREC file.
func checkID(id string) error {
	if id == "" {
		return errors.New("empty ID")
	}
	if !utf8.ValidString(id) {
		return fmt.Errorf("ID %q is not UTF-8", id)
	}
	if i := strings.IndexFunc(id, badIDRune); i >= 0 {
		r, _ := utf8.DecodeRuneInString(id[i:])
		return fmt.Errorf("ID %q holds %U, which a TREC run or qrels cannot carry in an ID", id, r)
	}
	return nil
}

// section is one part of a structured file: the heading that opens it (level 0 and no title
// for the text before the first heading) and its text.
type section struct {
	level       int
	title, text string
}

// documents turns a file's sections into documents: one for the whole file, titled by its
// first heading (else by title, HTML's <title>), or one per heading of at most opt.Level
// (deeper headings stay in the text; the text before the first heading is titled by title).
func documents(id, title string, secs []section, opt Options) []retrieval.Document {
	if opt.SplitOn != "headings" {
		d := retrieval.Document{ID: id}
		var parts []string
		for _, s := range secs {
			switch {
			case d.Title == "" && s.level > 0:
				d.Title = s.title
			case s.level > 0:
				parts = append(parts, s.title)
			}
			if s.text != "" {
				parts = append(parts, s.text)
			}
		}
		d.Text = strings.Join(parts, "\n\n")
		if d.Title == "" {
			d.Title = title
		}
		return []retrieval.Document{d}
	}
	var docs []retrieval.Document
	used := map[string]bool{}
	for i, s := range secs {
		if s.level > 0 && s.level <= opt.Level && s.text == "" && i+1 < len(secs) && secs[i+1].level > s.level {
			continue // a heading whose text is its subsections: they are the documents
		}
		if s.level == 0 || s.level > opt.Level {
			if len(docs) == 0 {
				if s.level == 0 && strings.TrimSpace(s.text) == "" {
					continue
				}
				docs = append(docs, retrieval.Document{ID: id, Title: title})
			}
			d := &docs[len(docs)-1]
			for _, p := range []string{s.title, s.text} {
				if p != "" {
					d.Text = strings.TrimPrefix(d.Text+"\n\n"+p, "\n\n")
				}
			}
			continue
		}
		base := slugOf(s.title)
		if base == "" {
			base = "section"
		}
		slug := base
		for n := 2; used[slug]; n++ {
			slug = fmt.Sprintf("%s-%d", base, n)
		}
		used[slug] = true
		docs = append(docs, retrieval.Document{ID: id + ":" + slug, Title: s.title, Text: s.text})
	}
	if len(docs) == 0 {
		docs = append(docs, retrieval.Document{ID: id, Title: title})
	}
	return docs
}

// slugOf returns s's letters and digits in lower case, each run of other characters a "-",
// at most 48 bytes (cut at a "-" where one is near, else at a rune).
func slugOf(s string) string {
	const most = 48
	var b strings.Builder
	dash := false
	for _, r := range s {
		if unicode.IsLetter(r) || unicode.IsDigit(r) {
			if dash && b.Len() > 0 {
				b.WriteByte('-')
			}
			dash = false
			b.WriteRune(unicode.ToLower(r))
			continue
		}
		dash = true
	}
	out := b.String()
	if len(out) <= most {
		return out
	}
	cut := most
	for cut > 0 && !utf8.RuneStart(out[cut]) {
		cut--
	}
	if i := strings.LastIndexByte(out[:cut], '-'); i > most/2 {
		cut = i
	}
	return out[:cut]
}
