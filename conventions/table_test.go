package conventions

import (
	"encoding/csv"
	"encoding/json"
	"strings"
	"testing"

	"github.com/ranklab/ranklab/eval"
)

// reasonOf returns the reasons of one cell of the table.
func reasonOf(t *testing.T, tab Table, conv string, m eval.Measure) Cell {
	t.Helper()
	c, ok := tab.Cell(conv, m)
	if !ok {
		t.Fatalf("no cell %s / %s", conv, m)
	}
	return c
}

// TestReasons checks the reasons the table gives, each from a dataset built to trigger it.
func TestReasons(t *testing.T) {
	for _, tc := range []struct {
		name, qrels, run string
		measure          eval.Measure
		conv             string
		want             []string
	}{
		{
			name:    "query without a ranking, pytrec_eval averages the shared queries",
			qrels:   "q1 0 a 1\nq2 0 a 1\nq7 0 a 1\n",
			run:     "q1 Q0 a 1 1 t\nq2 Q0 b 1 1 t\n",
			measure: eval.P(1), conv: "pytrec_eval 0.5.11 (trec_eval 9.0.8)",
			want: []string{`query "q7" has no ranking: left out, averaged over 2 queries, not 3`},
		},
		{
			name:    "trec_eval 10.0 stops",
			qrels:   "q1 0 a 1\nq7 0 a 1\n",
			run:     "q1 Q0 a 1 1 t\n",
			measure: eval.P(1), conv: "trec_eval 10.0",
			want: []string{`query "q7" has no ranking: stops (exit 4`},
		},
		{
			name:    "recip_rank not cut",
			qrels:   "q1 0 c 1\n",
			run:     "q1 Q0 a 1 3 t\nq1 Q0 b 2 2 t\nq1 Q0 c 3 1 t\n",
			measure: eval.RRAt(2), conv: "trec_eval 10.0 -c",
			want: []string{`recip_rank is not cut at 2: 1 query has its first relevant doc below rank 2 (query "q1": rank 3)`},
		},
		{
			name:    "tie broken by doc ID descending", // ranklab's RR@k breaks ties as ir_measures' msmarco does
			qrels:   "q1 0 a 1\n",
			run:     "q1 Q0 a 1 1 t\nq1 Q0 b 2 1 t\n",
			measure: eval.RRAt(5), conv: "trec_eval 10.0 -c",
			want: []string{`ties broken by doc ID descending, not ascending: changes 1 query (query "q1": tie at rank 1)`},
		},
		{
			name:    "identical IDs dropped",
			qrels:   "7 0 7 1\n7 0 a 0\n7 0 b 1\n",
			run:     "7 Q0 7 1 3 t\n7 Q0 a 2 2 t\n7 Q0 b 3 1 t\n",
			measure: eval.RRAt(10), conv: "BEIR 2.2.0",
			want: []string{`a doc with the query's own ID is dropped (ignore_identical_ids): changes 1 query (query "7": doc "7" at rank 1)`},
		},
		{
			name:    "ragas leaves out a query without relevant doc",
			qrels:   "q1 0 a 1\nq2 0 a 1\nq3 0 a 0\n",
			run:     "q1 Q0 a 1 1 t\nq2 Q0 b 1 1 t\nq3 Q0 a 1 1 t\n",
			measure: eval.Recall(1), conv: "ragas 0.4.3 (ID-based)",
			want: []string{`query "q3" has no relevant doc: scored NaN, left out by nanmean, averaged over 2 queries, not 3`},
		},
		{
			name:    "LlamaIndex fails on a query without relevant doc",
			qrels:   "q1 0 a 1\nq3 0 a 0\n",
			run:     "q1 Q0 a 1 1 t\nq3 Q0 a 1 1 t\n",
			measure: eval.RRAt(1), conv: "LlamaIndex 0.14.25",
			want: []string{`query "q3" has no relevant doc: ValueError`},
		},
		{
			name:    "LlamaIndex's ideal DCG is not cut",
			qrels:   "q1 0 a 1\nq1 0 b 1\nq1 0 c 1\n",
			run:     "q1 Q0 a 1 1 t\n",
			measure: eval.NDCG(1), conv: "LlamaIndex 0.14.25",
			want: []string{`ideal DCG over all R relevant docs, not the first k = 1: 1 query has R > k (query "q1": R = 3)`},
		},
		{
			name:    "ranx refuses different query sets",
			qrels:   "q1 0 a 1\n",
			run:     "q1 Q0 a 1 1 t\nq9 Q0 a 1 1 t\n",
			measure: eval.NDCG(10), conv: "ranx 0.3.21",
			want: []string{`query sets differ (query "q9" only in the run): AssertionError unless make_comparable=True`},
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			tab, err := Compare(mustQrels(t, tc.qrels), mustRun(t, tc.run), tc.measure)
			if err != nil {
				t.Fatal(err)
			}
			c := reasonOf(t, tab, tc.conv, tc.measure)
			if c.Agrees {
				t.Fatalf("cell agrees (%v); want a difference", c.Value)
			}
			if len(c.Reasons) != len(tc.want) {
				t.Fatalf("reasons %q, want %q", c.Reasons, tc.want)
			}
			for i, w := range tc.want {
				if !strings.HasPrefix(c.Reasons[i], w) {
					t.Errorf("reason %d: %q, want it to start with %q", i, c.Reasons[i], w)
				}
			}
		})
	}
}

// TestFormatsEscape checks that IDs that are markup come out escaped in every format, and that
// CSV and JSON read back.
func TestFormatsEscape(t *testing.T) {
	qrels := mustQrels(t, "<script>x</script> 0 a|b 1\nq&2 0 a 1\n")
	run := mustRun(t, "q&2 Q0 a 1 1 t\n")
	tab, err := Compare(qrels, run, eval.P(1), eval.RRAt(5))
	if err != nil {
		t.Fatal(err)
	}
	h := tab.HTML()
	if strings.Contains(h, "<script>") || !strings.Contains(h, "&lt;script&gt;") || strings.Contains(h, "q&2") {
		t.Errorf("HTML does not escape the query IDs:\n%s", h)
	}
	if md := tab.markdownText(); strings.Contains(md, "<script>") {
		t.Errorf("Markdown does not escape:\n%s", md)
	}
	recs, err := csv.NewReader(strings.NewReader(tab.csvText())).ReadAll()
	if err != nil || len(recs) != 1+len(tab.Rows)*2 {
		t.Errorf("CSV: %d records, %v", len(recs), err)
	}
	js, err := json.Marshal(tab)
	if err != nil {
		t.Fatal(err)
	}
	var back struct {
		Rows []struct {
			Cells []struct {
				Value *float64 `json:"value"`
			} `json:"cells"`
		} `json:"rows"`
	}
	if err := json.Unmarshal(js, &back); err != nil || len(back.Rows) != len(tab.Rows) {
		t.Fatalf("JSON: %v", err)
	}
	if back.Rows[len(back.Rows)-1].Cells[0].Value != nil { // LlamaIndex granular has no precision
		t.Errorf("a missing measure should encode as null")
	}
}

func TestCompareRefusesMeasures(t *testing.T) {
	q, r := mustQrels(t, "q 0 a 1\n"), mustRun(t, "q Q0 a 1 1 t\n")
	for _, m := range []eval.Measure{eval.P(5).WithRel(2), eval.NDCGExp(10), eval.Bpref(), eval.Measure{Name: "NumRel"}} {
		if _, err := Compare(q, r, m); err == nil {
			t.Errorf("%s: no error", m)
		}
	}
	if _, err := Compare(q, r); err == nil {
		t.Error("no measure: no error")
	}
}
