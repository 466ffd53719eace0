package scan_test

import (
	"bytes"
	"compress/gzip"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/ranklab/ranklab/check"
	"github.com/ranklab/ranklab/eval"
	"github.com/ranklab/ranklab/internal/scan"
	"github.com/ranklab/ranklab/lab"
	"github.com/ranklab/ranklab/rag"
	"github.com/ranklab/ranklab/retrieval"
)

// A quirkReader is one reader of ranklab fed from a path: plain is a small valid file for it,
// id an ID in it (the U+00A0 quirk appends U+00A0 to it), read returns a dump of what it read
// (fmt's %v of the value: maps print sorted), and the file name it must be at (retrieval reads
// a collection folder).
type quirkReader struct {
	name     string
	file     string // the name the file must have in its folder ("" = any)
	plain    string
	id       string
	comments bool   // the format has '#' comment lines
	noIDEdit string // why the U+00A0 quirk is an error for this reader ("" = it is read)
	read     func(path string) (string, error)
}

func dump(v any, err error) (string, error) {
	if err != nil {
		return "", err
	}
	return fmt.Sprintf("%v", v), nil
}

var qrelsTREC = "q1 0 d1 1\nq1 0 d2 0\nq2 0 d3 2\n"

func quirkReaders(t *testing.T) []quirkReader {
	o, err := lab.DefaultState().Outcome()
	if err != nil {
		t.Fatal(err)
	}
	var labCSV bytes.Buffer
	if err := lab.WriteCSV(&labCSV, o); err != nil {
		t.Fatal(err)
	}
	qrelsPath := filepath.Join(t.TempDir(), "qrels")
	os.WriteFile(qrelsPath, []byte(qrelsTREC), 0o644)
	const run = "q1 Q0 d1 1 2.5 t\nq1 Q0 d2 2 1.5 t\nq2 Q0 d3 1 1 t\n"
	runPath := filepath.Join(t.TempDir(), "run")
	os.WriteFile(runPath, []byte(run+"q1\u00a0 Q0 d1 1 1 t\n"), 0o644) // q1 with U+00A0 too, for the quirk
	qrelsA0 := filepath.Join(t.TempDir(), "qrels")
	os.WriteFile(qrelsA0, []byte("q1 0 d1 1\nq1\u00a0 0 d1 1\nq2 0 d3 1\n"), 0o644)
	// files evaluates the files of f (the readers of -R and -Z are reached through EvaluateFiles).
	files := func(f eval.Files, ms ...eval.Measure) (string, error) {
		r, err := eval.Options{}.EvaluateFiles(f, ms...)
		return dump([]any{r.Queries, r.Values, r.Means}, err)
	}
	return []quirkReader{
		{name: "eval qrels (TREC)", plain: qrelsTREC, id: "d1", comments: true,
			read: func(p string) (string, error) { return dump(eval.ReadQrelsFile(p)) }},
		{name: "eval qrels (BEIR TSV)", plain: "query-id\tcorpus-id\tscore\nq1\td1\t1\nq1\td2\t0\nq2\td3\t2\n", id: "d1",
			read: func(p string) (string, error) { return dump(eval.ReadQrelsFile(p)) }},
		{name: "eval run", plain: run, id: "d1", comments: true,
			read: func(p string) (string, error) { return dump(eval.ReadRunFile(p)) }},
		{name: "eval streaming run (EvaluateFiles)", plain: run, id: "q1", comments: true,
			read: func(p string) (string, error) {
				return files(eval.Files{Rel: qrelsA0, Run: p}, eval.AP(), eval.NDCG(10))
			}},
		{name: "eval prefs (-R prefs)", plain: "q1 jg1 s1 d1 2\nq1 jg1 s1 d2 1\nq2 jg1 s1 d3 1.5\n", id: "q1", comments: true,
			read: func(p string) (string, error) {
				return files(eval.Files{Rel: p, RelFormat: "prefs", Run: runPath}, nb(eval.ParseMeasures("prefs"))...)
			}},
		{name: "eval qrels_jg (-R qrels_jg)", plain: "q1 jg1 d1 1\nq1 jg2 d1 0\nq2 jg1 d3 2\n", id: "q1", comments: true,
			read: func(p string) (string, error) {
				return files(eval.Files{Rel: p, RelFormat: "qrels_jg", Run: runPath}, nb(eval.ParseMeasures("qrels_jg"))...)
			}},
		{name: "eval z-scores (-Z)", plain: "q1 map 0.5 0.1\nq2 map 0.3 0.2\n", id: "q1", comments: true,
			read: func(p string) (string, error) {
				return files(eval.Files{Rel: qrelsA0, Run: runPath, ZScores: p}, eval.AP())
			}},
		{name: "rag passage qrels", plain: "q1 d1 0 10 2\nq2 d2 5 9 1\n", id: "d1", comments: true,
			read: func(p string) (string, error) { return dump(rag.ReadPassageQrelsFile(p)) }},
		{name: "rag chunk map", plain: "d1#0 d1 0 10\nd1#1 d1 10 20\n", id: "d1#0", comments: true,
			read: func(p string) (string, error) { return dump(rag.ReadChunkMapFile(p)) }},
		{name: "retrieval BEIR corpus JSONL", file: "corpus.jsonl", plain: `{"_id":"d1","title":"t","text":"x y"}` + "\n" + `{"_id":"d2","text":"z"}` + "\n", id: "d1",
			read:     func(p string) (string, error) { return dump(retrieval.ReadCorpusFile(filepath.Dir(p))) },
			noIDEdit: "a corpus ID goes into every run: IDProblem refuses one holding U+00A0 where the corpus is read (issue 34, F4)"},
		{name: "retrieval BEIR queries JSONL", file: "queries.jsonl", plain: `{"_id":"q1","text":"x y"}` + "\n" + `{"_id":"q2","text":"z"}` + "\n", id: "q1",
			read:     func(p string) (string, error) { return dump(retrieval.ReadQueriesFile(filepath.Dir(p))) },
			noIDEdit: "a query ID goes into every run: IDProblem refuses one holding U+00A0 where the queries are read"},
		{name: "check run (preflight)", plain: run, id: "d1", comments: true,
			noIDEdit: "check reports an ID holding U+00A0 as an error by design (it looks like another ID)",
			read: func(p string) (string, error) {
				r, err := check.Files(qrelsPath, []string{p}, check.Options{})
				if err != nil {
					return "", err
				}
				var kept []string
				for _, f := range r.Findings {
					switch f.Code {
					case "bom", "comment-line", "ties", "not-measured": // check's codes
						continue // what the quirk is (reported by design) and the tie check it then skips
					}
					if f.Severity == check.Error {
						return "", fmt.Errorf("%s:%d: %s", f.File, f.Line, f.Message)
					}
					kept = append(kept, f.Code)
				}
				return fmt.Sprint(kept, r.Runs[0].Queries), nil
			}},
		{name: "lab CSV (ReadCSVFile)", plain: labCSV.String(), id: "d03",
			read: func(p string) (string, error) { return dump(lab.ReadCSVFile(p)) }},
	}
}

// A quirk rewrites a reader's plain file (or gives a special path); want says what reading it
// must give: the plain file's reading ("same"), that reading with the ID edited ("id"), or an
// error wrapping err at line (0: any line).
type quirk struct {
	name    string
	content func(qr quirkReader) []byte
	path    func(t *testing.T, qr quirkReader, content []byte) string // nil: a regular file
	want    string                                                    // "same", "id" or "error"
	err     error
	line    func(qr quirkReader) int
}

func gzipOf(b []byte) []byte {
	var out bytes.Buffer
	w := gzip.NewWriter(&out)
	w.Write(b)
	w.Close()
	return out.Bytes()
}

// withComments puts three comment forms after the first line.
func withComments(s string) string {
	first, rest, _ := strings.Cut(s, "\n")
	return first + "\n# a comment\n   # an indented note\n\t#tabbed\n" + rest
}

var longLine = strings.Repeat("x", scan.MaxLine+1)

func quirks() []quirk {
	plain := func(qr quirkReader) []byte { return []byte(qr.plain) }
	return []quirk{
		{name: "plain", content: plain, want: "same"},
		{name: "BOM", content: func(qr quirkReader) []byte { return []byte("\ufeff" + qr.plain) }, want: "same"},
		{name: "CRLF", content: func(qr quirkReader) []byte { return []byte(strings.ReplaceAll(qr.plain, "\n", "\r\n")) }, want: "same"},
		{name: "bare CR", content: func(qr quirkReader) []byte { return []byte(strings.ReplaceAll(qr.plain, "\n", "\r")) },
			want: "error", err: scan.ErrBareCR, line: func(quirkReader) int { return 1 }},
		{name: "U+00A0 in an ID", content: func(qr quirkReader) []byte { return []byte(strings.ReplaceAll(qr.plain, qr.id, qr.id+"\u00a0")) }, want: "id"},
		{name: "comment lines", content: func(qr quirkReader) []byte { return []byte(withComments(qr.plain)) }, want: "same"},
		{name: "64 MiB+1 line", content: func(qr quirkReader) []byte { return []byte(qr.plain + longLine + "\n") },
			want: "error", err: scan.ErrLineTooLong, line: func(qr quirkReader) int { return strings.Count(qr.plain, "\n") + 1 }},
		{name: "/dev/zero", path: devZero,
			want: "error", err: scan.ErrLineTooLong, line: func(quirkReader) int { return 1 }},
		{name: "empty file", content: func(quirkReader) []byte { return nil }, want: "error"},
		{name: "pipe", content: plain, path: fifo, want: "same"},
		{name: "gzip", content: func(qr quirkReader) []byte { return gzipOf([]byte(qr.plain)) }, want: "same"},
		{name: "gzip, zero padded", content: func(qr quirkReader) []byte { return append(gzipOf([]byte(qr.plain)), make([]byte, 1000)...) }, want: "same"},
		{name: "gzip, two members", content: func(qr quirkReader) []byte {
			n := len(qr.plain) / 2
			return append(gzipOf([]byte(qr.plain[:n])), gzipOf([]byte(qr.plain[n:]))...)
		}, want: "same"},
		{name: "gzip piped", content: func(qr quirkReader) []byte { return gzipOf([]byte(qr.plain)) }, path: fifo, want: "same"},
		{name: "bzip2 named .gz", content: func(quirkReader) []byte { return []byte("BZh91AY&SY\x00\x00\x00\x00") },
			want: "error", err: scan.ErrCompressed, line: func(quirkReader) int { return 1 }},
	}
}

// devZero returns /dev/zero, or for a reader of a named file in a folder a symbolic link of
// that name to it.
func devZero(t *testing.T, qr quirkReader, _ []byte) string {
	if qr.file == "" {
		return "/dev/zero"
	}
	p := filepath.Join(t.TempDir(), qr.file)
	if err := os.Symlink("/dev/zero", p); err != nil {
		t.Skip(err)
	}
	return p
}

// fifo makes a named pipe in a new folder, under the reader's file name, and writes content to it
// from a goroutine.
func fifo(t *testing.T, qr quirkReader, content []byte) string {
	name := qr.file
	if name == "" {
		name = "in"
	}
	p := filepath.Join(t.TempDir(), name)
	if err := syscall.Mkfifo(p, 0o600); err != nil {
		t.Skip("no named pipes:", err)
	}
	go func() {
		f, err := os.OpenFile(p, os.O_WRONLY, 0)
		if err != nil {
			return
		}
		f.Write(content)
		f.Close()
	}()
	return p
}

// TestReaderQuirks feeds every reader every quirk and compares with the plain file: the same
// reading (BOM, CRLF, comments, pipe, gzip in every form), the ID kept whole with its U+00A0 (as
// trec_eval keeps it), or an error that names file:line (bare CR, a line over 64 MiB,
// /dev/zero, an empty file).
func TestReaderQuirks(t *testing.T) {
	readers, qs := quirkReaders(t), quirks()
	cases, failures := 0, 0
	for _, qr := range readers {
		want, err := qr.read(write(t, qr, []byte(qr.plain)))
		if err != nil {
			t.Fatalf("%s: the plain file: %v", qr.name, err)
		}
		wantID, errID := qr.read(write(t, qr, []byte(strings.ReplaceAll(qr.plain, qr.id, qr.id+"\u00a0"))))
		for _, q := range qs {
			cases++
			t.Run(qr.name+"/"+q.name, func(t *testing.T) {
				defer func() {
					if t.Failed() {
						failures++
					}
				}()
				if raceEnabled && (q.name == "64 MiB+1 line" || q.name == "/dev/zero") {
					// Reading 64 MiB is sequential code; under the race detector it takes most of
					// this package's -race time. The pass without -race runs these cases.
					t.Skip("-race: the 64 MiB reads run in the pass without -race")
				}
				var path string
				var content []byte
				if q.content != nil {
					content = q.content(qr)
				}
				if q.path != nil {
					path = q.path(t, qr, content)
				} else {
					path = write(t, qr, content)
				}
				got, err := qr.read(path)
				expect, expectErr, line := q.want, q.err, 0
				if q.line != nil {
					line = q.line(qr)
				}
				if expect == "same" && q.name == "comment lines" && !qr.comments {
					// No comment syntax (JSON Lines, BEIR TSV, CSV): the first comment line is an error.
					expect, line = "error", 2
				}
				if expect == "id" && qr.noIDEdit != "" {
					expect = "error"
				}
				switch expect {
				case "same":
					if err != nil || got != want {
						t.Errorf("got %.200s, %v\nwant %.200s", got, err, want)
					}
				case "id":
					if errID != nil || err != nil || got != wantID || got == want || !strings.Contains(got, qr.id+"\u00a0") {
						t.Errorf("got %.200s, %v\nwant %.200s, %v (the ID with its U+00A0)", got, err, wantID, errID)
					}
				case "error":
					if err == nil {
						t.Fatalf("read %.200s, want an error", got)
					}
					if expectErr != nil && !errors.Is(err, expectErr) && !strings.Contains(err.Error(), expectErr.Error()) {
						t.Errorf("error %v, want %v", err, expectErr)
					}
					if pos := fmt.Sprintf("%s:%d", path, line); line > 0 && !strings.Contains(err.Error(), pos) {
						t.Errorf("error %.300v does not name %s", err, pos)
					}
				}
			})
		}
	}
	t.Logf("reader quirks: %d readers × %d quirks = %d cases, %d failed", len(readers), len(qs), cases, failures)
}

// write writes content to a new folder under the reader's file name and returns the path.
func write(t *testing.T, qr quirkReader, content []byte) string {
	name := qr.file
	if name == "" {
		name = "in"
	}
	p := filepath.Join(t.TempDir(), name)
	if err := os.WriteFile(p, content, 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

// nb returns ms, panicking on err (the nicknames parse).
func nb(ms []eval.Measure, err error) []eval.Measure {
	if err != nil {
		panic(err)
	}
	return ms
}
