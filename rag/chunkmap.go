package rag

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"maps"
	"slices"
	"strconv"
	"strings"

	"github.com/ranklab/ranklab/eval"
	"github.com/ranklab/ranklab/internal/scan"
)

// errSpan is the sentinel of a span that is not two integers 0 <= start < end (chunk maps and
// passage qrels); a *eval.ParseError unwraps to it.
var errSpan = errors.New("bad span")

// Span is a half-open range [Start, End) of one document's tokens. Package retrieval counts
// cl100k_base tokens of the document's Content (title, newline, text); any unit works as long as
// the chunk map and the passage qrels use the same one.
type Span struct {
	Doc        string
	Start, End int
}

// len returns the span's length, End − Start.
func (s Span) len() int { return s.End - s.Start }

// overlap returns how many units s and o share: 0 for spans of different documents.
func (s Span) overlap(o Span) int {
	if s.Doc != o.Doc {
		return 0
	}
	return max(0, min(s.End, o.End)-max(s.Start, o.Start))
}

// ChunkMap maps a chunk ID to the document span it covers. It is what turns a chunk run (a run
// whose IDs are chunks) into document rankings, and what a token budget counts.
type ChunkMap map[string]Span

// mapHeader is the optional first line of a chunk map file.
const mapHeader = "chunk-id doc-id start end"

// readChunkMap is ReadChunkMapFile on a reader; its errors name the file name.
func readChunkMap(r io.Reader, name string) (ChunkMap, error) {
	m := ChunkMap{}
	seen := map[string]int{}
	err := readRecords(r, name, mapHeader, func(f [][]byte, line int) error {
		start, end, err := parseSpan(f[2], f[3])
		if err != nil {
			return parseErr(name, line, errSpan, "%v", err)
		}
		id := string(f[0])
		if prev, dup := seen[id]; dup {
			return parseErr(name, line, eval.ErrDuplicate, "chunk %q listed twice (first on line %d)", id, prev)
		}
		seen[id] = line
		m[id] = Span{Doc: string(f[1]), Start: start, End: end}
		return nil
	})
	if err != nil {
		return nil, err
	}
	if len(m) == 0 {
		return nil, parseErr(name, 0, eval.ErrEmpty, "no chunk")
	}
	return m, nil
}

// readRecords calls fn with the fields and line number of each record of a whitespace-separated
// file whose records have exactly as many fields as header has words; a first line equal to the
// header is skipped. The lines are read by scan.Lines, with the rules of every reader of
// ranklab (package eval's qrels and runs): a byte-order mark at the start is dropped, CRLF line
// ends are read, a carriage return inside a line and a line longer than 64 MiB are errors, a
// line whose first non-blank character is '#' is a comment. An empty line or a wrong field count
// is a *eval.ParseError, as is an error fn returns or a read error.
func readRecords(r io.Reader, name, header string, fn func(f [][]byte, line int) error) error {
	want := len(strings.Fields(header))
	lines := scan.NewLines(r)
	var f [][]byte
	first := true // no record yet: the header may stand here, after comment lines
	for lines.Next() {
		line := lines.Line()
		f, _ = scan.Fields(lines.Bytes(), f[:0], 0)
		if len(f) == 0 {
			return parseErr(name, line, eval.ErrEmptyLine, "")
		}
		if f[0][0] == '#' {
			continue
		}
		if first && isHeader(f, header) {
			first = false
			continue
		}
		first = false
		if len(f) != want {
			return parseErr(name, line, eval.ErrFieldCount, "got %d, want %d (%s)", len(f), want, header)
		}
		if err := fn(f, line); err != nil {
			return err
		}
	}
	if err := lines.Err(); err != nil {
		return &eval.ParseError{File: name, Line: lines.Line() + 1, Err: scan.ReadError(err)}
	}
	return nil
}

// ReadChunkMapFile reads a chunk map: one chunk a line, exactly 4 fields separated by spaces or tabs
//
//	chunk-id doc-id start end
//
// where start and end are decimal integers with 0 <= start < end: the chunk covers tokens
// [start, end) of document doc-id (package retrieval writes cl100k_base token offsets into the
// document's Content). The first line that is no comment may be the header "chunk-id doc-id
// start end" (fields separated by any spaces or tabs); ranklab beir run writes a comment line
// "# tokens: UNIT" before it, naming the unit of start and end. A chunk ID is unique; two chunks may cover the same span.
// Lines are read as every ranklab reader reads them (readRecords: a leading byte-order mark
// dropped, CRLF read, '#' comment lines skipped); an empty line, a wrong field count, a bad span, a chunk listed twice or a
// file without chunks is a *eval.ParseError ("name:line: msg") unwrapping to eval.ErrEmptyLine,
// eval.ErrFieldCount, a bad span, eval.ErrDuplicate or eval.ErrEmpty.
//
//	d7#0 d7 0 128      (chunk d7#0 is tokens 0..127 of document d7)
//	d7#1 d7 96 224     (the next window, overlapping the first by 32 tokens)
//
// The file is gunzipped when it starts with gzip's magic bytes.
func ReadChunkMapFile(path string) (ChunkMap, error) {
	r, closeFn, err := scan.Open(path)
	if err != nil {
		return nil, openErr(path, err)
	}
	defer closeFn()
	return readChunkMap(r, path)
}

// openErr keeps an *fs.PathError (it names the file) and makes an error of the content's
// opening (a gzip header, a bzip2 file) a *eval.ParseError at line 1, as package eval does.
func openErr(path string, err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return err
	}
	return &eval.ParseError{File: path, Line: 1, Err: err}
}

// WriteChunkMap writes m with the header line, one chunk a line, tab-separated, chunks in the
// order of their document ID, then span start, end and chunk ID (byte order). It refuses IDs that
// are empty or hold whitespace and spans that are not 0 <= start < end, since the file would not
// read back to m.
func WriteChunkMap(w io.Writer, m ChunkMap) error {
	ids := slices.Collect(maps.Keys(m))
	slices.SortFunc(ids, func(a, b string) int { return compareChunks(a, m[a], b, m[b]) })
	bw := bufio.NewWriter(w)
	bw.WriteString(strings.ReplaceAll(mapHeader, " ", "\t") + "\n")
	for _, id := range ids {
		s := m[id]
		if !isWord(id) || !isWord(s.Doc) || id[0] == '#' {
			return fmt.Errorf("write chunk map: chunk %q of document %q: IDs must be one non-empty word, the chunk's not starting with '#' (a comment)", id, s.Doc)
		}
		if s.Start < 0 || s.End <= s.Start {
			return fmt.Errorf("write chunk map: chunk %q: span [%d, %d) is not 0 <= start < end", id, s.Start, s.End)
		}
		fmt.Fprintf(bw, "%s\t%s\t%d\t%d\n", id, s.Doc, s.Start, s.End)
	}
	return bw.Flush()
}

// compareChunks orders chunks by document ID, span start, span end, then chunk ID.
func compareChunks(a string, sa Span, b string, sb Span) int {
	if c := strings.Compare(sa.Doc, sb.Doc); c != 0 {
		return c
	}
	if sa.Start != sb.Start {
		return sa.Start - sb.Start
	}
	if sa.End != sb.End {
		return sa.End - sb.End
	}
	return strings.Compare(a, b)
}

// maxSpanEnd bounds the end of a span read from a file: 2^40 units (a trillion tokens) is far
// beyond any document, and keeps every sum of span lengths far from integer overflow.
const maxSpanEnd = 1 << 40

// parseSpan parses start and end: decimal integers with 0 <= start < end <= maxSpanEnd.
func parseSpan(a, b []byte) (start, end int, err error) {
	start, err = strconv.Atoi(string(a))
	if err != nil || start < 0 {
		return 0, 0, fmt.Errorf("start %q is not an integer >= 0", a)
	}
	end, err = strconv.Atoi(string(b))
	if err != nil || end <= start {
		return 0, 0, fmt.Errorf("end %q is not an integer > start %d", b, start)
	}
	if end > maxSpanEnd {
		return 0, 0, fmt.Errorf("end %d is beyond 2^40 units: not an offset into a document", end)
	}
	return start, end, nil
}

// isHeader reports whether the fields f are the words of header.
func isHeader(f [][]byte, header string) bool {
	words := strings.Fields(header)
	if len(f) != len(words) {
		return false
	}
	for i, w := range words {
		if string(f[i]) != w {
			return false
		}
	}
	return true
}

// isWord reports whether s is non-empty and holds no field separator.
func isWord(s string) bool {
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		if scan.IsSpace(s[i]) {
			return false
		}
	}
	return true
}

// parseErr builds a *eval.ParseError whose message is sentinel followed by detail.
func parseErr(file string, line int, sentinel error, format string, args ...any) error {
	if format == "" {
		return &eval.ParseError{File: file, Line: line, Err: sentinel}
	}
	return &eval.ParseError{File: file, Line: line, Err: fmt.Errorf("%w: "+format, append([]any{sentinel}, args...)...)}
}
