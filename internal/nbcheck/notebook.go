// Package nbcheck reads the Go code of the repository's GoNB notebooks as a reviewer does, with
// types: it assembles each notebook's code cells into one Go package, type-checks it against the
// module's packages, and finds the positional reads (Reads): index expressions into a result slice,
// a slice that comes from a ranklab package (a field of one of its types, what one of its
// functions returns, a local variable holding either, an element of one). Two result slices read
// with the same index in one function (or one ranged by an index and another read with it) are a
// line-up (LineUps): `r.HSD.Pairs[k]` beside `r.Randomized.Pairs[k]`, `t.Diffs[i]` beside
// `rep.Queries[i]`. A line-up trusts that two slices keep one order, which no compiler checks; the
// library's lookups by name (Report.Comparison, PairsReport.Pairs, Agreement.Count, Result.PerQuery)
// make it unnecessary. TestNotebooks holds every notebook to no line-up and prints the reads.
package nbcheck

import (
	"encoding/json"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"strconv"
	"strings"
)

// cell is one code cell: its index among all the notebook's cells (as the review numbers them,
// from 0) and its Go source as a file: "package main", the declarations, and the statements after
// "%%" as the body of a function, line for line with the cell (line L of the cell is line L+1 of
// the file).
type cell struct {
	index int
	src   string
}

// readCells returns the code cells of the notebook at path as Go files.
func readCells(path string) ([]cell, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	var nb struct {
		Cells []struct {
			Type   string          `json:"cell_type"`
			Source json.RawMessage `json:"source"`
		} `json:"cells"`
	}
	if err := json.Unmarshal(data, &nb); err != nil {
		return nil, fmt.Errorf("%s: %v", path, err)
	}
	var out []cell
	for i, c := range nb.Cells {
		if c.Type != "code" {
			continue
		}
		src, err := source(c.Source)
		if err != nil {
			return nil, fmt.Errorf("%s: cell %d: %v", path, i, err)
		}
		out = append(out, cell{index: i, src: goFile(src, i)})
	}
	return out, nil
}

// source joins a cell's source, a string or a list of strings.
func source(raw json.RawMessage) (string, error) {
	var s string
	if json.Unmarshal(raw, &s) == nil {
		return s, nil
	}
	var lines []string
	if err := json.Unmarshal(raw, &lines); err != nil {
		return "", err
	}
	return strings.Join(lines, ""), nil
}

// goFile turns a GoNB cell into a Go file as GoNB reads it: "!" and "%" lines are commands (blank
// here); the statements after a "%%" line are main's body (here the body of cellN, so that every
// cell's statements are checked apart).
func goFile(src string, n int) string {
	lines := strings.Split(src, "\n")
	body := false
	for i, l := range lines {
		t := strings.TrimSpace(l)
		switch {
		case t == "%%" && !body:
			lines[i] = fmt.Sprintf("func cell%d() {", n)
			body = true
		case strings.HasPrefix(t, "!") || strings.HasPrefix(t, "%"):
			lines[i] = ""
		}
	}
	out := "package main\n" + strings.Join(lines, "\n")
	if body {
		out += "\n}\n"
	}
	return out
}

// parsed is a notebook's code cells, each parsed as a Go file: its declarations (imports apart)
// and, for a cell with "%%", the function cellN holding its statements.
type parsed struct {
	fset    *token.FileSet
	cells   []int               // the notebook cell of each parsed cell
	files   []*ast.File         // one per cell, as parsed (package clause and positions)
	decls   [][]ast.Decl        // per cell: its declarations, imports left out
	imports [][]*ast.ImportSpec // per cell: the imports it declares
}

func parse(path string) (parsed, error) {
	cells, err := readCells(path)
	if err != nil {
		return parsed{}, err
	}
	p := parsed{fset: token.NewFileSet()}
	for _, c := range cells {
		f, err := parser.ParseFile(p.fset, fmt.Sprintf("%s:cell%d", path, c.index), c.src, parser.SkipObjectResolution)
		if err != nil {
			return parsed{}, err
		}
		var decls []ast.Decl
		var imports []*ast.ImportSpec
		for _, d := range f.Decls {
			if g, ok := d.(*ast.GenDecl); ok && g.Tok == token.IMPORT {
				for _, s := range g.Specs {
					imports = append(imports, s.(*ast.ImportSpec))
				}
				continue
			}
			decls = append(decls, d)
		}
		p.cells, p.files = append(p.cells, c.index), append(p.files, f)
		p.decls, p.imports = append(p.decls, decls), append(p.imports, imports)
	}
	return p, nil
}

// build returns the Go files GoNB compiles when cell upto (an index of p.cells) runs: the
// declarations of cells 0..upto, the latest declaration of a name replacing the earlier ones as
// GoNB does, with every import declared so far in every file (GoNB shares them across cells), and
// the statements of cell upto only (of every cell with allBodies).
func (p parsed) build(upto int, allBodies bool) []*ast.File {
	imports := map[string]*ast.ImportSpec{} // name and path → spec
	var order []string
	last := map[string]int{} // declared name → the cell that declares it last
	for i := 0; i <= upto; i++ {
		for _, is := range p.imports[i] {
			key := is.Path.Value
			if is.Name != nil {
				key = is.Name.Name + " " + key
			}
			if imports[key] == nil {
				imports[key] = is
				order = append(order, key)
			}
		}
		for _, d := range p.decls[i] {
			for _, name := range declNames(d) {
				if name != "_" {
					last[name] = i
				}
			}
		}
	}
	var files []*ast.File
	for i := 0; i <= upto; i++ {
		var keep []ast.Decl
		for _, d := range p.decls[i] {
			names := declNames(d)
			switch {
			case len(names) == 1 && strings.HasPrefix(names[0], "cell") && isBody(d):
				if allBodies || i == upto {
					keep = append(keep, d)
				}
			case len(names) == 0 || names[0] == "_" || last[names[0]] == i:
				keep = append(keep, d)
			}
		}
		f := &ast.File{Package: p.files[i].Package, Name: p.files[i].Name, FileStart: p.files[i].FileStart, FileEnd: p.files[i].FileEnd}
		imp := &ast.GenDecl{Tok: token.IMPORT, Lparen: 1}
		for _, key := range order {
			is := imports[key]
			path, _ := strconv.Unquote(is.Path.Value)
			spec := &ast.ImportSpec{Name: is.Name, Path: &ast.BasicLit{Kind: token.STRING, Value: strconv.Quote(path)}}
			imp.Specs = append(imp.Specs, spec)
			f.Imports = append(f.Imports, spec)
		}
		if len(imp.Specs) > 0 {
			keep = append([]ast.Decl{imp}, keep...)
		}
		f.Decls = keep
		files = append(files, f)
	}
	return files
}

// isBody reports whether d is the function goFile made of a cell's statements.
func isBody(d ast.Decl) bool {
	f, ok := d.(*ast.FuncDecl)
	return ok && f.Recv == nil && f.Type.Params.NumFields() == 0 && f.Type.Results == nil &&
		strings.HasPrefix(f.Name.Name, "cell") && strings.Trim(f.Name.Name[4:], "0123456789") == ""
}

// declNames are the names a top-level declaration declares ("T.M" for a method).
func declNames(d ast.Decl) []string {
	switch d := d.(type) {
	case *ast.FuncDecl:
		if d.Recv != nil && len(d.Recv.List) > 0 {
			return []string{recvName(d.Recv.List[0].Type) + "." + d.Name.Name}
		}
		return []string{d.Name.Name}
	case *ast.GenDecl:
		var out []string
		for _, s := range d.Specs {
			switch s := s.(type) {
			case *ast.TypeSpec:
				out = append(out, s.Name.Name)
			case *ast.ValueSpec:
				for _, n := range s.Names {
					out = append(out, n.Name)
				}
			}
		}
		return out
	}
	return nil
}

func recvName(e ast.Expr) string {
	switch e := e.(type) {
	case *ast.StarExpr:
		return recvName(e.X)
	case *ast.IndexExpr:
		return recvName(e.X)
	case *ast.Ident:
		return e.Name
	}
	return "?"
}
