package engine

import (
	"context"
	"encoding/pem"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"testing"
)

// TestHTTP1Only: the transport speaks HTTP/1.1 to an https engine that offers HTTP/2. Go's HTTP/2
// client made Solr's Jetty (TLS) answer GOAWAY ENHANCE_YOUR_CALM in the middle of a run
// (TestEngineFaults, intermittently), so HTTP/2 is off.
func TestHTTP1Only(t *testing.T) {
	proto := make(chan string, 1)
	srv := httptest.NewUnstartedServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		select {
		case proto <- r.Proto:
		default:
		}
		w.Write([]byte(`{"version": {"number": "3.5.0", "distribution": "opensearch"}}`))
	}))
	srv.EnableHTTP2 = true
	srv.StartTLS()
	defer srv.Close()
	ca := filepath.Join(t.TempDir(), "ca.pem")
	if err := os.WriteFile(ca, pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: srv.Certificate().Raw}), 0o644); err != nil {
		t.Fatal(err)
	}
	t.Setenv(envCA, ca)
	t.Setenv(envUser, "")
	t.Setenv(envPassword, "")
	t.Setenv(envAPIKey, "")
	if _, err := Connect(context.Background(), srv.URL); err != nil {
		t.Fatal(err)
	}
	if p := <-proto; p != "HTTP/1.1" {
		t.Errorf("the engine was asked over %s, want HTTP/1.1", p)
	}
}
