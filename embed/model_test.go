package embed_test

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ranklab/ranklab/embed"
	"github.com/ranklab/ranklab/internal/sharedtest"
	"github.com/ranklab/ranklab/retrieval"
)

// openModel opens all-MiniLM-L6-v2 (skipping or failing as installed does) and closes it at the
// end of the test.
func openModel(t testing.TB) *embed.Model {
	t.Helper()
	installed(t)
	m, err := embed.Open(embed.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(m.Close)
	return m
}

// TestModelMatchesReferenceVectors embeds the 48 documents and 48 queries of each collection
// whose reference vectors ../shared/anchors/dense holds (sentence-transformers with torch, not
// ranklab) and wants every cosine ≥ 0.999999.
func TestModelMatchesReferenceVectors(t *testing.T) {
	m := openModel(t)
	for _, name := range []string{"scifact", "cranfield"} {
		dir := sharedtest.Path(t, "data", name)
		corpus, err := retrieval.ReadCorpusFile(dir)
		if err != nil {
			t.Fatal(err)
		}
		queries, err := retrieval.ReadQueriesFile(dir)
		if err != nil {
			t.Fatal(err)
		}
		text := map[string]map[string]string{"docs": {}, "queries": {}}
		for _, d := range corpus {
			text["docs"][d.ID] = strings.TrimSpace(d.Title + " " + d.Text)
		}
		for _, q := range queries {
			text["queries"][q.ID] = q.Text
		}
		for _, kind := range []string{"docs", "queries"} {
			t.Run(name+"/"+kind, func(t *testing.T) {
				path := sharedtest.Path(t, "anchors", "dense", name+"."+kind+".tsv")
				f, err := os.Open(path)
				if err != nil {
					t.Fatal(err)
				}
				defer f.Close()
				ids, want, err := embed.ReadVectors(f, filepath.Base(path))
				if err != nil {
					t.Fatal(err)
				}
				texts := make([]string, len(ids))
				for i, id := range ids {
					s, ok := text[kind][id]
					if !ok {
						t.Fatalf("%s: %s is not in the collection", path, id)
					}
					texts[i] = s
				}
				got, err := m.Embed(texts)
				if err != nil {
					t.Fatal(err)
				}
				worst, worstID := 2.0, ""
				for i := range ids {
					if len(got[i]) != len(want[i]) {
						t.Fatalf("%s: %d dimensions, reference %d", ids[i], len(got[i]), len(want[i]))
					}
					// the reference vectors are printed to 8 digits: normalise before the cosine
					c := embed.Dot(got[i], want[i]) / norm(want[i])
					if c < worst {
						worst, worstID = c, ids[i]
					}
					if c < 0.999999 {
						t.Errorf("%s: cosine %.9f with the reference, want ≥ 0.999999", ids[i], c)
					}
				}
				t.Logf("%d vectors; lowest cosine %.9f (%s)", len(ids), worst, worstID)
			})
		}
	}
}

// TestOpenNoticesChangedGraph is issue 33 item 2: model.onnx with one weight block zeroed in
// place (the protobuf still valid, the run different) must not open, and the cache key names
// the graph that runs.
func TestOpenNoticesChangedGraph(t *testing.T) {
	m := installed(t)
	model, err := embed.Open(embed.Options{})
	if err != nil {
		t.Fatal(err)
	}
	key := model.Key()
	model.Close()
	graph, err := os.ReadFile(filepath.Join(m.ModelDir, "model.onnx"))
	if err != nil {
		t.Fatal(err)
	}
	if sum := sha256.Sum256(graph); !strings.Contains(key, "graph-"+hex.EncodeToString(sum[:8])) {
		t.Errorf("Key %q does not name the graph's sha256 %x", key, sum[:8])
	}
	// A copy of the installation whose graph has 4 KiB of zeros in the middle (inside the
	// word-embedding table's raw data, 47 of the graph's 90 MB).
	dir := t.TempDir()
	mdir := filepath.Join(dir, "model")
	if err := os.Mkdir(mdir, 0o755); err != nil {
		t.Fatal(err)
	}
	for _, f := range []string{"vocab.txt", "tokenizer.json", "config.json"} {
		if err := os.Symlink(filepath.Join(m.ModelDir, f), filepath.Join(mdir, f)); err != nil {
			t.Fatal(err)
		}
	}
	clear(graph[len(graph)/3 : len(graph)/3+4096])
	if err := os.WriteFile(filepath.Join(mdir, "model.onnx"), graph, 0o644); err != nil {
		t.Fatal(err)
	}
	m.ModelDir = mdir
	manifest, err := json.Marshal(m)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "dense.json"), manifest, 0o644); err != nil {
		t.Fatal(err)
	}
	t.Setenv("RANKLAB_DENSE_DIR", dir)
	changed, err := embed.Open(embed.Options{})
	if err == nil {
		changed.Close()
		t.Fatal("a graph with a weight block zeroed after set-up opened")
	}
	if !strings.Contains(err.Error(), "sha256") || !strings.Contains(err.Error(), "model.onnx") {
		t.Errorf("error %q; want one naming model.onnx and its sha256", err)
	}
}

func norm(v []float32) float64 {
	return sqrt(embed.Dot(v, v))
}

func sqrt(x float64) float64 { return math.Sqrt(x) }
