package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"testing"

	"github.com/ranklab/ranklab/internal/sharedtest"
	"github.com/ranklab/ranklab/rag"
	"github.com/ranklab/ranklab/retrieval"
	"github.com/ranklab/ranklab/study"
)

// TestSweepJSON: `beir sweep -f json` writes each row's comparisons with whole documents under
// compare's names (Diff, PT, PTHolm, PPerm, PPermHolm), the values of Sweep.Comparison; the
// baseline row has none.
func TestSweepJSON(t *testing.T) {
	corpus := `{"_id":"d1","title":"Zebras","text":"zebras graze on the open savanna grass all day long while lions watch"}
{"_id":"d2","title":"Quartz","text":"quartz is a hard mineral made of silicon and oxygen found in many rocks"}
{"_id":"d3","title":"Lions","text":"lions hunt zebras at night and sleep in the shade of the savanna trees"}
`
	queries := `{"_id":"1","text":"zebra savanna"}
{"_id":"2","text":"silicon mineral"}
{"_id":"3","text":"night hunting lions"}
`
	qrels := "query-id\tcorpus-id\tscore\n1\td1\t2\n1\td3\t1\n2\td2\t1\n3\td3\t1\n"
	c, err := retrieval.ReadCollection(sharedtest.WriteTree(t, map[string]string{"corpus.jsonl": corpus, "queries.jsonl": queries, "qrels/test.tsv": qrels}), "test")
	if err != nil {
		t.Fatal(err)
	}
	configs := []retrieval.Chunking{retrieval.Whole, {Chunk: 4}}
	sw, err := study.RunSweep(c, study.SweepOptions{Chunkings: configs, Budgets: []int{16}, Permutations: 100, Resamples: 100})
	if err != nil {
		t.Fatal(err)
	}
	var b bytes.Buffer
	if err := writeSweepJSON(&b, sw, len(c.Queries)); err != nil {
		t.Fatal(err)
	}
	var out struct {
		Rows []struct {
			Compare []map[string]*float64 `json:"compare"`
			Budget  []map[string]*float64 `json:"budget_compare"`
		} `json:"rows"`
	}
	if err := json.Unmarshal(b.Bytes(), &out); err != nil {
		t.Fatal(err)
	}
	if len(out.Rows) != 2 || out.Rows[0].Compare != nil || len(out.Rows[1].Compare) != len(sw.Measures) || len(out.Rows[1].Budget) != 3 {
		t.Fatalf("rows %+v", out.Rows)
	}
	// same: every field is the comparison's value, or null where that is NaN or ±Inf (t is ±Inf
	// when every difference is equal and not 0, as with these three queries).
	same := func(m fmt.Stringer, got map[string]*float64) {
		want, err := sw.Comparison(configs[1], m)
		if err != nil {
			t.Fatal(err)
		}
		for name, v := range map[string]float64{"Diff": want.Diff, "CILow": want.CILow, "T": want.T, "PT": want.PT, "PTHolm": want.PTHolm, "PPermHolm": want.PPermHolm} {
			if finite := !math.IsNaN(v) && !math.IsInf(v, 0); finite != (got[name] != nil) || finite && *got[name] != v {
				t.Errorf("%s %s: JSON %v, comparison %v", m, name, got[name], v)
			}
		}
	}
	for j, m := range sw.Measures {
		same(m, out.Rows[1].Compare[j])
	}
	same(rag.NDCGAt(16), out.Rows[1].Budget[0])
}
