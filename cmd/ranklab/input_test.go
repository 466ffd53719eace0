package main

import (
	"bytes"
	"errors"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ranklab/ranklab/internal/sharedtest"
)

// runPiped runs "ranklab args..." in a child process (this test binary, see TestMain) whose
// standard input is a pipe carrying stdin.
func runPiped(t *testing.T, stdin []byte, args ...string) (stdout, stderr string, rc int) {
	t.Helper()
	cmd := exec.Command(os.Args[0], args...)
	cmd.Env = append(os.Environ(), childEnv+"=1")
	cmd.Stdin = bytes.NewReader(stdin)
	var o, e bytes.Buffer
	cmd.Stdout, cmd.Stderr = &o, &e
	err := cmd.Run()
	if ee, ok := err.(*exec.ExitError); ok {
		return o.String(), e.String(), ee.ExitCode()
	} else if err != nil {
		t.Fatal(err)
	}
	return o.String(), e.String(), 0
}

const (
	pipeQrels  = "q1 0 d1 1\nq1 0 d2 0\nq2 0 d3 1\nq3 0 d4 1\n"
	pipeBase   = "q1 Q0 d2 1 2 b\nq1 Q0 d1 2 1 b\nq2 Q0 d9 1 1 b\nq3 Q0 d8 1 3 b\nq3 Q0 d4 2 1 b\n"
	pipeBetter = "q1 Q0 d1 1 2 r\nq1 Q0 d2 2 1 r\nq2 Q0 d3 1 1 r\nq3 Q0 d4 1 3 r\n"
)

// TestPipedInputsReadOnce is defect 1 of issue 23: compare and check read a run or the qrels
// given as "-" (a pipe) as they read the same file: the preflight never consumes what the
// evaluation needs, so the numbers, the marks and the findings are the file's.
func TestPipedInputsReadOnce(t *testing.T) {
	dir := sharedtest.WriteTree(t, map[string]string{"qrels": pipeQrels, "base.run": pipeBase, "better.run": pipeBetter})
	q, base, better := filepath.Join(dir, "qrels"), filepath.Join(dir, "base.run"), filepath.Join(dir, "better.run")
	fromFile, errFile, rc := runCmd("compare", q, base, better, "-m", "AP", "-f", "csv", "--no-stamp")
	if rc != 0 {
		t.Fatalf("compare files: rc %d: %s", rc, errFile)
	}
	want := strings.ReplaceAll(fromFile, better, "-")
	if got, errOut, rc := runPiped(t, []byte(pipeBetter), "compare", q, base, "-", "-m", "AP", "-f", "csv", "--no-stamp"); rc != 0 || got != want || strings.Contains(errOut, "empty") {
		t.Errorf("compare with the run piped: rc %d, stderr %q\ngot:\n%s\nwant:\n%s", rc, errOut, got, want)
	}
	wantQ := strings.ReplaceAll(fromFile, q, "-")
	if got, errOut, rc := runPiped(t, []byte(pipeQrels), "compare", "-", base, better, "-m", "AP", "-f", "csv", "--no-stamp"); rc != 0 || got != wantQ {
		t.Errorf("compare with the qrels piped: rc %d, stderr %q\ngot:\n%s\nwant:\n%s", rc, errOut, got, wantQ)
	}
	checkFile, _, rcFile := runCmd("check", q, better)
	if got, errOut, rc := runPiped(t, []byte(pipeBetter), "check", q, "-"); rc != rcFile || got != strings.ReplaceAll(checkFile, better, "-") {
		t.Errorf("check with the run piped: rc %d (file %d), stderr %q\ngot:\n%s\nwant:\n%s", rc, rcFile, errOut, got, checkFile)
	}
	if got, _, rc := runPiped(t, []byte(pipeQrels), "check", "-", better); rc != rcFile || got != strings.ReplaceAll(checkFile, q, "-") {
		t.Errorf("check with the qrels piped: rc %d (file %d)\ngot:\n%s\nwant:\n%s", rc, rcFile, got, checkFile)
	}
}

// TestOutAtomic is defect 7 of issue 23: an --out whose writing fails (a full disk, here a
// producer failing after 140,000 bytes) leaves no file at the path, cut or whole, and no
// temporary file beside it; fuse --out on success writes the whole run.
func TestOutAtomic(t *testing.T) {
	dir := t.TempDir()
	out := filepath.Join(dir, "fused.run")
	full := errors.New("no space left on device")
	err := writeTo(out, nil, func(w io.Writer) error {
		io.WriteString(w, strings.Repeat("q1 Q0 d 1 1 t\n", 10000))
		return full
	})
	if !errors.Is(err, full) {
		t.Fatalf("err = %v", err)
	}
	if entries, _ := os.ReadDir(dir); len(entries) != 0 {
		t.Errorf("a failed --out left %v", entries)
	}
	page := filepath.Join(dir, "page.html")
	if rc := renderWrite(page, "<p>x</p>", "test", io.Discard, io.Discard); rc != 0 {
		t.Fatal("renderWrite failed")
	}
	if b, _ := os.ReadFile(page); string(b) != "<p>x</p>" {
		t.Errorf("page = %q", b)
	}
	if rc := renderWrite(filepath.Join(dir, "missing", "page.html"), "<p>x</p>", "test", io.Discard, io.Discard); rc != 1 {
		t.Error("writing into a missing folder: want exit 1")
	}
}

// TestCSVFormulaCells is defect 11 of issue 23: query IDs and run names a spreadsheet would run
// as formulas are written with a leading "'" in eval's and compare's CSV.
func TestCSVFormulaCells(t *testing.T) {
	dir := t.TempDir()
	t.Chdir(dir)
	q1, q2 := `=cmd|'/Ccalc'!A0`, "+SUM(1+1)"
	sharedtest.WriteFile(t, dir, "qrels", q1+" 0 a 1\n"+q2+" 0 b 1\n")
	sharedtest.WriteFile(t, dir, `=HYPERLINK("x")`, q1+" Q0 a 1 2 t\n"+q2+" Q0 b 1 1 t\n")
	sharedtest.WriteFile(t, dir, "base", q1+" Q0 b 1 2 t\n"+q2+" Q0 a 1 1 t\n")
	out, errOut, rc := runCmd("eval", "-q", "-m", "P@1", "-f", "csv", "--no-stamp", "qrels", `=HYPERLINK("x")`)
	if rc != 0 {
		t.Fatal(errOut)
	}
	for _, cell := range []string{`'=cmd|'/Ccalc'!A0`, "'+SUM(1+1)"} {
		if !strings.Contains(out, "\n"+cell+",") && !strings.Contains(out, "\n\""+cell) {
			t.Errorf("eval CSV lacks the neutralised cell %s:\n%s", cell, out)
		}
	}
	out, errOut, rc = runCmd("compare", "-m", "P@1", "-f", "csv", "--no-stamp", "qrels", "base", `=HYPERLINK("x")`)
	if rc != 0 {
		t.Fatal(errOut)
	}
	if !strings.Contains(out, `"'=HYPERLINK(""x"")"`) {
		t.Errorf("compare CSV lacks the neutralised run name:\n%s", out)
	}
	for _, line := range strings.Split(out, "\n") {
		if strings.HasPrefix(line, "=") || strings.HasPrefix(line, `"=`) || strings.HasPrefix(line, "+") {
			t.Errorf("a formula cell starts a line: %s", line)
		}
	}
}

// TestDecimalFlags is defect 12 of issue 23: every numeric flag reads numbers as the files do:
// "010" is ten (as in --link k=010), "0x10" and "1_0" are refused.
func TestDecimalFlags(t *testing.T) {
	ten, _, rc := runCmd("lab", "--k", "10", "-f", "json")
	if rc != 0 {
		t.Fatal("lab --k 10 failed")
	}
	if got, errOut, rc := runCmd("lab", "--k", "010", "-f", "json"); rc != 0 || got != ten {
		t.Errorf("lab --k 010: rc %d %s, want the output of --k 10", rc, errOut)
	}
	if got, _, rc := runCmd("lab", "--link", "k=010", "-f", "json"); rc != 0 || got != ten {
		t.Errorf("lab --link k=010: rc %d, want the output of --k 10", rc)
	}
	dir := sharedtest.WriteTree(t, map[string]string{"a.run": fuseRunA, "b.run": fuseRunB})
	a, b := filepath.Join(dir, "a.run"), filepath.Join(dir, "b.run")
	for _, args := range [][]string{
		{"lab", "--k", "0x10"},
		{"lab", "--k", "1_0"},
		{"fuse", "--weights", "1_0,1", a, b},
		{"fuse", "--k", "0x10", a, b},
		{"fuse", "--k", "inf", a, b},
		{"fuse", "--top", "0o7", a, b},
		{"compare", "-resamples", "1_000", a, a, b},
		{"check", "-k", "0x10", a, b},
	} {
		if _, errOut, rc := runCmd(args...); rc == 0 {
			t.Errorf("%q: accepted, want a usage error", args)
		} else if !strings.Contains(errOut, "decimal") && !strings.Contains(errOut, "integer") {
			t.Errorf("%q: error %q does not say what a number is", args, errOut)
		}
	}
	w10, _, _ := runCmd("fuse", "--method", "combsum", "--weights", "10,1", a, b)
	if got, errOut, rc := runCmd("fuse", "--method", "combsum", "--weights", "010,1", a, b); rc != 0 || got != w10 {
		t.Errorf("fuse --weights 010,1: rc %d %s, want the output of 10,1", rc, errOut)
	}
}

// TestZScoreLabels is defect 4 of issue 23: with -Z the values are Z scores, and every format
// says so: CSV and JSON columns are named Z<measure> (trec_eval's Zmap), JSON names the Z file,
// and the provenance stamp states the standardisation.
func TestZScoreLabels(t *testing.T) {
	dir := sharedtest.WriteTree(t, map[string]string{
		"qrels": "q1 0 a 1\nq1 0 b 0\n",
		"run":   "q1 Q0 b 1 2 t\nq1 Q0 a 2 1 t\n",
		"z":     "q1 map 0.25 0.5\nq1 P_5 0 1\n",
	})
	q, r, z := filepath.Join(dir, "qrels"), filepath.Join(dir, "run"), filepath.Join(dir, "z")
	// AP of q1 = 1/2; its Z score (0.5 - 0.25) / 0.5 = 0.5. P@5 = 1/5 = 0.2; Z = 0.2.
	csvOut, errOut, rc := runCmd("eval", "-Z", z, "-m", "AP", "-m", "P@5", "-f", "csv", "-q", q, r)
	if rc != 0 {
		t.Fatal(errOut)
	}
	if !strings.Contains(csvOut, "\nquery,ZAP,ZP@5\n") || !strings.Contains(csvOut, "\nq1,0.5,0.2\n") || !strings.Contains(csvOut, "Z scores") {
		t.Errorf("CSV with -Z:\n%s", csvOut)
	}
	jsonOut, errOut, rc := runCmd("eval", "-Z", z, "-m", "AP", "-f", "json", q, r)
	if rc != 0 {
		t.Fatal(errOut)
	}
	if !strings.Contains(jsonOut, `"measures": [`+"\n"+`    "ZAP"`) || !strings.Contains(jsonOut, `"z_scores": "`+z+`"`) || !strings.Contains(jsonOut, "Z scores") {
		t.Errorf("JSON with -Z:\n%s", jsonOut)
	}
	plain, _, _ := runCmd("eval", "-m", "AP", "-f", "csv", "--no-stamp", q, r)
	if strings.Contains(plain, "ZAP") {
		t.Errorf("CSV without -Z names Z columns:\n%s", plain)
	}
}

// TestJSONInvalidUTF8IDs is defect 13 of issue 23: queries "q\xff" and "q\xfe" stay two
// queries in eval's and compare's JSON, written "q\udcff" and "q\udcfe" (package jsonx).
func TestJSONInvalidUTF8IDs(t *testing.T) {
	dir := sharedtest.WriteTree(t, map[string]string{
		"qrels": "q\xff 0 a 1\nq\xfe 0 b 1\n",
		"a.run": "q\xff Q0 a 1 2 t\nq\xfe Q0 a 1 1 t\n",
		"b.run": "q\xff Q0 b 1 2 t\nq\xfe Q0 b 1 1 t\n",
	})
	q, a, b := filepath.Join(dir, "qrels"), filepath.Join(dir, "a.run"), filepath.Join(dir, "b.run")
	out, errOut, rc := runCmd("eval", "-q", "-m", "P@1", "-f", "json", "--no-stamp", q, a)
	if rc != 0 {
		t.Fatal(errOut)
	}
	if !strings.Contains(out, `"q\udcfe"`) || !strings.Contains(out, `"q\udcff"`) || strings.Contains(out, `\ufffd`) {
		t.Errorf("eval JSON:\n%s", out)
	}
	out, errOut, rc = runCmd("compare", "-m", "P@1", "-f", "json", "--no-stamp", q, a, b)
	if rc != 0 {
		t.Fatal(errOut)
	}
	if !strings.Contains(out, `q\udcfe`) || !strings.Contains(out, `q\udcff`) || strings.Contains(out, `\ufffd`) {
		t.Errorf("compare JSON:\n%.600s", out)
	}
}

// TestByteOrderMarkSameNumbers: an input that starts with a UTF-8 byte order mark, as a file or
// piped, gives every command (eval, compare, check, rag, fuse) the plain file's output: the input
// layer drops the mark. check adds one warning for it (the peers would read it into the first
// ID) and otherwise prints what it prints for the plain file, tie sensitivity included; compare,
// whose preflight is check, calls the same differences significant.
func TestByteOrderMarkSameNumbers(t *testing.T) {
	const bom = "\xef\xbb\xbf"
	files := map[string]string{"qrels": pipeQrels, "base.run": pipeBase, "better.run": pipeBetter,
		"rq": ragFiles["qrels"], "chunks.run": ragFiles["run"], "chunks.map": ragFiles["map"]}
	plain, marked := map[string]string{}, map[string]string{}
	for name, text := range files {
		plain[name], marked[name] = text, bom+text
	}
	pdir, mdir := sharedtest.WriteTree(t, plain), sharedtest.WriteTree(t, marked)
	cases := [][]string{
		{"eval", "qrels", "better.run"},
		{"eval", "-q", "-m", "AP", "-m", "nDCG@10", "qrels", "better.run"},
		{"compare", "-m", "AP", "-m", "P@1", "-f", "csv", "--no-stamp", "qrels", "base.run", "better.run"},
		{"check", "qrels", "base.run", "better.run"},
		{"rag", "rq", "chunks.run", "--map", "chunks.map", "--budgets", "10,25"},
		{"fuse", "--method", "combsum", "--norm", "minmax", "base.run", "better.run"},
	}
	// in puts dir before every argument that names one of the files.
	in := func(dir string, args []string) []string {
		out := make([]string, len(args))
		for i, a := range args {
			out[i] = a
			if _, ok := files[a]; ok {
				out[i] = filepath.Join(dir, a)
			}
		}
		return out
	}
	// same drops what only the mark may add (check's warning about it, and its count of
	// warnings) and the folder, then compares.
	same := func(t *testing.T, what, got, want string) {
		t.Helper()
		norm := func(s, dir string) string {
			var keep []string
			for _, l := range strings.Split(strings.ReplaceAll(s, dir+string(filepath.Separator), ""), "\n") {
				if !strings.Contains(l, "byte order mark") && !strings.HasPrefix(l, "ranklab check: ") {
					keep = append(keep, l)
				}
			}
			return strings.Join(keep, "\n")
		}
		if g, w := norm(got, mdir), norm(want, pdir); g != w {
			t.Errorf("%s: with a byte order mark\n%s\nwithout\n%s", what, g, w)
		}
	}
	for _, args := range cases {
		want, _, wantRC := runCmd(in(pdir, args)...)
		if wantRC != 0 {
			t.Fatalf("%v: rc %d on the plain files", args, wantRC)
		}
		got, errOut, rc := runCmd(in(mdir, args)...)
		if rc != wantRC {
			t.Errorf("%v: rc %d with the marks, %d without: %s", args, rc, wantRC, errOut)
		}
		same(t, strings.Join(args, " "), got, want)
		if args[0] == "check" && strings.Count(got, "byte order mark") != 3 {
			t.Errorf("check: want one warning about the mark per file:\n%s", got)
		}
		// The same marked file piped: the first file argument read from stdin.
		for i, a := range args {
			if _, ok := files[a]; !ok {
				continue
			}
			pa := in(mdir, args)
			pa[i] = "-"
			got, errOut, rc := runPiped(t, []byte(marked[a]), pa...)
			if rc != wantRC {
				t.Errorf("%v with %s piped: rc %d, want %d: %s", args, a, rc, wantRC, errOut)
			}
			same(t, strings.Join(pa, " "), got, strings.ReplaceAll(want, filepath.Join(pdir, a), "-"))
			break
		}
	}
}
