package embed_test

import (
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
// ranklab) and wants every cosine ≥ 0.99999.
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
					if c < 0.99999 {
						t.Errorf("%s: cosine %.8f with the reference, want ≥ 0.99999", ids[i], c)
					}
				}
				t.Logf("%d vectors; lowest cosine %.9f (%s)", len(ids), worst, worstID)
			})
		}
	}
}

func norm(v []float32) float64 {
	return sqrt(embed.Dot(v, v))
}

func sqrt(x float64) float64 { return math.Sqrt(x) }
