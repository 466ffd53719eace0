package main

import (
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ranklab/ranklab/internal/sharedtest"
)

// TestNewCommandsDecimalFlags is defect 8 of issue 33: pool, agree and check --corpus read their
// numbers as every other command does (internal/numflag): "010" is ten, "0x3", "1_0", "0o7" and
// "5e-0_2" are refused with a message that says what a number is.
func TestNewCommandsDecimalFlags(t *testing.T) {
	dir := sharedtest.WriteTree(t, map[string]string{
		"a.run":        fuseRunA,
		"b.run":        fuseRunB,
		"long.run":     longRun(12),
		"a.qrels":      "q1 0 d1 1\nq1 0 d2 0\nq2 0 d3 1\n",
		"b.qrels":      "q1 0 d1 1\nq1 0 d2 1\nq2 0 d3 1\n",
		"corpus.jsonl": `{"_id": "d1", "text": "one two three four five six"}` + "\n" + `{"_id": "d2", "text": "seven eight nine ten eleven"}` + "\n",
	})
	a, b := filepath.Join(dir, "a.run"), filepath.Join(dir, "b.run")
	qa, qb := filepath.Join(dir, "a.qrels"), filepath.Join(dir, "b.qrels")
	corpus := filepath.Join(dir, "corpus.jsonl")
	long := filepath.Join(dir, "long.run")
	ten, e, rc := runCmd("pool", "--depth", "10", long)
	if rc != 0 || strings.Count(ten, "\n") != 10 {
		t.Fatalf("pool --depth 10 of 12 docs: rc %d, %q %s", rc, ten, e)
	}
	if got, errOut, rc := runCmd("pool", "--depth", "010", long); rc != 0 || got != ten {
		t.Errorf("pool --depth 010: rc %d %s, want the pool of --depth 10", rc, errOut)
	}
	for _, args := range [][]string{
		{"pool", "--depth", "0x3", a},
		{"pool", "--depth", "1_0", a},
		{"pool", "-l", "0o1", "--method", "mtf", a},
		{"agree", "--resamples", "0x10", qa, qb},
		{"agree", "--alpha", "5e-0_2", qa, qb, a, b},
		{"agree", "-l", "0x1", qa, qb},
		{"agree", "--seed", "1_0", qa, qb},
		{"agree", "--labels", "0,0x1", qa, qb},
		{"check", "--corpus", corpus, "--examples", "0x5"},
		{"check", "--corpus", corpus, "--threshold", "0x1p-1"},
		{"check", "--corpus", corpus, "--threshold", "9_0e-2"},
	} {
		if _, errOut, rc := runCmd(args...); rc != 2 {
			t.Errorf("%q: exit %d, want a usage error (2)", args, rc)
		} else if !strings.Contains(errOut, "decimal") && !strings.Contains(errOut, "integer") {
			t.Errorf("%q: error %q does not say what a number is", args, errOut)
		}
	}
}

// longRun is a run of query q1 with n documents d1..dn, scores n..1.
func longRun(n int) string {
	var b strings.Builder
	for i := 1; i <= n; i++ {
		fmt.Fprintf(&b, "q1 Q0 d%d %d %d r\n", i, i, n+1-i)
	}
	return b.String()
}

// TestFlagsGoThroughNumflag keeps the rule for the commands to come: no file of the command line
// defines a number flag with the standard flag package (fs.Int, fs.Float64, ...), which reads
// "010" as 8, "0x10" as 16 and "1_0" as 10.
func TestFlagsGoThroughNumflag(t *testing.T) {
	files, err := filepath.Glob("*.go")
	if err != nil {
		t.Fatal(err)
	}
	banned := map[string]bool{"Int": true, "Int64": true, "Uint": true, "Uint64": true, "Float64": true, "Duration": true,
		"IntVar": true, "Int64Var": true, "UintVar": true, "Uint64Var": true, "Float64Var": true, "DurationVar": true}
	for _, f := range files {
		if strings.HasSuffix(f, "_test.go") {
			continue
		}
		src, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		fset := token.NewFileSet()
		file, err := parser.ParseFile(fset, f, src, 0)
		if err != nil {
			t.Fatal(err)
		}
		ast.Inspect(file, func(n ast.Node) bool {
			call, ok := n.(*ast.CallExpr)
			if !ok {
				return true
			}
			sel, ok := call.Fun.(*ast.SelectorExpr)
			if !ok || !banned[sel.Sel.Name] {
				return true
			}
			if id, ok := sel.X.(*ast.Ident); ok && (id.Name == "fs" || id.Name == "flag") {
				t.Errorf("%s: %s.%s defines a number flag with the flag package: use internal/numflag", fset.Position(call.Pos()), id.Name, sel.Sel.Name)
			}
			return true
		})
	}
}
