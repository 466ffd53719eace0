package apicount

import (
	"bytes"
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// maxNames is issue 21's ceiling on the exported names of the public packages.
const maxNames = 450

// TestCounts prints the exported names per package (go test -v ./internal/apicount) and holds
// the targets of issue 21: eval at most 90 exported names, the public API at most 450.
func TestCounts(t *testing.T) {
	root, err := filepath.Abs("../..")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(root, "go.mod")); err != nil {
		t.Fatal(err)
	}
	pkgs, err := Count(root)
	if err != nil {
		t.Fatal(err)
	}
	total, fields := 0, 0
	byPath := map[string]int{}
	for _, p := range pkgs {
		t.Logf("%-12s %4d names (%3d methods) %4d fields", p.Path, p.Names, p.Methods, p.Fields)
		total += p.Names
		fields += p.Fields
		byPath[p.Path] = p.Names
	}
	t.Logf("%-12s %4d names %17d fields", "total", total, fields)
	if byPath["eval"] == 0 {
		t.Fatal("no package eval counted")
	}
	// Issue 21's targets: eval at most 90 names (160 before), the whole API at most 450 (578
	// before the cut; each package's share is printed above, not held one by one). A new
	// exported name past 450 means unexporting or folding one elsewhere (see the issue).
	if n := byPath["eval"]; n > 90 {
		t.Errorf("eval exports %d names, want at most 90", n)
	}
	if total > maxNames {
		t.Errorf("the public API has %d names, want at most %d (issue 21)", total, maxNames)
	}
}

// TestDocLength holds `go doc -all` of the largest packages to at most 500 lines, so a user
// reads each in one sitting: eval (1,002 lines before issue 21) and retrieval (651 before issue
// 31 moved its studies to package study).
func TestDocLength(t *testing.T) {
	gobin, err := exec.LookPath("go")
	if err != nil {
		t.Skip("no go command on PATH")
	}
	for _, pkg := range []string{"eval", "retrieval"} {
		t.Run(pkg, func(t *testing.T) {
			cmd := exec.Command(gobin, "doc", "-all", "./"+pkg)
			cmd.Dir = "../.."
			out, err := cmd.Output()
			if err != nil {
				t.Fatalf("go doc -all ./%s: %v", pkg, err)
			}
			n := bytes.Count(out, []byte("\n"))
			t.Logf("go doc -all ./%s: %d lines", pkg, n)
			if n > 500 {
				t.Errorf("go doc -all ./%s prints %d lines, want at most 500", pkg, n)
			}
		})
	}
}

// TestNoONNXRuntimeInJudgeAndCheck: judge and check read BEIR collections and analyze text; they
// must not link the cgo ONNX Runtime binding behind package embed (issue 31). They reached it
// through retrieval's dense searcher until that moved to package dense.
func TestNoONNXRuntimeInJudgeAndCheck(t *testing.T) {
	gobin, err := exec.LookPath("go")
	if err != nil {
		t.Skip("no go command on PATH")
	}
	cmd := exec.Command(gobin, "list", "-deps", "./judge", "./check")
	cmd.Dir = "../.."
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("go list -deps ./judge ./check: %v", err)
	}
	n := 0
	for _, p := range strings.Fields(string(out)) {
		if !strings.HasPrefix(p, "github.com/ranklab/ranklab/") {
			continue
		}
		n++
		if p == "github.com/ranklab/ranklab/embed" || strings.HasPrefix(p, "github.com/ranklab/ranklab/embed/") {
			t.Errorf("judge or check depends on %s (the dense model and its cgo ONNX Runtime binding)", p)
		}
	}
	t.Logf("go list -deps ./judge ./check: %d ranklab packages", n)
}

// TestCountDir checks the counting rules on a package written here.
func TestCountDir(t *testing.T) {
	dir := t.TempDir()
	src := `package p
type T struct{ A, b int; C string }
type u struct{ D int }
func (T) M() {}
func (*T) n() {}
func (u) E() {}
func F() {}
func g() {}
const X, y = 1, 2
var (Z int; w int)
`
	if err := os.WriteFile(filepath.Join(dir, "p.go"), []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "p_test.go"), []byte("package p\nfunc Test() {}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	got, _, err := countDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	// T, M, F, X, Z = 5 names (1 method); A, C = 2 fields.
	if got.Names != 5 || got.Methods != 1 || got.Fields != 2 {
		t.Errorf("got %+v, want 5 names, 1 method, 2 fields", got)
	}
}

// TestInitOutsideCmd: no package outside cmd registers anything by init() (issue 31): a package
// that read such a hook without importing its filler saw nil. Left are encoding/gob's own
// registry (a type must be registered before any value is decoded, in a process that may decode
// first) and charts reading RANKLAB_ECHARTS once; any other init() outside cmd fails here.
func TestInitOutsideCmd(t *testing.T) {
	allowed := map[string]string{
		"compare/gob.go":    "gob.Register(eval.Measure{})",
		"rag/budget.go":     "gob.Register(BudgetMeasure{})",
		"charts/echarts.go": "offline.Store(offlineFromEnv(os.Getenv(envMode)))",
	}
	root, err := filepath.Abs("../..")
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	err = filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(root, p)
		rel = filepath.ToSlash(rel)
		if d.IsDir() {
			if strings.HasPrefix(d.Name(), ".") && p != root || d.Name() == "testdata" || d.Name() == "node_modules" || rel == "cmd" {
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(rel, ".go") || strings.HasSuffix(rel, "_test.go") {
			return nil
		}
		src, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		fset := token.NewFileSet()
		f, err := parser.ParseFile(fset, p, src, parser.SkipObjectResolution)
		if err != nil {
			return err
		}
		for _, decl := range f.Decls {
			fn, ok := decl.(*ast.FuncDecl)
			if !ok || fn.Recv != nil || fn.Name.Name != "init" {
				continue
			}
			n++
			body := strings.TrimSpace(string(src[fset.Position(fn.Body.Lbrace).Offset+1 : fset.Position(fn.Body.Rbrace).Offset]))
			if allowed[rel] != body {
				t.Errorf("%s: init() { %s }: pass what it sets up explicitly (a value, an argument, or a package both import)", fset.Position(fn.Pos()), body)
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("%d init() outside cmd", n)
}
