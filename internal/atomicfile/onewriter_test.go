package atomicfile

import (
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"path/filepath"
	"strings"
	"testing"
)

// notOutputs are the files that may create or rename files themselves, and why: none of them
// writes a file a user named.
var notOutputs = map[string]string{
	"internal/atomicfile/atomicfile.go": "the writer itself",
	"internal/scan/open.go":             "spools a piped input to $TMPDIR for a second pass, removed after",
	"retrieval/download.go":             "a download's partial zip in the cache, renamed once whole",
	"embed/cache.go":                    "the vector cache's own entries (the dense helper's)",
	"bench/dense/main.go":               "a benchmark's scratch file",
	"internal/sharedtest/sharedtest.go": "tests' input files",
	"internal/sharedtest/peers.go":      "tests' input files for the peers",
}

// TestOneWriter is defect 9 of issue 33: one atomic writer for every output. No Go file outside
// notOutputs calls os.Create, os.CreateTemp, os.WriteFile, os.Rename or ioutil.WriteFile: pool
// files, the judging panel's qrels and every --out go through Write.
func TestOneWriter(t *testing.T) {
	banned := map[string]bool{"os.Create": true, "os.CreateTemp": true, "os.WriteFile": true, "os.Rename": true, "ioutil.WriteFile": true}
	root := filepath.Join("..", "..")
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && (d.Name() == "node_modules" || strings.HasPrefix(d.Name(), ".")) && path != root {
			return filepath.SkipDir
		}
		if d.IsDir() || !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
			return nil
		}
		rel, _ := filepath.Rel(root, path)
		rel = filepath.ToSlash(rel)
		if _, ok := notOutputs[rel]; ok {
			return nil
		}
		fset := token.NewFileSet()
		file, err := parser.ParseFile(fset, path, nil, 0)
		if err != nil {
			return err
		}
		ast.Inspect(file, func(n ast.Node) bool {
			sel, ok := n.(*ast.SelectorExpr)
			if !ok {
				return true
			}
			if id, ok := sel.X.(*ast.Ident); ok && banned[id.Name+"."+sel.Sel.Name] {
				p := fset.Position(sel.Pos())
				t.Errorf("%s:%d: %s.%s writes a file outside internal/atomicfile", rel, p.Line, id.Name, sel.Sel.Name)
			}
			return true
		})
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}
