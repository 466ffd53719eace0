package retrieval

import (
	"context"
	"net/http"
	"net/http/httptest"
	"os"
	"strings"
	"testing"
	"time"
)

// trickle serves a response that announces 1 MB, sends 10 bytes, then sends nothing more until
// the client goes away.
func trickle(t *testing.T) *httptest.Server {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Length", "1000000")
		w.Write([]byte("PK\x03\x04 part"))
		w.(http.Flusher).Flush()
		<-r.Context().Done()
	}))
	t.Cleanup(srv.Close)
	return srv
}

// A download whose body stops arriving ends after the stall timeout, and one that is
// interrupted (its context cancelled, as Ctrl-C does in the command line) ends at once; both
// leave no partial zip or folder behind.
func TestDownloadStallAndInterrupt(t *testing.T) {
	srv := trickle(t)
	a := Archive{Name: "tiny", URL: srv.URL + "/tiny.zip", CorpusSHA256: sha(tinyCorpus)}

	saved := stallTimeout
	stallTimeout = 200 * time.Millisecond
	defer func() { stallTimeout = saved }()
	dir := t.TempDir()
	_, err := a.download(context.Background(), nil, dir, nil)
	if err == nil || !strings.Contains(err.Error(), "no data received for 200ms") {
		t.Errorf("stalled download: %v, want a stall error", err)
	}
	if entries, _ := os.ReadDir(dir); len(entries) != 0 {
		t.Errorf("a stalled download left %d entries behind", len(entries))
	}

	stallTimeout = time.Hour
	dir = t.TempDir()
	ctx, cancel := context.WithCancel(context.Background())
	time.AfterFunc(100*time.Millisecond, cancel)
	_, err = a.download(ctx, nil, dir, nil)
	if err == nil || !strings.Contains(err.Error(), "context canceled") {
		t.Errorf("interrupted download: %v, want the cancellation", err)
	}
	if entries, _ := os.ReadDir(dir); len(entries) != 0 {
		t.Errorf("an interrupted download left %d entries behind", len(entries))
	}
}
