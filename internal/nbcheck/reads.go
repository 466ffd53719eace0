package nbcheck

import (
	"bytes"
	"encoding/json"
	"fmt"
	"go/ast"
	"go/importer"
	"go/token"
	"go/types"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
)

// Module is the path of the packages whose slices are results.
const Module = "github.com/ranklab/ranklab"

// Read is one positional read: an index expression into a result slice, or (Ranged) a range
// statement over a result slice that binds its index.
type Read struct {
	Cell   int    // the notebook cell, counted from 0 over all cells
	Line   int    // the line in the cell, from 1
	Slice  string // the result slice, as written: "r.HSD.Pairs"
	Index  string // the index, as written: "k"
	Ranged bool   // `for Index, … := range Slice`, not an index expression (not counted in Reads)
	key    string // the index's identity: its variables' declarations, or its constant value
	fn     string // the enclosing top-level function
}

func (r Read) String() string {
	if r.Ranged {
		return fmt.Sprintf("cell %d line %d: for %s := range %s", r.Cell, r.Line, r.Index, r.Slice)
	}
	return fmt.Sprintf("cell %d line %d: %s[%s]", r.Cell, r.Line, r.Slice, r.Index)
}

// LineUp is two result slices read with one index in one function: the code trusts they keep
// one order.
type LineUp struct{ A, B Read }

func (l LineUp) String() string {
	return fmt.Sprintf("%s lined up with %s (index %s)", l.B, l.A.Slice, l.B.Index)
}

// Notebook is what Check finds in one notebook.
type Notebook struct {
	Path    string
	Reads   []Read   // positional reads (index expressions), in cell and line order
	LineUps []LineUp // pairs of result slices read with one index
	Errors  []string // type errors other than unused variables and imports (the check is partial then)
}

// Check type-checks each notebook against the module at root and returns its reads.
func Check(root string, notebooks ...string) ([]Notebook, error) {
	var ps []parsed
	paths := map[string]bool{}
	for _, n := range notebooks {
		p, err := parse(n)
		if err != nil {
			return nil, err
		}
		ps = append(ps, p)
		for _, specs := range p.imports {
			for _, is := range specs {
				paths[strings.Trim(is.Path.Value, `"`)] = true
			}
		}
	}
	exports, err := exportData(root, paths)
	if err != nil {
		return nil, err
	}
	var out []Notebook
	for i, p := range ps {
		out = append(out, analyse(notebooks[i], p, exports))
	}
	return out, nil
}

// exportData returns the compiler's export data file of every package the notebooks import and
// their dependencies (`go list -export -deps`, built in the module at root).
func exportData(root string, paths map[string]bool) (map[string]string, error) {
	args := []string{"list", "-export", "-deps", "-json=ImportPath,Export"}
	for p := range paths {
		args = append(args, p)
	}
	for _, p := range goimports {
		if !paths[p] {
			args = append(args, p)
		}
	}
	sort.Strings(args[4:])
	cmd := exec.Command("go", args...)
	cmd.Dir = root
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	data, err := cmd.Output()
	if err != nil {
		return nil, fmt.Errorf("go list -export: %v: %s", err, stderr.String())
	}
	out := map[string]string{}
	dec := json.NewDecoder(bytes.NewReader(data))
	for {
		var p struct{ ImportPath, Export string }
		if err := dec.Decode(&p); err == io.EOF {
			break
		} else if err != nil {
			return nil, err
		}
		out[p.ImportPath] = p.Export
	}
	return out, nil
}

func analyse(path string, p parsed, exports map[string]string) Notebook {
	nb := Notebook{Path: path}
	imp := importer.ForCompiler(p.fset, "gc", func(path string) (io.ReadCloser, error) {
		f, ok := exports[path]
		if !ok || f == "" {
			return nil, fmt.Errorf("no export data for %s", path)
		}
		return os.Open(f)
	})
	// Each cell as GoNB builds it when the cell runs: what an earlier cell cannot see yet (a
	// function declared further down) is an error there.
	for i := range p.cells {
		_, errs := typeCheck(p, p.build(i, false), imp)
		for _, e := range errs {
			nb.Errors = append(nb.Errors, fmt.Sprintf("cell %d: %s", p.cells[i], e))
		}
	}
	// The reads: every cell's statements at once, with the notebook's final declarations.
	files := p.build(len(p.cells)-1, true)
	info, _ := typeCheck(p, files, imp)
	a := &analysis{info: info, fset: p.fset, origin: map[types.Object]bool{}}
	for i, f := range files {
		for _, d := range f.Decls {
			fd, ok := d.(*ast.FuncDecl)
			if !ok || fd.Body == nil {
				continue
			}
			a.cell, a.fn = p.cells[i], fd.Name.Name
			before := len(a.reads)
			ast.Inspect(fd.Body, a.visit)
			nb.LineUps = append(nb.LineUps, lineUps(a.reads[before:])...)
		}
	}
	for _, r := range a.reads {
		if !r.Ranged {
			nb.Reads = append(nb.Reads, r)
		}
	}
	sort.SliceStable(nb.Reads, func(i, j int) bool {
		return nb.Reads[i].Cell < nb.Reads[j].Cell || nb.Reads[i].Cell == nb.Reads[j].Cell && nb.Reads[i].Line < nb.Reads[j].Line
	})
	return nb
}

// typeCheck type-checks files as package main and returns what it found and its errors, less
// unused variables and imports (GoNB's goimports drops an unused import; a cell may declare what
// only a later cell uses). A standard package used without its import gets one first, as GoNB's
// goimports adds it.
func typeCheck(p parsed, files []*ast.File, imp types.Importer) (*types.Info, []string) {
	for {
		info := &types.Info{
			Types:      map[ast.Expr]types.TypeAndValue{},
			Defs:       map[*ast.Ident]types.Object{},
			Uses:       map[*ast.Ident]types.Object{},
			Selections: map[*ast.SelectorExpr]*types.Selection{},
		}
		var errs []string
		conf := types.Config{Importer: imp, Error: func(err error) {
			msg := err.Error()
			if strings.Contains(msg, "declared and not used") || strings.Contains(msg, "imported") && strings.Contains(msg, "not used") {
				return
			}
			errs = append(errs, msg)
		}}
		conf.Check("main", p.fset, files, info) // errors go to conf.Error
		if !autoImport(files, errs) {
			return info, errs
		}
	}
}

// goimports are the standard packages a cell may use without importing them (GoNB's goimports
// adds the import), by name.
var goimports = map[string]string{"slices": "slices", "maps": "maps", "sort": "sort", "strings": "strings",
	"strconv": "strconv", "math": "math", "cmp": "cmp", "time": "time", "os": "os", "fmt": "fmt",
	"errors": "errors", "filepath": "path/filepath", "bytes": "bytes", "io": "io"}

// autoImport adds to every file the import of each standard package an error says is undefined
// (one the files do not import yet), and reports whether it added one.
func autoImport(files []*ast.File, errs []string) bool {
	added := false
	for _, e := range errs {
		i := strings.LastIndex(e, "undefined: ")
		if i < 0 {
			continue
		}
		path, ok := goimports[e[i+len("undefined: "):]]
		if !ok || hasImport(files[0], path) {
			continue
		}
		for _, f := range files {
			spec := &ast.ImportSpec{Path: &ast.BasicLit{Kind: token.STRING, Value: strconv.Quote(path)}}
			f.Decls = append([]ast.Decl{&ast.GenDecl{Tok: token.IMPORT, Specs: []ast.Spec{spec}}}, f.Decls...)
			f.Imports = append(f.Imports, spec)
		}
		added = true
	}
	return added
}

// hasImport reports whether f imports path.
func hasImport(f *ast.File, path string) bool {
	for _, is := range f.Imports {
		if is.Path.Value == strconv.Quote(path) {
			return true
		}
	}
	return false
}

// lineUps returns, among the reads of one function, each read whose index is one an earlier read
// (or range) used on another result slice.
func lineUps(reads []Read) []LineUp {
	var out []LineUp
	first := map[string]Read{} // index key → the first read with it
	for _, r := range reads {
		if r.key == "" {
			continue
		}
		f, ok := first[r.key]
		if !ok {
			first[r.key] = r
			continue
		}
		if f.Slice != r.Slice {
			out = append(out, LineUp{A: f, B: r})
		}
	}
	return out
}

type analysis struct {
	info   *types.Info
	fset   *token.FileSet
	origin map[types.Object]bool // local variables that hold a result slice
	reads  []Read
	cell   int
	fn     string
}

func (a *analysis) visit(n ast.Node) bool {
	switch n := n.(type) {
	case *ast.AssignStmt:
		a.assign(n.Lhs, n.Rhs)
	case *ast.ValueSpec:
		lhs := make([]ast.Expr, len(n.Names))
		for i, id := range n.Names {
			lhs[i] = id
		}
		a.assign(lhs, n.Values)
	case *ast.RangeStmt:
		if !a.result(n.X) {
			break
		}
		if v, ok := n.Value.(*ast.Ident); ok && isSlice(a.typeOf(v)) {
			if obj := a.object(v); obj != nil {
				a.origin[obj] = true
			}
		}
		if k, ok := n.Key.(*ast.Ident); ok && k.Name != "_" {
			a.add(n.Pos(), n.X, k, true)
		}
	case *ast.IndexExpr:
		if tv, ok := a.info.Types[n.X]; ok && tv.IsValue() && isSlice(tv.Type) && a.result(n.X) {
			a.add(n.Pos(), n.X, n.Index, false)
		}
	}
	return true
}

// assign records which variables an assignment or declaration makes hold a result slice.
func (a *analysis) assign(lhs, rhs []ast.Expr) {
	for i, l := range lhs {
		id, ok := l.(*ast.Ident)
		if !ok || id.Name == "_" {
			continue
		}
		obj := a.object(id)
		if obj == nil || !isSlice(obj.Type()) {
			continue
		}
		switch {
		case len(rhs) == len(lhs):
			a.origin[obj] = a.result(rhs[i])
		case len(rhs) == 1: // a, b := f()
			if call, ok := unparen(rhs[0]).(*ast.CallExpr); ok {
				a.origin[obj] = a.fromModule(call)
			}
		}
	}
}

func (a *analysis) add(pos token.Pos, slice, index ast.Expr, ranged bool) {
	p := a.fset.Position(pos)
	a.reads = append(a.reads, Read{Cell: a.cell, Line: p.Line - 1, Slice: types.ExprString(slice),
		Index: types.ExprString(index), Ranged: ranged, key: a.key(index), fn: a.fn})
}

// key identifies an index: its constant value, or its text with each variable's declaration.
func (a *analysis) key(e ast.Expr) string {
	if tv, ok := a.info.Types[e]; ok && tv.Value != nil {
		return "const " + tv.Value.ExactString()
	}
	var b strings.Builder
	b.WriteString(types.ExprString(e))
	ast.Inspect(e, func(n ast.Node) bool {
		if id, ok := n.(*ast.Ident); ok {
			if obj := a.object(id); obj != nil {
				fmt.Fprintf(&b, " %s@%d", id.Name, obj.Pos())
			}
		}
		return true
	})
	return b.String()
}

// result reports whether e is a result slice: a slice from a ranklab package.
func (a *analysis) result(e ast.Expr) bool {
	if !isSlice(a.typeOf(e)) {
		return false
	}
	switch e := unparen(e).(type) {
	case *ast.SelectorExpr:
		if sel, ok := a.info.Selections[e]; ok {
			return sel.Kind() == types.FieldVal && inModule(sel.Obj().Pkg())
		}
		obj := a.info.Uses[e.Sel] // a package-level variable: lab.Fields
		_, isVar := obj.(*types.Var)
		return isVar && inModule(obj.Pkg())
	case *ast.CallExpr:
		return a.fromModule(e)
	case *ast.Ident:
		return a.origin[a.object(e)]
	case *ast.IndexExpr: // a row of a result table: r.Scores[j]
		return a.result(e.X)
	case *ast.SliceExpr:
		return a.result(e.X)
	}
	return false
}

// fromModule reports whether a call returns what a ranklab function computed: a function or
// method of a ranklab package other than nb, or nb.Must of one.
func (a *analysis) fromModule(call *ast.CallExpr) bool {
	var id *ast.Ident
	switch f := unparen(call.Fun).(type) {
	case *ast.Ident:
		id = f
	case *ast.SelectorExpr:
		id = f.Sel
	case *ast.IndexExpr: // an explicit instantiation: nb.Must[T](…)
		if s, ok := f.X.(*ast.SelectorExpr); ok {
			id = s.Sel
		}
	}
	if id == nil {
		return false
	}
	fn, ok := a.info.Uses[id].(*types.Func)
	if !ok || !inModule(fn.Pkg()) {
		return false
	}
	if fn.Pkg().Path() == Module+"/nb" {
		if fn.Name() == "Must" && len(call.Args) == 1 {
			if inner, ok := unparen(call.Args[0]).(*ast.CallExpr); ok {
				return a.fromModule(inner)
			}
		}
		return false
	}
	return true
}

func (a *analysis) typeOf(e ast.Expr) types.Type {
	if tv, ok := a.info.Types[e]; ok {
		return tv.Type
	}
	if id, ok := e.(*ast.Ident); ok {
		if obj := a.object(id); obj != nil {
			return obj.Type()
		}
	}
	return nil
}

func (a *analysis) object(id *ast.Ident) types.Object {
	if obj := a.info.Defs[id]; obj != nil {
		return obj
	}
	return a.info.Uses[id]
}

func isSlice(t types.Type) bool {
	if t == nil {
		return false
	}
	switch u := t.Underlying().(type) {
	case *types.Slice, *types.Array:
		return true
	case *types.Pointer:
		_, ok := u.Elem().Underlying().(*types.Array)
		return ok
	}
	return false
}

func inModule(p *types.Package) bool {
	return p != nil && (p.Path() == Module || strings.HasPrefix(p.Path(), Module+"/"))
}

func unparen(e ast.Expr) ast.Expr {
	for {
		p, ok := e.(*ast.ParenExpr)
		if !ok {
			return e
		}
		e = p.X
	}
}

// Glob returns the notebooks of the folder dir, in name order.
func Glob(dir string) ([]string, error) {
	out, err := filepath.Glob(filepath.Join(dir, "*.ipynb"))
	sort.Strings(out)
	return out, err
}
