package retrieval

import (
	"archive/zip"
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
)

const (
	tinyCorpus  = `{"_id":"d1","title":"Zebras","text":"zebras graze"}` + "\n" + `{"_id":"d2","title":"Quartz","text":"a mineral"}` + "\n"
	tinyQueries = `{"_id":"1","text":"zebra"}` + "\n"
	tinyQrels   = "query-id\tcorpus-id\tscore\n1\td1\t1\n"
)

// tinyZip builds a BEIR-style zip: files under the folder "tiny/".
func tinyZip(t *testing.T, files map[string]string) []byte {
	t.Helper()
	var buf bytes.Buffer
	zw := zip.NewWriter(&buf)
	for name, content := range files {
		w, err := zw.Create(name)
		if err != nil {
			t.Fatal(err)
		}
		w.Write([]byte(content))
	}
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

func sha(s string) string {
	h := sha256.Sum256([]byte(s))
	return hex.EncodeToString(h[:])
}

func serve(t *testing.T, body []byte, hits *atomic.Int32) *httptest.Server {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		hits.Add(1)
		if r.URL.Path != "/tiny.zip" {
			http.NotFound(w, r)
			return
		}
		w.Write(body)
	}))
	t.Cleanup(srv.Close)
	return srv
}

func TestDownload(t *testing.T) {
	files := map[string]string{"tiny/corpus.jsonl": tinyCorpus, "tiny/queries.jsonl": tinyQueries, "tiny/qrels/test.tsv": tinyQrels, "__MACOSX/tiny/._x": "junk"}
	var hits atomic.Int32
	srv := serve(t, tinyZip(t, files), &hits)
	a := Archive{Name: "tiny", URL: srv.URL + "/tiny.zip", CorpusSHA256: sha(tinyCorpus)}
	dir := t.TempDir()
	var progress bytes.Buffer
	got, err := a.Ensure(context.Background(), srv.Client(), dir, &progress)
	if err != nil {
		t.Fatal(err)
	}
	if got != filepath.Join(dir, "tiny") || !strings.Contains(progress.String(), "tiny.zip: ") || !strings.HasSuffix(progress.String(), "(100%)\n") {
		t.Errorf("Ensure = %q, progress %q", got, progress.String())
	}
	c, err := ReadCollection(got, "test")
	if err != nil || len(c.Docs) != 2 || len(c.Queries) != 1 {
		t.Fatalf("ReadCollection after download: %+v, %v", c, err)
	}
	if _, err := os.Stat(filepath.Join(dir, "__MACOSX")); err == nil {
		t.Error("unpacked a folder outside the collection")
	}
	entries, _ := os.ReadDir(dir)
	if len(entries) != 1 {
		t.Errorf("download left %d entries in %s, want only the collection", len(entries), dir)
	}
	// Present: no second request.
	if _, err := a.Ensure(context.Background(), srv.Client(), dir, nil); err != nil || hits.Load() != 1 {
		t.Errorf("second Ensure: %v, %d requests; want no new request", err, hits.Load())
	}
}

func TestDownloadErrors(t *testing.T) {
	var hits atomic.Int32
	good := map[string]string{"tiny/corpus.jsonl": tinyCorpus, "tiny/queries.jsonl": tinyQueries}
	srv := serve(t, tinyZip(t, good), &hits)
	slip := serve(t, tinyZip(t, map[string]string{"tiny/../evil.txt": "x", "tiny/corpus.jsonl": tinyCorpus}), &hits)
	notZip := serve(t, []byte("<html>not a zip</html>"), &hits)

	// A listener closed at once: connection refused, as when offline.
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	offline := "http://" + ln.Addr().String() + "/tiny.zip"
	ln.Close()

	tests := []struct {
		name string
		a    Archive
		want string
	}{
		{"checksum", Archive{Name: "tiny", URL: srv.URL + "/tiny.zip", CorpusSHA256: sha("other")}, "corpus.jsonl: SHA-256 " + sha(tinyCorpus) + ", want " + sha("other")},
		{"not found", Archive{Name: "tiny", URL: srv.URL + "/missing.zip", CorpusSHA256: sha(tinyCorpus)}, "HTTP 404"},
		{"offline", Archive{Name: "tiny", URL: offline, CorpusSHA256: sha(tinyCorpus)}, "no network?"},
		{"zip slip", Archive{Name: "tiny", URL: slip.URL + "/tiny.zip", CorpusSHA256: sha(tinyCorpus)}, "unsafe path"},
		{"not a zip", Archive{Name: "tiny", URL: notZip.URL + "/tiny.zip", CorpusSHA256: sha(tinyCorpus)}, "unpack"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			_, err := tc.a.download(context.Background(), nil, dir, nil)
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("err = %v, want it to contain %q", err, tc.want)
			}
			if entries, _ := os.ReadDir(dir); len(entries) != 0 {
				t.Errorf("a failed download left %d entries behind", len(entries))
			}
		})
	}
}

// TestLoad: a collection is read from the shared folder beside the repository when there, else
// from defaultDataDir, downloaded first when published; one published nowhere is an error that
// names where Load looked.
func TestLoad(t *testing.T) {
	top := t.TempDir() // top/repo/notebooks is the notebook's folder, top/shared the shared one
	repo := filepath.Join(top, "repo")
	for _, f := range []string{filepath.Join(repo, "go.mod"), filepath.Join(repo, "notebooks", "x")} {
		os.MkdirAll(filepath.Dir(f), 0o755)
		os.WriteFile(f, []byte("module x\n"), 0o644)
	}
	write := func(dir string) {
		os.MkdirAll(filepath.Join(dir, "qrels"), 0o755)
		os.WriteFile(filepath.Join(dir, "corpus.jsonl"), []byte(tinyCorpus), 0o644)
		os.WriteFile(filepath.Join(dir, "queries.jsonl"), []byte(tinyQueries), 0o644)
		os.WriteFile(filepath.Join(dir, "qrels", "test.tsv"), []byte(tinyQrels), 0o644)
	}
	t.Setenv("GONB_DIR", filepath.Join(repo, "notebooks"))
	t.Setenv("XDG_CACHE_HOME", filepath.Join(top, "cache")) // defaultDataDir
	t.Setenv("HOME", filepath.Join(top, "home"))

	local := Archive{Name: "tiny"}
	if _, err := local.Load("test", nil); err == nil || !strings.Contains(err.Error(), "not published") ||
		!strings.Contains(err.Error(), filepath.Join(top, "shared", "data", "tiny")) || !strings.Contains(err.Error(), filepath.Join(defaultDataDir(), "tiny")) {
		t.Errorf("Load of a collection found nowhere: %v, want an error naming both places", err)
	}
	write(filepath.Join(defaultDataDir(), "tiny"))
	if c, err := local.Load("test", nil); err != nil || c.Dir != filepath.Join(defaultDataDir(), "tiny") || len(c.Docs) != 2 {
		t.Errorf("Load from defaultDataDir: %v, %v", c.Dir, err)
	}
	write(filepath.Join(top, "shared", "data", "tiny"))
	if c, err := local.Load("test", nil); err != nil || c.Dir != filepath.Join(top, "shared", "data", "tiny") || len(c.Queries) != 1 {
		t.Errorf("Load from the shared folder: %v, %v", c.Dir, err)
	}

	var hits atomic.Int32
	srv := serve(t, tinyZip(t, map[string]string{"pub/corpus.jsonl": tinyCorpus, "pub/queries.jsonl": tinyQueries, "pub/qrels/test.tsv": tinyQrels}), &hits)
	published := Archive{Name: "pub", URL: srv.URL + "/tiny.zip", CorpusSHA256: sha(tinyCorpus)}
	var progress bytes.Buffer
	c, err := published.Load("test", &progress)
	if err != nil || c.Dir != filepath.Join(defaultDataDir(), "pub") || hits.Load() != 1 || !strings.Contains(progress.String(), "tiny.zip") {
		t.Errorf("Load of a published collection: %v, %v, %d requests, progress %q", c.Dir, err, hits.Load(), progress.String())
	}
	if _, err := published.Load("train", nil); err == nil || hits.Load() != 1 {
		t.Errorf("Load of a missing split: %v after %d requests, want an error and no new request", err, hits.Load())
	}
}
