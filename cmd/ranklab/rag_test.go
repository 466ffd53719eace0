package main

import (
	"encoding/json"
	"math"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ranklab/ranklab/eval"
	"github.com/ranklab/ranklab/internal/sharedtest"
	"github.com/ranklab/ranklab/rag"
)

// A chunk run over three documents: q1 ranks d1#1, d2#0, d1#0, d2#1; d2 is relevant.
var ragFiles = map[string]string{
	"qrels":    "q1 0 d2 1\n",
	"run":      "q1 Q0 d1#1 1 5 c\nq1 Q0 d2#0 2 4 c\nq1 Q0 d1#0 3 3 c\nq1 Q0 d2#1 4 2 c\n",
	"map":      "chunk-id\tdoc-id\tstart\tend\nd1#0 d1 0 10\nd1#1 d1 8 18\nd2#0 d2 0 10\nd2#1 d2 8 15\nd3#0 d3 0 5\n",
	"passages": "q1 d2 12 14 1\n",
}

func TestRAGCommand(t *testing.T) {
	dir := sharedtest.WriteTree(t, ragFiles)
	p := func(n string) string { return filepath.Join(dir, n) }
	out, errOut, rc := runCmd("rag", p("qrels"), p("run"), "--map", p("map"), "--k", "1", "-m", "nDCG@10", "--budgets", "10,25", "--passages", p("passages"))
	if rc != 0 {
		t.Fatalf("rc %d: %s", rc, errOut)
	}
	for _, want := range []string{"top-1 chunks, dedup (baseline)", "MaxP", "FirstP", "SumP",
		// B = 10 holds d1#1 only (d1): 0; B = 25 holds d1, d2: R 1, nDCG 1/log2(3) = 0.6309.
		"nDCG@10tok  0.0000", "R@25tok  1.0000", "nDCG@25tok  0.6309",
		// d2#1 [8, 15) overlaps the judged span [12, 14): the 4th chunk, nDCG@10 = 1/log2(5) = 0.4307.
		"nDCG@10    0.4307",
		// B = 25: d2#0 [0, 10) misses [12, 14): SpanR 0; B = 10 likewise.
		"SpanR@25tok  0.0000"} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
	out, errOut, rc = runCmd("rag", "-f", "json", p("qrels"), p("run"), "--map", p("map"), "--budgets", "37")
	var got struct {
		Views struct {
			Runs []struct {
				Name  string
				Means []float64
			}
		}
		Budgets map[string]float64
	}
	if rc != 0 || json.Unmarshal([]byte(out), &got) != nil {
		t.Fatalf("rc %d, stderr %s, output %s", rc, errOut, out)
	}
	// MaxP ranks d1 (5) above d2 (4): nDCG@10 = 1/log2(3).
	if len(got.Views.Runs) != 4 || got.Views.Runs[1].Name != "MaxP" || math.Abs(got.Views.Runs[1].Means[0]-1/math.Log2(3)) > 1e-12 {
		t.Errorf("views = %+v", got.Views.Runs)
	}
	if !strings.Contains(out, `"provenance"`) || !strings.Contains(out, "chunk map") {
		t.Errorf("json output without its provenance stamp:\n%s", out)
	}
	if plain, _, _ := runCmd("rag", "-f", "json", "--no-stamp", p("qrels"), p("run"), "--map", p("map")); strings.Contains(plain, `"provenance"`) {
		t.Error("--no-stamp still stamps")
	}
	if got.Budgets["Success@37tok"] != 1 || math.Abs(got.Budgets["nDCG@37tok"]-1/math.Log2(3)) > 1e-12 {
		t.Errorf("budgets = %v", got.Budgets)
	}
}

func TestRAGCommandErrors(t *testing.T) {
	dir := sharedtest.WriteTree(t, map[string]string{"qrels": ragFiles["qrels"], "run": ragFiles["run"], "map": ragFiles["map"],
		"short.map": "d1#0 d1 0 10\n", "bad.map": "d1#0 d1 5 2\n"})
	p := func(n string) string { return filepath.Join(dir, n) }
	tests := []struct {
		name string
		args []string
		rc   int
		want string
	}{
		{"no map", []string{p("qrels"), p("run")}, 2, "--map is required"},
		{"one file", []string{p("qrels"), "--map", p("map")}, 2, "want QRELS and CHUNK_RUN"},
		{"bad budget", []string{p("qrels"), p("run"), "--map", p("map"), "--budgets", "0"}, 2, `"0" is not a token count`},
		{"chunk not in map", []string{p("qrels"), p("run"), "--map", p("short.map")}, 1, `chunk "d1#1" is not in the chunk map`},
		{"bad map", []string{p("qrels"), p("run"), "--map", p("bad.map")}, 1, "bad.map:1: bad span"},
		{"bad measure", []string{p("qrels"), p("run"), "--map", p("map"), "-m", "nope"}, 2, "nope"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, errOut, rc := runCmd(append([]string{"rag"}, tc.args...)...)
			if rc != tc.rc || !strings.Contains(errOut, tc.want) {
				t.Errorf("rc %d, stderr %q; want %d and %q", rc, errOut, tc.rc, tc.want)
			}
		})
	}
}

// TestBEIRRunChunks: beir run --chunks --map writes a chunk run and its map that rag reads back
// to the document run beir run wrote (MaxP over the same chunk scores).
func TestBEIRRunChunks(t *testing.T) {
	corpus := `{"_id":"d1","title":"Zebras","text":"zebras graze on the open savanna grass all day long while lions watch from the shade"}
{"_id":"d2","title":"Quartz","text":"quartz is a hard mineral made of silicon and oxygen found in many rocks"}
{"_id":"d3","title":"Lions","text":"lions hunt zebras at night and sleep in the shade of the savanna trees"}
`
	dir := sharedtest.WriteTree(t, map[string]string{"c/corpus.jsonl": corpus,
		"c/queries.jsonl":  `{"_id":"1","text":"zebra savanna"}` + "\n" + `{"_id":"2","text":"lions"}` + "\n",
		"c/qrels/test.tsv": "query-id\tcorpus-id\tscore\n1\td1\t1\n2\td3\t1\n"})
	p := func(n string) string { return filepath.Join(dir, n) }
	for _, model := range []string{"bm25", "qld"} {
		_, errOut, rc := runCmd("beir", "run", "--data", p("c"), "--chunk", "6", "--overlap", "2", "--model", model,
			"--out", p(model+".run"), "--chunks", p(model+".chunks"), "--map", p(model+".map"))
		if rc != 0 {
			t.Fatalf("%s: rc %d: %s", model, rc, errOut)
		}
		docs, err := eval.ReadRunFile(p(model + ".run"))
		if err != nil {
			t.Fatal(err)
		}
		chunks, err := eval.ReadRunFile(p(model + ".chunks"))
		if err != nil {
			t.Fatal(err)
		}
		m, err := rag.ReadChunkMapFile(p(model + ".map"))
		if err != nil {
			t.Fatal(err)
		}
		back, err := rag.DocRun(chunks, m, rag.MaxP)
		if err != nil {
			t.Fatal(err)
		}
		for q, ds := range docs.Queries {
			if got := back.Queries[q]; len(got) != len(ds) || got[0] != eval.Rank(ds)[0] {
				t.Errorf("%s query %s: MaxP of the chunk run %v, document run %v", model, q, got, eval.Rank(ds))
			}
		}
		if docs.Tag != model+"-chunk6-overlap2-maxp" || m["d2#0"] != (rag.Span{Doc: "d2", Start: 0, End: 6}) {
			t.Errorf("%s: tag %q, d2#0 %v", model, docs.Tag, m["d2#0"])
		}
	}
}

// TestRAGJudgedDepthWarning: rag read a chunk run against pooled qrels without a word on how much
// of its documents' top k nobody judged (eval and compare warn; found replaying the own-collection
// journey, where 44-57 % of the top 10 was unjudged).
func TestRAGJudgedDepthWarning(t *testing.T) {
	files := map[string]string{
		// Pooled qrels (a grade 0): of MaxP's d1, d2, d3 only d2 and d3 are judged.
		"pooled": "q1 0 d2 1\nq1 0 d3 0\n",
		"run":    ragFiles["run"] + "q1 Q0 d3#0 5 1 c\n",
		"map":    ragFiles["map"],
	}
	dir := sharedtest.WriteTree(t, files)
	p := func(n string) string { return filepath.Join(dir, n) }
	_, errOut, rc := runCmd("rag", p("pooled"), p("run"), "--map", p("map"), "-m", "nDCG@10")
	if rc != 0 {
		t.Fatalf("rc %d: %s", rc, errOut)
	}
	// MaxP's top 10 is d1 (5), d2 (4), d3 (1): 2 of 3 judged, Judged@10 = 2/3; its first document,
	// d1, has no judgment.
	for _, want := range []string{"(its MaxP documents): Judged@10 = 0.67", "its first document has no judgment for 1 of 1 queries"} {
		if !strings.Contains(errOut, want) {
			t.Errorf("stderr lacks %q:\n%s", want, errOut)
		}
	}
	// Qrels that list relevant documents only (SciFact's) leave most of every top k unjudged by
	// design: no warning.
	dir2 := sharedtest.WriteTree(t, map[string]string{"relevant": "q1 0 d2 1\n", "run": files["run"], "map": files["map"]})
	if _, errOut, _ := runCmd("rag", filepath.Join(dir2, "relevant"), filepath.Join(dir2, "run"), "--map", filepath.Join(dir2, "map")); strings.Contains(errOut, "Judged@") {
		t.Errorf("qrels of relevant documents only: %q, want no judged-depth warning", errOut)
	}
}
