package fusion_test

import (
	"fmt"
	"maps"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/ranklab/ranklab/eval"
	"github.com/ranklab/ranklab/fusion"
	"github.com/ranklab/ranklab/internal/sharedtest"
	"github.com/ranklab/ranklab/rag"
	"github.com/ranklab/ranklab/retrieval"
)

// ranxPython returns the peers' Python (sharedtest.PeersPython), checking that it has ranx 0.3.21.
func ranxPython(t *testing.T) string {
	t.Helper()
	py := sharedtest.PeersPython(t, "the ranx agreement test")
	out, err := exec.Command(py, "-c", "import importlib.metadata as m; print(m.version('ranx'))").CombinedOutput()
	if err != nil {
		t.Fatalf("%s: cannot read ranx's version: %v\n%s", py, err, out)
	}
	if v := strings.TrimSpace(string(out)); v != "0.3.21" {
		t.Fatalf("%s has ranx %s; the agreement is pinned to ranx 0.3.21 (scripts/peers.sh)", py, v)
	}
	return py
}

// ranxScript fuses the runs of every job with ranx.fuse and prints {job: {query: {doc: score}}}.
const ranxScript = `
import json, sys
from ranx import Run, fuse
jobs = json.load(open(sys.argv[1]))
read, out = {}, {}
for job in jobs:
    for p in job["runs"]:
        if p not in read:
            read[p] = Run.from_file(p, kind="trec")
    runs = [read[p] for p in job["runs"]]
    fused = fuse(runs=runs, norm=job["norm"], method=job["method"], params=job["params"])
    out[job["name"]] = {q: {d: float(s) for d, s in docs.items()} for q, docs in fused.to_dict().items()}
json.dump(out, sys.stdout)
`

// ranxJob is one ranx.fuse call and the Options that must give the same fused run.
type ranxJob struct {
	Name   string         `json:"name"`
	Runs   []string       `json:"runs"`
	Norm   *string        `json:"norm"`
	Method string         `json:"method"`
	Params map[string]any `json:"params"`
	opt    fusion.Options
	inputs []eval.Run
}

// TestFuseEqualsRanx fuses real runs (the top 100 documents of BM25 and query likelihood on
// SciFact and Cranfield, plus chunked BM25 MaxP on SciFact: three runs) and a synthetic set with tied scores, with every
// method and normalisation, and compares each fused score with ranx 0.3.21's fuse. ranx ranks an
// input's tied scores in NumPy quicksort's order, which is not defined, so for RRF and the rank
// normalisation ranx reads runs whose scores are the trec_eval ranks (n − rank + 1): the same
// ranks this package takes. The score-based normalisations read the runs as they are.
func TestFuseEqualsRanx(t *testing.T) {
	if testing.Short() {
		t.Skip("short: builds real runs")
	}
	py := ranxPython(t)
	dir := t.TempDir()
	start := time.Now()
	var jobs []*ranxJob
	sets := map[string][]eval.Run{"synthetic": syntheticRuns()}
	for _, coll := range []struct{ name, split string }{{"scifact", "test"}, {"cranfield", "test.graded"}} {
		c, err := retrieval.ReadCollection(sharedtest.Path(t, "data", coll.name), coll.split)
		if err != nil {
			t.Fatal(err)
		}
		s, err := retrieval.Build(c, retrieval.Whole, retrieval.Anserini, rag.MaxP)
		if err != nil {
			t.Fatal(err)
		}
		ql := *s // the same index scored by query likelihood
		ql.Model = retrieval.AnseriniQL
		opt := retrieval.RunOptions{Depth: 100, Tag: "r"}
		runs := []eval.Run{s.Run(c.Queries, opt).Docs, ql.Run(c.Queries, opt).Docs}
		if coll.name == "scifact" {
			chunked, err := retrieval.Build(c, retrieval.Chunking{Chunk: 128}, retrieval.Anserini, rag.MaxP)
			if err != nil {
				t.Fatal(err)
			}
			runs = append(runs, chunked.Run(c.Queries, opt).Docs)
		}
		sets[coll.name] = commonQueries(runs)
	}
	minmax, zmuv, rank := "min-max", "zmuv", "rank"
	for _, name := range slices.Sorted(maps.Keys(sets)) {
		runs := sets[name]
		asIs := writeRuns(t, dir, name, runs, false)
		ranked := writeRuns(t, dir, name+"-ranks", runs, true)
		w := make([]any, len(runs))
		weights := make([]float64, len(runs))
		for i := range runs {
			weights[i] = 0.2 + 0.5*float64(i)
			w[i] = weights[i]
		}
		add := func(suffix string, files []string, norm *string, method string, params map[string]any, opt fusion.Options) {
			jobs = append(jobs, &ranxJob{Name: name + " " + suffix, Runs: files, Norm: norm, Method: method, Params: params, opt: opt, inputs: runs})
		}
		add("rrf k=60", ranked, nil, "rrf", map[string]any{"k": 60}, fusion.Options{})
		add("rrf k=10", ranked, nil, "rrf", map[string]any{"k": 10}, fusion.Options{K: 10})
		for _, n := range []struct {
			ranx  *string
			files []string
			norm  fusion.Norm
		}{{&minmax, asIs, fusion.MinMax}, {&zmuv, asIs, fusion.ZScore}, {&rank, ranked, fusion.Rank}} {
			add("sum "+*n.ranx, n.files, n.ranx, "sum", map[string]any{}, fusion.Options{Method: fusion.CombSUM, Norm: n.norm})
			add("mnz "+*n.ranx, n.files, n.ranx, "mnz", map[string]any{}, fusion.Options{Method: fusion.CombMNZ, Norm: n.norm})
			add("wsum "+*n.ranx, n.files, n.ranx, "wsum", map[string]any{"weights": w}, fusion.Options{Method: fusion.CombSUM, Norm: n.norm, Weights: weights})
		}
	}
	script := filepath.Join(dir, "fuse.py")
	if err := os.WriteFile(script, []byte(ranxScript), 0o644); err != nil {
		t.Fatal(err)
	}
	t.Logf("runs built in %.1fs", time.Since(start).Seconds())
	start = time.Now()
	var ranx map[string]map[string]map[string]float64
	sharedtest.RunPython(t, py, script, jobs, &ranx)
	t.Logf("ranx fused and wrote in %.1fs", time.Since(start).Seconds())
	start = time.Now()
	scores, queries := 0, 0
	worst := 0.0
	for _, job := range jobs {
		ours, err := fusion.Fuse(job.inputs, job.opt)
		if err != nil {
			t.Fatal(err)
		}
		theirs := ranx[job.Name]
		if len(theirs) != len(ours.Queries) {
			t.Errorf("%s: ranx fused %d queries, we %d", job.Name, len(theirs), len(ours.Queries))
		}
		for q, docs := range ours.Queries {
			queries++
			if len(theirs[q]) != len(docs) {
				t.Errorf("%s query %s: ranx has %d documents, we %d", job.Name, q, len(theirs[q]), len(docs))
				continue
			}
			for i, d := range docs {
				r, ok := theirs[q][d.Doc]
				diff := math.Abs(r - d.Score)
				if !ok || diff > 1e-12*math.Max(1, math.Abs(r)) {
					t.Errorf("%s query %s doc %s: ranx %v, we %v", job.Name, q, d.Doc, r, d.Score)
				}
				// Our order is trec_eval's on our scores; ranx's scores must not rise along it.
				if i > 0 && r > theirs[q][docs[i-1].Doc]+1e-12 {
					t.Errorf("%s query %s: ranx scores %s above %s, we rank it below", job.Name, q, d.Doc, docs[i-1].Doc)
				}
				worst = math.Max(worst, diff)
				scores++
			}
		}
	}
	t.Logf("compared in %.1fs", time.Since(start).Seconds())
	t.Logf("ranx 0.3.21 agreement: %d fusions, %d fused queries, %d fused scores; largest |difference| %.3g", len(jobs), queries, scores, worst)
}

// commonQueries keeps the queries every run ranks at least one document for (ranx requires the
// same queries in every run; a query without documents has no line in a run file).
func commonQueries(runs []eval.Run) []eval.Run {
	out := make([]eval.Run, len(runs))
	for i, r := range runs {
		out[i] = eval.Run{Tag: fmt.Sprint("run", i+1), Queries: map[string][]eval.ScoredDoc{}}
		for q, docs := range r.Queries {
			keep := len(docs) > 0
			for _, o := range runs {
				keep = keep && len(o.Queries[q]) > 0
			}
			if keep {
				out[i].Queries[q] = docs
			}
		}
	}
	return out
}

// syntheticRuns are three runs with tied scores, documents missing from some runs and a query
// whose scores are all equal.
func syntheticRuns() []eval.Run {
	mk := func(tag string, qs map[string]string) eval.Run {
		r := eval.Run{Tag: tag, Queries: map[string][]eval.ScoredDoc{}}
		for q, list := range qs {
			for _, f := range strings.Fields(list) {
				doc, score, _ := strings.Cut(f, ":")
				var s float64
				fmt.Sscan(score, &s)
				r.Queries[q] = append(r.Queries[q], eval.ScoredDoc{Doc: doc, Score: s})
			}
		}
		return r
	}
	return []eval.Run{
		mk("a", map[string]string{"q1": "d1:3 d2:3 d3:2 d10:2 d4:1", "q2": "x:1 y:1 z:1", "q3": "a:0.5 b:-1.25 c:7"}),
		mk("b", map[string]string{"q1": "d3:10 d9:10 d1:4", "q2": "y:2 w:1", "q3": "c:1e-3 d:2e-3"}),
		mk("c", map[string]string{"q1": "d2:0.1 d4:0.1 d5:0.05", "q2": "x:5", "q3": "a:1 b:1 c:1 d:1"}),
	}
}

// writeRuns writes each run as a TREC file; with ranks, each score is replaced by the document's
// trec_eval rank counted from the bottom (n − rank + 1), so any sort gives trec_eval's order.
func writeRuns(t *testing.T, dir, name string, runs []eval.Run, ranks bool) []string {
	t.Helper()
	var files []string
	for i, r := range runs {
		if ranks {
			rr := eval.Run{Tag: r.Tag, Queries: map[string][]eval.ScoredDoc{}}
			for q, docs := range r.Queries {
				ranked := eval.Rank(docs)
				for j, d := range ranked {
					rr.Queries[q] = append(rr.Queries[q], eval.ScoredDoc{Doc: d.Doc, Score: float64(len(ranked) - j)})
				}
			}
			r = rr
		}
		p := filepath.Join(dir, fmt.Sprintf("%s-%d.run", name, i+1))
		f, err := os.Create(p)
		if err != nil {
			t.Fatal(err)
		}
		if err := eval.WriteRun(f, r); err != nil {
			t.Fatal(err)
		}
		if err := f.Close(); err != nil {
			t.Fatal(err)
		}
		files = append(files, p)
	}
	return files
}
