package main

import (
	"bufio"
	"context"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/sha256"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/base64"
	"encoding/pem"
	"fmt"
	"math/big"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/ranklab/ranklab/engine"
	"github.com/ranklab/ranklab/eval"
	"github.com/ranklab/ranklab/internal/sharedtest"
)

// startEngine starts a local cluster for a test, skipping without Java or Maven unless
// RANKLAB_ENGINE_TESTS=1 (CI), where failing to start fails the test.
func startEngine(t *testing.T, opt engine.Options) *engine.Cluster {
	t.Helper()
	if testing.Short() {
		t.Skip("-short: the engine tests run in the full pass")
	}
	c, err := engine.Start(context.Background(), opt)
	if err != nil {
		if os.Getenv("RANKLAB_ENGINE_TESTS") == "1" {
			t.Fatalf("RANKLAB_ENGINE_TESTS=1 but the %s cluster did not start: %v", opt.Kind, err)
		}
		t.Skipf("no local cluster (set RANKLAB_ENGINE_TESTS=1 to make this a failure): %v", err)
	}
	t.Cleanup(func() { c.Stop() })
	return c
}

// testTLS writes a CA and a server certificate for 127.0.0.1 signed by it: the chain (server,
// then CA) and the server's key, and the CA alone, as PEM files in dir.
func testTLS(t *testing.T, dir string) (chain, key, ca string) {
	t.Helper()
	caKey, _ := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	caTpl := &x509.Certificate{SerialNumber: big.NewInt(1), Subject: pkix.Name{CommonName: "ranklab test CA"},
		NotBefore: time.Now().Add(-time.Hour), NotAfter: time.Now().Add(24 * time.Hour), IsCA: true, BasicConstraintsValid: true,
		KeyUsage: x509.KeyUsageCertSign | x509.KeyUsageDigitalSignature}
	caDER, err := x509.CreateCertificate(rand.Reader, caTpl, caTpl, &caKey.PublicKey, caKey)
	if err != nil {
		t.Fatal(err)
	}
	caCert, _ := x509.ParseCertificate(caDER)
	srvKey, _ := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	srvTpl := &x509.Certificate{SerialNumber: big.NewInt(2), Subject: pkix.Name{CommonName: "127.0.0.1"},
		NotBefore: time.Now().Add(-time.Hour), NotAfter: time.Now().Add(24 * time.Hour),
		IPAddresses: []net.IP{net.ParseIP("127.0.0.1")}, DNSNames: []string{"localhost"},
		KeyUsage: x509.KeyUsageDigitalSignature, ExtKeyUsage: []x509.ExtKeyUsage{x509.ExtKeyUsageServerAuth, x509.ExtKeyUsageClientAuth}}
	srvDER, err := x509.CreateCertificate(rand.Reader, srvTpl, caCert, &srvKey.PublicKey, caKey)
	if err != nil {
		t.Fatal(err)
	}
	keyDER, err := x509.MarshalPKCS8PrivateKey(srvKey)
	if err != nil {
		t.Fatal(err)
	}
	pemOf := func(kind string, der ...[]byte) []byte {
		var out []byte
		for _, d := range der {
			out = append(out, pem.EncodeToMemory(&pem.Block{Type: kind, Bytes: d})...)
		}
		return out
	}
	chain = sharedtest.WriteFile(t, dir, "chain.pem", pemOf("CERTIFICATE", srvDER, caDER))
	key = sharedtest.WriteFile(t, dir, "key.pem", pemOf("PRIVATE KEY", keyDER))
	ca = sharedtest.WriteFile(t, dir, "ca.pem", pemOf("CERTIFICATE", caDER))
	return chain, key, ca
}

// solrBasicAuth returns a security.json with Solr's BasicAuthPlugin (every request needs user
// and password) and the rule that user may do everything. Solr stores the password as
// base64(sha256(sha256(salt + password))) and base64(salt).
func solrBasicAuth(user, password string) string {
	salt := make([]byte, 32)
	rand.Read(salt)
	h := sha256.Sum256(append(append([]byte{}, salt...), password...))
	h = sha256.Sum256(h[:])
	cred := base64.StdEncoding.EncodeToString(h[:]) + " " + base64.StdEncoding.EncodeToString(salt)
	return fmt.Sprintf(`{"authentication": {"blockUnknown": true, "class": "solr.BasicAuthPlugin", "credentials": {%q: %q}},
 "authorization": {"class": "solr.RuleBasedAuthorizationPlugin", "permissions": [{"name": "all", "role": "admin"}], "user-role": {%q: "admin"}}}`, user, cred, user)
}

// TestEngineFaults tries the faults a user meets against a real Solr started with https and
// BasicAuthPlugin: a CA not trusted, no or wrong credentials, the right ones (whose password
// appears nowhere in the output), the engine killed in the middle of a run (an error and no
// run file), and then the engine down.
func TestEngineFaults(t *testing.T) {
	dir := t.TempDir()
	chain, key, ca := testTLS(t, dir)
	const user, password = "ranklab", "s3cret-Pa55word-never-printed"
	sec := sharedtest.WriteFile(t, dir, "security.json", solrBasicAuth(user, password))
	cl := startEngine(t, engine.Options{Kind: "solr", Security: sec, TLSCert: chain, TLSKey: key})
	if !strings.HasPrefix(cl.URL, "https://") {
		t.Fatalf("the cluster serves %s, want https", cl.URL)
	}
	data := sharedtest.Path(t, "data", "cranfield")
	out := filepath.Join(dir, "run")
	beir := func() (string, int) {
		_, stderr, code := runCmd("beir", "run", "--data", data, "--engine", cl.URL, "--k", "100", "--out", out, "--stamp")
		if strings.Contains(stderr, password) {
			t.Errorf("the password is printed: %s", stderr)
		}
		return stderr, code
	}
	t.Setenv("RANKLAB_ENGINE_CA", "")
	t.Setenv("RANKLAB_ENGINE_USER", "")
	t.Setenv("RANKLAB_ENGINE_PASSWORD", "")
	for _, step := range []struct {
		name, ca, user, password string
		want                     []string
	}{
		{"CA not trusted", "", "", "", []string{cl.URL, "not trusted", "RANKLAB_ENGINE_CA"}},
		{"no credentials", ca, "", "", []string{cl.URL, "HTTP 401", "RANKLAB_ENGINE_USER"}},
		{"wrong password", ca, user, "wrong", []string{cl.URL, "HTTP 401"}},
	} {
		t.Run(step.name, func(t *testing.T) {
			t.Setenv("RANKLAB_ENGINE_CA", step.ca)
			t.Setenv("RANKLAB_ENGINE_USER", step.user)
			t.Setenv("RANKLAB_ENGINE_PASSWORD", step.password)
			stderr, code := beir()
			for _, w := range step.want {
				if code != 1 || !strings.Contains(stderr, w) {
					t.Errorf("exit %d, stderr %q; want 1 and %q", code, stderr, w)
				}
			}
			t.Logf("what the user sees: %s", strings.TrimSpace(stderr))
		})
	}
	t.Setenv("RANKLAB_ENGINE_CA", ca)
	t.Setenv("RANKLAB_ENGINE_USER", user)
	t.Setenv("RANKLAB_ENGINE_PASSWORD", password)
	stderr, code := beir()
	if code != 0 {
		t.Fatalf("with the CA and the credentials: exit %d: %s", code, stderr)
	}
	written, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(string(written), password) || !strings.Contains(string(written), "# ") || !strings.Contains(string(written), "statistics: one shard") {
		t.Errorf("the stamped run holds the password or lacks the engine's stamp:\n%s", written[len(written)-min(len(written), 1500):])
	}
	qrels, err := eval.ReadQrelsFile(filepath.Join(data, "qrels", "test.tsv"))
	if err != nil {
		t.Fatal(err)
	}
	run, err := eval.ReadRunFile(out)
	if err != nil {
		t.Fatal(err)
	}
	res, err := eval.Options{AllQueries: true}.Evaluate(qrels, run, eval.NDCG(10), eval.Recall(100))
	if err != nil {
		t.Fatal(err)
	}
	if got := fmt.Sprintf("%.4f %.4f", res.Mean(eval.NDCG(10)), res.Mean(eval.Recall(100))); got != "0.3654 0.7224" {
		t.Errorf("Cranfield BM25 through https and BasicAuth: %s, want 0.3654 0.7224 (Lucene's EnglishAnalyzer)", got)
	}

	// The engine dies in the middle of a run: many queries in flight, the JVM killed.
	var qs strings.Builder
	for i := range 40000 {
		fmt.Fprintf(&qs, "{\"_id\": \"q%d\", \"text\": \"boundary layer flow %d\"}\n", i, i)
	}
	queries := sharedtest.WriteFile(t, dir, "queries.jsonl", qs.String())
	tpl := sharedtest.WriteFile(t, dir, "template.json", `{"query": "{{query}}", "params": {"defType": "edismax", "qf": "text"}}`)
	killed := filepath.Join(dir, "killed.run")
	done := make(chan struct{})
	var qerr string
	var qcode int
	go func() {
		_, qerr, qcode = runCmd("engine", "query", "--engine", cl.URL, "--index", "ranklab-cranfield-text-1shards", "--template", tpl, "--queries", queries, "--k", "10", "--out", killed)
		close(done)
	}()
	time.Sleep(3 * time.Second)
	select {
	case <-done:
		t.Fatalf("the 40,000 queries were answered in under 3 s (exit %d: %s): the engine could not be killed mid-run", qcode, qerr)
	default:
	}
	t0 := time.Now()
	syscall.Kill(-cl.PID, syscall.SIGKILL)
	<-done
	if qcode != 1 || !strings.Contains(qerr, cl.URL) || !strings.Contains(qerr, "no run written") {
		t.Errorf("killed mid-run: exit %d, stderr %q; want 1, the URL and no run", qcode, qerr)
	}
	if _, err := os.Stat(killed); !os.IsNotExist(err) {
		t.Errorf("a run file was left after the engine died: %v", err)
	}
	t.Logf("engine killed mid-run; after %.1f s the user sees: %s", time.Since(t0).Seconds(), strings.TrimSpace(qerr))
	_, qerr, qcode = runCmd("engine", "query", "--engine", cl.URL, "--index", "x", "--template", tpl, "--queries", queries, "--out", killed)
	if qcode != 1 || !strings.Contains(qerr, "connection refused") || !strings.Contains(qerr, cl.URL) {
		t.Errorf("engine down: exit %d, stderr %q; want connection refused naming the URL", qcode, qerr)
	}
	t.Logf("engine down: %s", strings.TrimSpace(qerr))
}

// TestEngineStartStops runs `ranklab engine start` as a user does (a child process) and stops it
// twice: with Ctrl-C's SIGINT, and by killing it outright (SIGKILL: the JVM sees its standard
// input end). Each time the JVM and everything in its process group must be gone within 2.5 s
// (the command waits 2 s for the JVM's own shutdown, then kills it).
func TestEngineStartStops(t *testing.T) {
	if testing.Short() {
		t.Skip("-short: the engine tests run in the full pass")
	}
	for _, sig := range []syscall.Signal{syscall.SIGINT, syscall.SIGKILL} {
		t.Run(sig.String(), func(t *testing.T) {
			cmd := exec.Command(os.Args[0], "engine", "start")
			cmd.Env = append(os.Environ(), childEnv+"=1")
			stdout, _ := cmd.StdoutPipe()
			stderr, _ := cmd.StderrPipe()
			if err := cmd.Start(); err != nil {
				t.Fatal(err)
			}
			defer cmd.Process.Kill()
			url, jvm := make(chan string, 1), make(chan int, 1)
			go func() {
				sc := bufio.NewScanner(stdout)
				for sc.Scan() {
					url <- sc.Text()
				}
			}()
			var log strings.Builder
			go func() {
				sc := bufio.NewScanner(stderr)
				for sc.Scan() {
					log.WriteString(sc.Text() + "\n")
					var pid int
					if i := strings.Index(sc.Text(), "(JVM "); i >= 0 {
						fmt.Sscanf(sc.Text()[i:], "(JVM %d", &pid)
						jvm <- pid
					}
				}
			}()
			var pid int
			select {
			case u := <-url:
				pid = <-jvm
				t.Logf("started at %s, JVM %d", u, pid)
			case <-time.After(5 * time.Minute):
				if os.Getenv("RANKLAB_ENGINE_TESTS") == "1" {
					t.Fatalf("no URL after 5 minutes: %s", log.String())
				}
				t.Skipf("no local cluster: %s", log.String())
			}
			t0 := time.Now()
			cmd.Process.Signal(sig)
			cmd.Wait()
			for groupAlive(pid) {
				if time.Since(t0) > 10*time.Second {
					syscall.Kill(-pid, syscall.SIGKILL)
					t.Fatalf("after %v the JVM %d (or its group) still runs", sig, pid)
				}
				time.Sleep(20 * time.Millisecond)
			}
			took := time.Since(t0)
			t.Logf("%v: the JVM and its group gone %.2f s after the signal", sig, took.Seconds())
			if took > 2500*time.Millisecond {
				t.Errorf("%v: the JVM took %.2f s to go, want at most 2 s (+0.5 s for the machine)", sig, took.Seconds())
			}
		})
	}
}

// groupAlive reports whether any process of process group pgid (the JVM leads its own) is running:
// a zombie waiting for its parent to read its status counts as gone (/proc/PID/stat).
func groupAlive(pgid int) bool {
	entries, _ := os.ReadDir("/proc")
	for _, e := range entries {
		data, err := os.ReadFile(filepath.Join("/proc", e.Name(), "stat"))
		if err != nil {
			continue
		}
		s := string(data)
		i := strings.LastIndexByte(s, ')')
		if i < 0 {
			continue
		}
		f := strings.Fields(s[i+1:]) // state ppid pgrp ...
		if len(f) > 2 && f[0] != "Z" && f[2] == fmt.Sprint(pgid) {
			return true
		}
	}
	return false
}
