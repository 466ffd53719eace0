package engine

import (
	"context"
	"net"
	"net/http"
	"net/http/httputil"
	"net/url"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/ranklab/ranklab/retrieval"
)

// faultProxy stands in front of the real engine and, for the requests fault picks, answers
// itself (a status code a real engine will not give on demand) or delays the engine's answer.
type faultProxy struct {
	URL      string
	armed    atomic.Bool
	requests atomic.Int64
	faults   atomic.Int64
}

// newFaultProxy forwards to target; fault(n) for the n-th request (from 1) returns the status to
// answer with instead (0: forward) and a delay before answering.
func newFaultProxy(t *testing.T, target string, fault func(n int64) (status int, delay time.Duration)) *faultProxy {
	t.Helper()
	return newFaultProxyArmed(t, target, fault)
}

// newFaultProxyArmed is newFaultProxy whose faults begin once armed is set (after Connect): the
// n given to fault counts from the first request after that.
func newFaultProxyArmed(t *testing.T, target string, fault func(n int64) (status int, delay time.Duration)) *faultProxy {
	t.Helper()
	u, err := url.Parse(target)
	if err != nil {
		t.Fatal(err)
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	p := &faultProxy{URL: "http://" + ln.Addr().String() + u.Path}
	rp := httputil.NewSingleHostReverseProxy(&url.URL{Scheme: u.Scheme, Host: u.Host})
	srv := &http.Server{Handler: http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if !p.armed.Load() {
			rp.ServeHTTP(w, r)
			return
		}
		n := p.requests.Add(1)
		status, delay := fault(n)
		select {
		case <-time.After(delay):
		case <-r.Context().Done():
			return
		}
		if status != 0 {
			p.faults.Add(1)
			w.Header().Set("Retry-After", "0")
			http.Error(w, `{"error":{"msg":"injected by the test's proxy"}}`, status)
			return
		}
		rp.ServeHTTP(w, r)
	})}
	go srv.Serve(ln)
	t.Cleanup(func() { srv.Close() })
	return p
}

// TestRetries: 429 and 503 answers (from a proxy in front of the real Solr) are retried with
// back-off and the run equals the direct one; an engine that keeps answering 503 fails after a
// bounded number of attempts and time, naming the URL and the status.
func TestRetries(t *testing.T) {
	f := scifact(t, "solr")
	ctx := context.Background()
	queries := f.coll.Queries[:6]
	direct, err := f.one.Run(ctx, queries, RunOptions{Depth: 10, ChunkDepth: -1})
	if err != nil {
		t.Fatal(err)
	}
	t.Run("429 and 503 then answers", func(t *testing.T) {
		p := newFaultProxy(t, f.client.URL, func(n int64) (int, time.Duration) {
			if n%3 != 0 { // two requests in three fail
				return []int{http.StatusTooManyRequests, http.StatusServiceUnavailable}[n%2], 0
			}
			return 0, 0
		})
		c, err := Connect(ctx, p.URL)
		if err != nil {
			t.Fatal(err)
		}
		p.armed.Store(true)
		ix := f.one.via(c)
		got, err := ix.Run(ctx, queries, RunOptions{Depth: 10, ChunkDepth: -1, Workers: 1})
		if err != nil {
			t.Fatal(err)
		}
		if d := diffScores(direct.Docs, got.Docs); d != "" {
			t.Errorf("through retries the run changed: %s", d)
		}
		if p.faults.Load() < int64(len(queries)) {
			t.Errorf("only %d faults injected", p.faults.Load())
		}
		t.Logf("%d requests, %d answered 429/503 by the proxy, run equal to the direct one", p.requests.Load(), p.faults.Load())
	})
	t.Run("503 for ever", func(t *testing.T) {
		p := newFaultProxy(t, f.client.URL, func(n int64) (int, time.Duration) {
			return http.StatusServiceUnavailable, 0
		})
		c, err := Connect(ctx, p.URL)
		if err != nil {
			t.Fatal(err)
		}
		p.armed.Store(true)
		ix := f.one.via(c)
		t0 := time.Now()
		_, err = ix.Run(ctx, queries, RunOptions{Depth: 10, ChunkDepth: -1, Workers: 1})
		took := time.Since(t0)
		if err == nil || !strings.Contains(err.Error(), p.URL) || !strings.Contains(err.Error(), "503") || !strings.Contains(err.Error(), "after 5 attempts") {
			t.Errorf("got %v, want an error naming %s, 503 and 5 attempts", err, p.URL)
		}
		if took > 10*time.Second || p.requests.Load() != 5 {
			t.Errorf("gave up after %v and %d requests, want about 3.75 s of back-off and 5 requests", took, p.requests.Load())
		}
		t.Logf("what the user sees after %.1f s: %v", took.Seconds(), err)
	})
	t.Run("timeout", func(t *testing.T) {
		p := newFaultProxy(t, f.client.URL, func(n int64) (int, time.Duration) {
			return 0, 3 * time.Second
		})
		c, err := Connect(ctx, p.URL)
		if err != nil {
			t.Fatal(err)
		}
		p.armed.Store(true)
		c.Timeout = 300 * time.Millisecond
		ix := f.one.via(c)
		_, err = ix.Run(ctx, queries, RunOptions{Depth: 10, ChunkDepth: -1})
		if err == nil || !strings.Contains(err.Error(), "no answer within 300ms") || !strings.Contains(err.Error(), p.URL) {
			t.Errorf("got %v, want a timeout naming the URL", err)
		}
		t.Logf("what the user sees: %v", err)
	})
}

// TestDown: nothing listening, and a server that is not an engine, are errors naming the URL.
func TestDown(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := ln.Addr().String()
	ln.Close()
	_, err = Connect(context.Background(), "http://"+addr+"/solr")
	if err == nil || !strings.Contains(err.Error(), "http://"+addr+"/solr") || !strings.Contains(err.Error(), "connection refused") {
		t.Errorf("got %v, want connection refused naming the URL", err)
	}
	t.Logf("down: %v", err)
	srv := &http.Server{Handler: http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { w.Write([]byte("<html>hello</html>")) })}
	ln, err = net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	go srv.Serve(ln)
	defer srv.Close()
	_, err = Connect(context.Background(), "http://"+ln.Addr().String())
	if err == nil || !strings.Contains(err.Error(), "answers neither as OpenSearch") {
		t.Errorf("got %v, want: neither OpenSearch nor Solr", err)
	}
	t.Logf("not an engine: %v", err)
	for _, bad := range []string{"http://user:secret@127.0.0.1:8983/solr", "ftp://x", "http://127.0.0.1:8983/solr?x=1"} {
		_, err := Connect(context.Background(), bad)
		if err == nil || strings.Contains(err.Error(), "secret") {
			t.Errorf("Connect(%q) = %v, want an error without the password", bad, err)
		}
	}
}

// TestFewerHitsThanK: a query matching fewer documents than k gets what matches, and a query
// matching none gets an empty ranking, on both engines.
func TestFewerHitsThanK(t *testing.T) {
	for _, kind := range []string{"solr", "opensearch"} {
		t.Run(kind, func(t *testing.T) {
			f := scifact(t, kind)
			qs := []retrieval.Query{{ID: "rare", Text: "rapamycin triacylglycerols"}, {ID: "none", Text: "zzxqv qqzzv"}, {ID: "stop", Text: "the of and"}}
			r, err := f.one.Run(context.Background(), qs, RunOptions{Depth: 1000, ChunkDepth: -1})
			if err != nil {
				t.Fatal(err)
			}
			if n := len(r.Docs.Queries["rare"]); n == 0 || n >= 1000 {
				t.Errorf("rare words: %d documents, want some but fewer than 1000", n)
			}
			if n := len(r.Docs.Queries["none"]) + len(r.Docs.Queries["stop"]); n != 0 {
				t.Errorf("unknown and stop words: %d documents, want 0", n)
			}
			t.Logf("%s: %d documents for the rare words, 0 for unknown words and stop words alone", kind, len(r.Docs.Queries["rare"]))
		})
	}
}

// TestEngineErrorBody: an engine refusing a request answers with an error body, and the user must
// read the engine's own message (naming what is wrong), never a JSON decoding error: a template
// searching a field the index does not have, and an index that does not exist, on both engines.
func TestEngineErrorBody(t *testing.T) {
	bad := map[string]string{
		"solr":       `{"query": "{{query}}", "params": {"defType": "edismax", "qf": "nosuchfield^2"}}`,
		"opensearch": `{"query": {"query_string": {"query": "{{query}}", "default_field": "text"}}, "sort": [{"nosuchfield": "asc"}]}`,
	}
	for _, kind := range []string{"solr", "opensearch"} {
		t.Run(kind, func(t *testing.T) {
			f := scifact(t, kind)
			ctx := context.Background()
			queries := f.coll.Queries[:3]
			for _, c := range []struct {
				name  string
				tpl   Template
				wants []string
			}{
				{"a field the index does not have", Template{Index: f.one.Name, Body: bad[kind], K: 10}, []string{"HTTP 400", "nosuchfield"}},
				{"an index that does not exist", Template{Index: "nosuchindex", Body: templates[kind][0].body, K: 10}, []string{"HTTP 404", "nosuchindex"}},
			} {
				t.Run(c.name, func(t *testing.T) {
					_, err := f.client.Query(ctx, queries, c.tpl)
					if err == nil {
						t.Fatal("no error")
					}
					for _, w := range append(c.wants, f.client.URL) {
						if !strings.Contains(err.Error(), w) {
							t.Errorf("error %q does not hold %q", err, w)
						}
					}
					// "servlet": Solr's answer for a path it does not serve, quoted whole
					for _, not := range []string{"not the JSON expected", "invalid character", "<html", "<body", `"servlet"`} {
						if strings.Contains(strings.ToLower(err.Error()), strings.ToLower(not)) {
							t.Errorf("error %q holds %q: the engine's own message is lost", err, not)
						}
					}
					t.Logf("what the user sees: %v", err)
				})
			}
		})
	}
}
