package eval

import (
	"bytes"
	"compress/gzip"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"testing"

	"github.com/ranklab/ranklab/internal/sharedtest"
)

// Regression tests of issue 14: each wrong number found by trying real-world input.

// ungroupedRun returns qrels and a run whose queries are not adjacent: q0..q9 with 300 docs
// each, lines interleaved round robin, so the streaming reader meets q0 again after q9.
func ungroupedRun() (Qrels, string) {
	qrels := Qrels{}
	var b strings.Builder
	for d := range 300 {
		for q := range 10 {
			qid := "q" + strconv.Itoa(q)
			if qrels[qid] == nil {
				qrels[qid] = map[string]int{}
			}
			if d%7 == q%7 {
				qrels[qid]["d"+strconv.Itoa(d)] = 1 + d%3
			}
			fmt.Fprintf(&b, "%s Q0 d%d %d %d.%03d tag\n", qid, d, d, 300-d, (d*31+q)%997)
		}
	}
	return qrels, b.String()
}

// pipeTo serves data through a named pipe (a FIFO cannot be read twice) and returns its path.
func pipeTo(t *testing.T, data []byte) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), "fifo")
	if err := syscall.Mkfifo(p, 0o600); err != nil {
		t.Skipf("no named pipes here: %v", err)
	}
	go func() {
		f, err := os.OpenFile(p, os.O_WRONLY, 0)
		if err != nil {
			return
		}
		f.Write(data)
		f.Close()
	}()
	return p
}

// An ungrouped run read from a pipe (or standard input) gave num_ret 450848 of 500000: the
// streaming path re-opened a path that a pipe cannot replay. It must give the file's result.
func TestUngroupedRunFromPipe(t *testing.T) {
	qrels, text := ungroupedRun()
	run, err := ReadRun(strings.NewReader(text), "run")
	if err != nil {
		t.Fatal(err)
	}
	ms := []Measure{Measure{Name: nameNumRet}, P(10), AP(), NDCG(10)}
	want, err := Evaluate(qrels, run, ms...)
	if err != nil {
		t.Fatal(err)
	}
	if got := want.All(Measure{Name: nameNumRet}); got != 3000 {
		t.Fatalf("num_ret of the file = %v, want 10 queries × 300 docs = 3000", got)
	}
	check := func(t *testing.T, path string) {
		got, err := evaluateRunFile(qrels, path, ms...)
		if err != nil {
			t.Fatal(err)
		}
		if !slices.EqualFunc(got.Values, want.Values, slices.Equal) || !slices.Equal(got.Summary, want.Summary) {
			t.Errorf("%s: %v, want the file's %v", path, got.Summary, want.Summary)
		}
	}
	t.Run("named pipe", func(t *testing.T) { check(t, pipeTo(t, []byte(text))) })
	t.Run("gzipped through a named pipe", func(t *testing.T) { check(t, pipeTo(t, sharedtest.Gzip([]byte(text)))) })
	t.Run("named pipe, in many passes", func(t *testing.T) {
		saved := passBudget
		passBudget = 5000 // about 16 passes over the copy of the pipe
		defer func() { passBudget = saved }()
		check(t, pipeTo(t, sharedtest.Gzip([]byte(text))))
	})
	t.Run("standard input", func(t *testing.T) {
		r, w, err := os.Pipe()
		if err != nil {
			t.Fatal(err)
		}
		saved := os.Stdin
		os.Stdin = r
		defer func() { os.Stdin = saved; r.Close() }()
		go func() { io.WriteString(w, text); w.Close() }()
		check(t, "-")
	})
	t.Run("regular file", func(t *testing.T) {
		p := sharedtest.WriteFile(t, "", "run", text)
		check(t, p)
	})
}

// A UTF-8 byte-order mark became part of the first query ID (nDCG 0.8155 → 0.3155).
func TestByteOrderMark(t *testing.T) {
	bom := "\xef\xbb\xbf"
	qrelsText := "q1 0 a 2\nq1 0 b 1\nq2 0 c 1\n"
	beirText := "query-id\tcorpus-id\tscore\nq1\ta\t2\nq1\tb\t1\nq2\tc\t1\n"
	runText := "q1 Q0 b 1 3 t\nq1 Q0 a 2 2 t\nq2 Q0 c 1 1 t\n"
	dir := t.TempDir()
	write := func(name, text string) string {
		p := sharedtest.WriteFile(t, dir, name, text)
		return p
	}
	plainQrels, err := ReadQrelsFile(write("qrels", qrelsText))
	if err != nil {
		t.Fatal(err)
	}
	for name, text := range map[string]string{"trec": bom + qrelsText, "beir": bom + beirText, "gzip": string(sharedtest.Gzip([]byte(bom + qrelsText)))} {
		q, err := ReadQrelsFile(write("qrels."+name, text))
		if err != nil || !equalQrels(q, plainQrels) {
			t.Errorf("qrels with a BOM (%s): %v, %v; want %v", name, q, err, plainQrels)
		}
	}
	ms := []Measure{NDCG(10), P(1)}
	plain, _ := ReadRunFile(write("run", runText))
	want, _ := Evaluate(plainQrels, plain, ms...)
	withBOM, err := ReadRunFile(write("run.bom", bom+runText))
	if err != nil || withBOM.Queries["q1"] == nil {
		t.Fatalf("run with a BOM: %v, %v", withBOM.Queries, err)
	}
	for _, path := range []string{filepath.Join(dir, "run.bom"), write("run.bom.gz", string(sharedtest.Gzip([]byte(bom+runText))))} {
		got, err := evaluateRunFile(plainQrels, path, ms...)
		if err != nil || !slices.Equal(got.Summary, want.Summary) || !slices.Equal(got.Queries, []string{"q1", "q2"}) {
			t.Errorf("%s: %v %v, want %v", path, got.Summary, err, want.Summary)
		}
	}
	if z, err := parseZScores(strings.NewReader(bom+"q1 map 0.5 0.1\n"), "z"); err != nil || z["q1"] == nil {
		t.Errorf("Z-score file with a BOM: %v, %v", z, err)
	}
}

func equalQrels(a, b Qrels) bool {
	if len(a) != len(b) {
		return false
	}
	for q, docs := range a {
		if len(docs) != len(b[q]) {
			return false
		}
		for d, g := range docs {
			if g2, ok := b[q][d]; !ok || g2 != g {
				return false
			}
		}
	}
	return true
}

// "1_000" was read as 1000 (Go's syntax) where trec_eval's strtod reads 1: a third meaning. The
// readers accept the documented decimal grammar only and refuse the rest with file:line.
func TestNumberGrammar(t *testing.T) {
	for _, s := range []string{"1_000", "0x10", "1e", "1,5", "inf", "nan", "Infinity", "1e400", "--1", "1.2.3", "+", ".", "5e+"} {
		_, err := ReadRun(strings.NewReader("q1 Q0 a 1 1 t\nq1 Q0 b 2 "+s+" t\n"), "run")
		if !errors.Is(err, ErrScore) || !strings.HasPrefix(err.Error(), "run:2: ") {
			t.Errorf("score %q: %v, want run:2: and ErrScore", s, err)
		}
	}
	for s, want := range map[string]float64{"1": 1, "-1.5": -1.5, "+2": 2, "5.": 5, ".5": 0.5, "1e3": 1000, "1E-2": 0.01, "0001.10": 1.1, "1e-400": 0} {
		run, err := ReadRun(strings.NewReader("q1 Q0 a 1 "+s+" t\n"), "run")
		if err != nil || run.Queries["q1"][0].Score != want {
			t.Errorf("score %q: %v, %v; want %v", s, run.Queries["q1"], err, want)
		}
	}
	for _, s := range []string{"1_000", "1.5", "0x1", "1e3", "abc", "", "2147483648"} {
		_, err := ReadQrels(strings.NewReader("q1 0 a 1\nq1 0 b "+s+" \n"), "qrels")
		if s == "" {
			continue
		}
		if !errors.Is(err, ErrGrade) || !strings.HasPrefix(err.Error(), "qrels:2: ") {
			t.Errorf("grade %q: %v, want qrels:2: and ErrGrade", s, err)
		}
	}
}

// The streaming duplicate error named line 5006 for a doc first listed on line 125006: the
// first line was counted from the start of its block.
func TestDuplicateFirstLine(t *testing.T) {
	var b strings.Builder
	for i := range 125000 {
		fmt.Fprintf(&b, "q%d Q0 d 1 1 t\n", i)
	}
	b.WriteString("qx Q0 a 1 1 t\nqx Q0 b 2 1 t\nqx Q0 a 3 1 t\n") // lines 125001, 125002, 125003
	p := sharedtest.WriteFile(t, "", "run", b.String())
	_, err := evaluateRunFile(Qrels{"qx": {"a": 1}}, p, P(1))
	want := p + `:125003: duplicate doc: "a" listed twice for query "qx" (first on line 125001)`
	if err == nil || err.Error() != want {
		t.Errorf("err = %v\nwant  %s", err, want)
	}
}

// A truncated gzip file gave different causes and line numbers in eval, compare and render.
// Every reader now reports the same: ErrTruncated on the line after the last complete one.
func TestTruncatedGzip(t *testing.T) {
	var b strings.Builder
	for i := range 20000 {
		fmt.Fprintf(&b, "q%d Q0 d%d 1 1.5 t\n", i/100, i)
	}
	full := sharedtest.Gzip([]byte(b.String()))
	cut := full[:len(full)*2/3]
	p := sharedtest.WriteFile(t, "", "run.gz", cut)
	// What the complete lines before the cut are: decompress as far as possible.
	zr, _ := gzip.NewReader(bytes.NewReader(cut))
	part, _ := io.ReadAll(zr)
	line := bytes.Count(part, []byte("\n")) + 1
	_, rerr := ReadRunFile(p)
	_, ferr := evaluateRunFile(Qrels{"q1": {"d101": 1}}, p, P(1))
	want := fmt.Sprintf("%s:%d: %v", p, line, errTruncated)
	for name, err := range map[string]error{"ReadRunFile": rerr, "evaluateRunFile": ferr} {
		if err == nil || err.Error() != want || !errors.Is(err, errTruncated) {
			t.Errorf("%s: %v\nwant %s", name, err, want)
		}
	}
	q := sharedtest.WriteFile(t, "", "qrels.gz", sharedtest.Gzip([]byte("q1 0 a 1\n"))[:12])
	if _, err := ReadQrelsFile(q); !errors.Is(err, errTruncated) || !strings.HasPrefix(err.Error(), q+":1: ") {
		t.Errorf("a gzip header cut short: %v, want %s:1: and ErrTruncated", err, q)
	}
}

// Error messages echoed up to 1 MB of a bad field; they now quote a short prefix.
func TestShortQuotes(t *testing.T) {
	long := strings.Repeat("x", 1<<20)
	for name, read := range map[string]func() error{
		"run score": func() error { _, err := ReadRun(strings.NewReader("q1 Q0 a 1 "+long+" t\n"), "f"); return err },
		"qrels":     func() error { _, err := ReadQrels(strings.NewReader("q1 0 a "+long+"\n"), "f"); return err },
		"beir": func() error {
			_, err := readBEIRQrels(strings.NewReader("query-id\tcorpus-id\tscore\nq\td\t"+long+"\n"), "f")
			return err
		},
		"beir head": func() error { _, err := readBEIRQrels(strings.NewReader(long+"\n"), "f"); return err },
		"prefs":     func() error { _, err := parsePrefs(strings.NewReader("q j s d "+long+"\n"), "f"); return err },
		"duplicate": func() error {
			_, err := ReadRun(strings.NewReader("q Q0 "+long+" 1 1 t\nq Q0 "+long+" 1 1 t\n"), "f")
			return err
		},
		"measure":    func() error { _, err := ParseMeasure("P." + long); return err },
		"ir measure": func() error { _, err := ParseMeasure("P@" + long); return err },
	} {
		err := read()
		if err == nil || len(err.Error()) > 400 {
			t.Errorf("%s: message of %d bytes: %.200v", name, len(fmt.Sprint(err)), err)
		}
	}
}
