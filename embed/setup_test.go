package embed_test

import (
	"errors"
	"os"
	"strings"
	"testing"

	"github.com/ranklab/ranklab/embed"
	"github.com/ranklab/ranklab/internal/sharedtest"
	"github.com/ranklab/ranklab/retrieval"
)

// installed returns the dense model's manifest. Without the model the test skips, unless the
// environment says the set-up ran (RANKLAB_PEERS=1 as scripts/test-all.sh sets it, or
// RANKLAB_DENSE=1): then a missing model is a failure.
func installed(t testing.TB) embed.Manifest {
	t.Helper()
	m, err := embed.FindManifest()
	if err == nil {
		return m
	}
	if errors.Is(err, embed.ErrNotInstalled) && os.Getenv("RANKLAB_PEERS") != "1" && os.Getenv("RANKLAB_DENSE") != "1" {
		t.Skip(err)
	}
	t.Fatal(err)
	return m
}

// texts returns every document text (title + " " + text, trimmed, as the reference embedded
// them) and every query text of a collection under ../shared/data.
func texts(t testing.TB, name string) (docs, queries []string) {
	t.Helper()
	dir := sharedtest.Path(t, "data", name)
	corpus, err := retrieval.ReadCorpusFile(dir)
	if err != nil {
		t.Fatal(err)
	}
	for _, d := range corpus {
		docs = append(docs, strings.TrimSpace(d.Title+" "+d.Text))
	}
	qs, err := retrieval.ReadQueriesFile(dir)
	if err != nil {
		t.Fatal(err)
	}
	for _, q := range qs {
		queries = append(queries, q.Text)
	}
	return docs, queries
}
