package retrieval

import (
	"github.com/ranklab/ranklab/chunking"
	"testing"
)

// checkSweep checks every row's measured chunks and indexed tokens against the footprint
// model summed over the documents' token lengths, computed here from a fresh tokenization.
func checkSweep(t *testing.T, c Collection, sw Sweep, configs []Chunking) {
	t.Helper()
	lengths := Tokenize(mustTokenizer(t), c.Docs).Lengths()
	total := 0
	for _, n := range lengths {
		total += n
	}
	if sw.Tokens != total || len(sw.Rows) != len(configs) {
		t.Fatalf("sweep: %d tokens, %d rows; want %d, %d", sw.Tokens, len(sw.Rows), total, len(configs))
	}
	for i, r := range sw.Rows {
		if r.Chunking != configs[i] {
			t.Errorf("row %d is %v, want %v", i, r.Chunking, configs[i])
		}
		want := chunking.Footprint{Indexed: total}
		if r.Chunking.Chunk > 0 {
			var err error
			if want, err = chunking.FootprintOf(lengths, r.Chunking.Chunk, r.Chunking.Overlap); err != nil {
				t.Fatal(err)
			}
		}
		if r.Indexed != want.Indexed || (r.Chunking.Chunk > 0 && r.Chunks != want.Chunks) {
			t.Errorf("%v: measured %d chunks, %d tokens; footprint model %d, %d", r.Chunking, r.Chunks, r.Indexed, want.Chunks, want.Indexed)
		}
		if r.Footprint.Indexed != r.Indexed {
			t.Errorf("%v: row footprint %d, measured %d", r.Chunking, r.Footprint.Indexed, r.Indexed)
		}
		if wantDup := float64(want.Indexed-total) / float64(total); r.Duplication != wantDup {
			t.Errorf("%v: duplication %g, want %g", r.Chunking, r.Duplication, wantDup)
		}
		if len(r.Result.Queries) != len(c.Queries) {
			t.Errorf("%v: %d queries evaluated, want %d", r.Chunking, len(r.Result.Queries), len(c.Queries))
		}
		if i == 0 {
			if r.Compare != nil {
				t.Errorf("baseline row has comparisons")
			}
			continue
		}
		for m, cmp := range r.Compare {
			if cmp.TPHolm < cmp.TP || cmp.RandPHolm < cmp.RandP || cmp.RandP <= 0 || cmp.TPHolm > 1 {
				t.Errorf("%v measure %d: p-values %+v out of order", r.Chunking, m, cmp)
			}
			if d := r.Result.Means[m] - sw.Rows[0].Result.Means[m]; cmp.Delta != d {
				t.Errorf("%v measure %d: delta %g, want %g", r.Chunking, m, cmp.Delta, d)
			}
		}
	}
}

func TestSweepSmall(t *testing.T) {
	corpus := `{"_id":"d1","title":"Zebras","text":"zebras graze on the open savanna grass all day long while lions watch"}
{"_id":"d2","title":"Quartz","text":"quartz is a hard mineral made of silicon and oxygen found in many rocks"}
{"_id":"d3","title":"Lions","text":"lions hunt zebras at night and sleep in the shade of the savanna trees"}
{"_id":"d4","title":"","text":""}
`
	queries := `{"_id":"1","text":"zebra savanna"}
{"_id":"2","text":"silicon mineral"}
{"_id":"3","text":"night hunting lions"}
`
	qrels := "query-id\tcorpus-id\tscore\n1\td1\t2\n1\td3\t1\n2\td2\t1\n3\td3\t1\n"
	c, err := ReadCollection(writeCollection(t, map[string]string{"corpus.jsonl": corpus, "queries.jsonl": queries, "qrels/test.tsv": qrels}), "test")
	if err != nil {
		t.Fatal(err)
	}
	configs := []Chunking{Whole, {Chunk: 4}, {Chunk: 4, Overlap: 1}, {Chunk: 8, Overlap: 2}}
	sw, err := RunSweep(c, SweepOptions{Chunkings: configs, Permutations: 200})
	if err != nil {
		t.Fatal(err)
	}
	checkSweep(t, c, sw, configs)
	if _, err := RunSweep(c, SweepOptions{Chunkings: []Chunking{{Chunk: 4, Overlap: 4}}}); err == nil {
		t.Error("RunSweep with overlap = chunk: want an error")
	}
}

// TestSweepCranfield runs the whole sweep on Cranfield with its graded qrels and checks
// the measured footprint of every configuration.
func TestSweepCranfield(t *testing.T) {
	if testing.Short() {
		t.Skip("short")
	}
	c, err := ReadCollection(sharedData(t, "cranfield"), "test.graded")
	if err != nil {
		t.Fatal(err)
	}
	sw, err := RunSweep(c, SweepOptions{Permutations: 1000})
	if err != nil {
		t.Fatal(err)
	}
	checkSweep(t, c, sw, SweepChunkings())
	for _, r := range sw.Rows {
		t.Logf("%-22v nDCG@10 %.4f R@100 %.4f RR@10 %.4f", r.Chunking, r.Result.Means[0], r.Result.Means[1], r.Result.Means[2])
	}
}

// TestFootprintSciFact checks, for every sweep configuration, that the chunks cut from
// SciFact hold exactly the footprint model's tokens, and the corpus's token count given in
// ../shared/data/README.md.
func TestFootprintSciFact(t *testing.T) {
	if testing.Short() {
		t.Skip("short")
	}
	docs, err := ReadCorpusFile(sharedData(t, "scifact"))
	if err != nil {
		t.Fatal(err)
	}
	tok := mustTokenizer(t)
	tz := Tokenize(tok, docs)
	lengths := tz.Lengths()
	total := 0
	for _, n := range lengths {
		total += n
	}
	if len(docs) != 5183 || total != 1660493 {
		t.Errorf("SciFact: %d documents, %d tokens; want 5183, 1660493", len(docs), total)
	}
	for _, c := range SweepChunkings()[1:] {
		chunks, err := tz.Chunks(tok, c)
		if err != nil {
			t.Fatal(err)
		}
		indexed := 0
		for _, ch := range chunks {
			indexed += ch.Len()
		}
		f, err := chunking.FootprintOf(lengths, c.Chunk, c.Overlap)
		if err != nil {
			t.Fatal(err)
		}
		if indexed != f.Indexed || len(chunks) != f.Chunks {
			t.Errorf("%v: %d chunks, %d tokens; footprint model %d, %d", c, len(chunks), indexed, f.Chunks, f.Indexed)
		}
	}
}
