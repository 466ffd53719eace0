// Package apicount counts the exported names of the module's public packages: the repository's
// check on the size of its API (issue 21). A package's count is its exported top-level
// declarations (types, functions, variables, constants) plus the exported methods of its
// exported types; exported struct fields are counted apart. Internal packages, commands
// (package main) and test files are left out.
package apicount

import (
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
)

// Package is one package's count.
type Package struct {
	Path    string // the directory, relative to the module root ("eval")
	Names   int    // exported top-level names plus exported methods of exported types
	Methods int    // of which methods
	Fields  int    // exported fields of exported struct types (not in Names)
}

// Count walks the module rooted at root and returns the count of every public package,
// sorted by path.
func Count(root string) ([]Package, error) {
	dirs := map[string]bool{}
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		name := d.Name()
		if d.IsDir() {
			if p != root && (strings.HasPrefix(name, ".") || strings.HasPrefix(name, "_") || name == "testdata" || name == "internal" || name == "node_modules") {
				return filepath.SkipDir
			}
			return nil
		}
		if strings.HasSuffix(name, ".go") && !strings.HasSuffix(name, "_test.go") {
			dirs[filepath.Dir(p)] = true
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	var out []Package
	for dir := range dirs {
		pkg, isMain, err := countDir(dir)
		if err != nil {
			return nil, err
		}
		if isMain {
			continue
		}
		rel, _ := filepath.Rel(root, dir)
		pkg.Path = filepath.ToSlash(rel)
		out = append(out, pkg)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Path < out[j].Path })
	return out, nil
}

// countDir counts the exported names of the non-test Go files of one directory.
func countDir(dir string) (pkg Package, isMain bool, err error) {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return pkg, false, err
	}
	fset := token.NewFileSet()
	exportedType := map[string]bool{}
	var files []*ast.File
	for _, e := range entries {
		n := e.Name()
		if e.IsDir() || !strings.HasSuffix(n, ".go") || strings.HasSuffix(n, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(fset, filepath.Join(dir, n), nil, parser.SkipObjectResolution)
		if err != nil {
			return pkg, false, err
		}
		if f.Name.Name == "main" {
			return pkg, true, nil
		}
		files = append(files, f)
		for _, d := range f.Decls {
			if g, ok := d.(*ast.GenDecl); ok && g.Tok == token.TYPE {
				for _, s := range g.Specs {
					if ts := s.(*ast.TypeSpec); ts.Name.IsExported() {
						exportedType[ts.Name.Name] = true
					}
				}
			}
		}
	}
	for _, f := range files {
		for _, d := range f.Decls {
			switch d := d.(type) {
			case *ast.FuncDecl:
				if !d.Name.IsExported() {
					continue
				}
				if d.Recv == nil {
					pkg.Names++
				} else if exportedType[recvName(d.Recv.List[0].Type)] {
					pkg.Names++
					pkg.Methods++
				}
			case *ast.GenDecl:
				for _, s := range d.Specs {
					switch s := s.(type) {
					case *ast.TypeSpec:
						if !s.Name.IsExported() {
							continue
						}
						pkg.Names++
						if st, ok := s.Type.(*ast.StructType); ok {
							for _, fl := range st.Fields.List {
								for _, n := range fl.Names {
									if n.IsExported() {
										pkg.Fields++
									}
								}
							}
						}
					case *ast.ValueSpec:
						for _, n := range s.Names {
							if n.IsExported() {
								pkg.Names++
							}
						}
					}
				}
			}
		}
	}
	return pkg, false, nil
}

// recvName is the type name of a method receiver (T, *T, T[P]).
func recvName(e ast.Expr) string {
	for {
		switch t := e.(type) {
		case *ast.StarExpr:
			e = t.X
		case *ast.IndexExpr:
			e = t.X
		case *ast.IndexListExpr:
			e = t.X
		case *ast.Ident:
			return t.Name
		default:
			return ""
		}
	}
}
