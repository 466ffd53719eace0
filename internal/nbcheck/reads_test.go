package nbcheck

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// notebook writes a notebook whose code cells are cells (the first is the wiring line) and
// returns its path.
func notebook(t *testing.T, cells ...string) string {
	t.Helper()
	type cell struct {
		Type   string `json:"cell_type"`
		Source string `json:"source"`
	}
	nb := struct {
		Cells []cell `json:"cells"`
	}{Cells: []cell{{"markdown", "# t"}, {"code", "!*go mod edit -require=github.com/ranklab/ranklab@v0.0.0"}}}
	for _, c := range cells {
		nb.Cells = append(nb.Cells, cell{"code", c})
	}
	data, err := json.Marshal(nb)
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "t.ipynb")
	if err := os.WriteFile(path, data, 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

const imports = `import (
	"fmt"

	"github.com/ranklab/ranklab/compare"
	"github.com/ranklab/ranklab/eval"
	"github.com/ranklab/ranklab/nb"
)

var r compare.PairsReport
var rep compare.Report`

// TestLineUps: the patterns the review of issue 31 found are line-ups; reads of one slice, reads
// of a notebook's own slices and lookups by name are not.
func TestLineUps(t *testing.T) {
	skipShort(t)
	root, err := filepath.Abs("../..")
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name    string
		cell    string
		reads   int
		lineUps []string // the B read of each line-up
	}{
		{"HSD and randomised pairs by k", "%%\nfor k, p := range r.HSD.Pairs {\n\tfmt.Println(p.P, r.Randomized.Pairs[k].P, r.Names[p.A])\n}",
			2, []string{"r.Randomized.Pairs[k]"}},
		{"diffs with queries by i", "%%\nt := nb.Must(rep.Comparison(\"b\", eval.NDCG(10)))\nd := nb.Must(rep.Column(\"b\", eval.NDCG(10)))\nfor i := range t.Diffs {\n\tfmt.Println(rep.Queries[i], t.Diffs[i], d[i])\n}",
			3, []string{"rep.Queries[i]", "d[i]"}},
		{"two results' first mean", "%%\nvar a, b eval.Result\nfmt.Println(a.Means[0] - b.Means[0])", 2, []string{"b.Means[0]"}},
		{"one slice, several indices", "%%\nfor j := range r.Scores {\n\tfmt.Println(r.Scores[j], r.Scores[0])\n}", 2, nil},
		{"own slices", "%%\nx := []float64{1, 2}\ny := make([]float64, 2)\nfor i := range x {\n\tfmt.Println(x[i] - y[i])\n}", 0, nil},
		{"lookups by name", "%%\nh, p := r.Pair(\"a\", \"b\")\nc := nb.Must(rep.Comparison(\"b\", eval.NDCG(10)))\nfmt.Println(h.P, p.P, c.Diff)", 0, nil},
		{"map lookups", "%%\nvar res eval.Result\nfmt.Println(res.PerQuery(eval.NDCG(10))[\"q1\"])", 0, nil},
		{"a function's reads apart", "func f() { fmt.Println(r.Names[0]) }\n\n%%\nfmt.Println(r.Means[0])", 2, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			nbs, err := Check(root, notebook(t, imports, tc.cell))
			if err != nil {
				t.Fatal(err)
			}
			got := nbs[0]
			if len(got.Errors) > 0 {
				t.Fatalf("type errors: %v", got.Errors)
			}
			if len(got.Reads) != tc.reads {
				t.Errorf("%d reads %v, want %d", len(got.Reads), got.Reads, tc.reads)
			}
			var bs []string
			for _, l := range got.LineUps {
				bs = append(bs, l.B.Slice+"["+l.B.Index+"]")
			}
			if strings.Join(bs, " ") != strings.Join(tc.lineUps, " ") {
				t.Errorf("line-ups %v, want %v", got.LineUps, tc.lineUps)
			}
		})
	}
}

// TestCells: a cell's position in the notebook and its lines are the reader's (cell 3 is the
// fourth cell counting the markdown one; line 2 of it), and a later declaration replaces an
// earlier one as in GoNB.
func TestCells(t *testing.T) {
	skipShort(t)
	root, _ := filepath.Abs("../..")
	path := notebook(t, imports, "func f() int { return 1 }", "func f() string { return \"\" }\n\n%%\nfmt.Println(f() + \"x\", r.Names[0])")
	nbs, err := Check(root, path)
	if err != nil {
		t.Fatal(err)
	}
	if len(nbs[0].Errors) > 0 {
		t.Fatalf("type errors: %v", nbs[0].Errors)
	}
	if len(nbs[0].Reads) != 1 || nbs[0].Reads[0].Cell != 4 || nbs[0].Reads[0].Line != 4 {
		t.Errorf("reads %v, want one in cell 4, line 4", nbs[0].Reads)
	}
}

// TestCellOrder: a cell is built with the declarations of the cells before it only, as GoNB
// builds it, so a function that uses one declared further down does not compile there (notebook
// 20's first query-resampled κ cell did, until its helper moved up).
func TestCellOrder(t *testing.T) {
	skipShort(t)
	root, _ := filepath.Abs("../..")
	nbs, err := Check(root, notebook(t, imports, "func f() int { return g() }", "func g() int { return 1 }\n\n%%\nfmt.Println(f())"))
	if err != nil {
		t.Fatal(err)
	}
	if errs := nbs[0].Errors; len(errs) != 1 || !strings.Contains(errs[0], "cell 3: ") || !strings.Contains(errs[0], "undefined: g") {
		t.Errorf("errors %q, want one: cell 3, undefined: g", errs)
	}
	nbs, err = Check(root, notebook(t, imports, "func g() int { return 1 }", "func f() int { return g() }\n\n%%\nfmt.Println(f())"))
	if err != nil || len(nbs[0].Errors) != 0 {
		t.Errorf("in order: %v %v, want no error", nbs[0].Errors, err)
	}
}
