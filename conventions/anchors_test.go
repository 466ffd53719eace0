package conventions_test

import (
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ranklab/ranklab/conventions"
	"github.com/ranklab/ranklab/eval"
	"github.com/ranklab/ranklab/internal/sharedtest"
)

// TestTrecEvalRowsAgainstAnchors checks the trec_eval rows against what the trec_eval binaries
// printed on the reference cases in ../shared/anchors/trec_eval: 10.0 (default and -c) at 10
// decimals, and 9.0.8 — the code pytrec_eval embeds, averaging over the queries both files hold
// — at its 4 decimals. trec_eval 10.0 must stop where it exited with status 4, and RR@5 must be
// reported as trec_eval's uncut recip_rank.
func TestTrecEvalRowsAgainstAnchors(t *testing.T) {
	root := sharedtest.Path(t, "anchors", "trec_eval")
	measures := []eval.Measure{eval.P(5), eval.P(10), eval.Recall(5), eval.Recall(10), eval.RR(), eval.RRAt(5), eval.NDCG(5), eval.NDCG(10), eval.AP()}
	trec := []string{"P_5", "P_10", "recall_5", "recall_10", "recip_rank", "recip_rank", "ndcg_cut_5", "ndcg_cut_10", "map"}
	for _, dir := range []string{"01_trec_binary", "02_trec_graded", "04_ties", "05_short_lists", "06_edge_queries", "11_missing_queries"} {
		t.Run(dir, func(t *testing.T) {
			p := func(name string) string { return filepath.Join(root, dir, name) }
			qrels, err := eval.ReadQrelsFile(p("qrels"))
			if err != nil {
				t.Fatal(err)
			}
			run, err := eval.ReadRunFile(p("run"))
			if err != nil {
				t.Fatal(err)
			}
			table, err := conventions.Compare(qrels, run, measures...)
			if err != nil {
				t.Fatal(err)
			}
			stopped := false
			if rc, err := os.ReadFile(p("out.base.v10.rc")); err == nil && strings.TrimSpace(string(rc)) == "4" {
				stopped = true
			}
			withC := p("out.c.v10hp.txt")
			if _, err := os.Stat(withC); err != nil {
				withC = p("out.base.v10hp.txt") // every qrels query has a ranking: -c changes nothing
			}
			refs := []struct {
				row  string
				file string
				tol  float64
				stop bool
			}{
				{"trec_eval 10.0", p("out.base.v10hp.txt"), 1e-9, stopped},
				{"trec_eval 10.0 -c", withC, 1e-9, false},
				{"pytrec_eval 0.5.11 (trec_eval 9.0.8)", p("out.base.v9.txt"), 5e-5 + 1e-12, false},
			}
			for _, ref := range refs {
				var want map[string]float64
				if !ref.stop {
					out, err := os.ReadFile(ref.file)
					if err != nil {
						t.Fatal(err)
					}
					want = sharedtest.AllLines(t, string(out))
				}
				for j, m := range measures {
					c, _ := table.Cell(ref.row, m)
					if ref.stop {
						if c.Err == "" || !strings.Contains(c.Err, "exit 4") {
							t.Errorf("%s, %s: trec_eval exited with 4; ranklab gives %v (%q)", ref.row, m, c.Value, c.Err)
						}
						continue
					}
					w, ok := want[trec[j]]
					if !ok {
						t.Fatalf("%s lacks %s", ref.file, trec[j])
					}
					if c.Err != "" || c.Name != trec[j] || math.Abs(c.Value-w) > ref.tol {
						t.Errorf("%s, %s: %s = %v (%q), trec_eval printed %v", ref.row, m, c.Name, c.Value, c.Err, w)
					}
				}
			}
		})
	}
}
