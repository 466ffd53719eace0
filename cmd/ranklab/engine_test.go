package main

import (
	"bufio"
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
	"sync"
	"syscall"
	"testing"
	"time"

	"golang.org/x/crypto/bcrypt"

	"github.com/ranklab/ranklab/eval"
	"github.com/ranklab/ranklab/internal/sharedtest"
)

// child is `ranklab engine start` run as a user runs it (a child process): its URL and its JVM.
type child struct {
	URL string
	PID int // the JVM's (it leads its own process group)
	cmd *exec.Cmd
	log *strings.Builder
}

// startChild runs `ranklab engine start ARGS...` and returns once it prints its URL, skipping
// without Java or Maven unless RANKLAB_ENGINE_TESTS=1 (CI), where failing to start fails the test.
// The cleanup kills whatever is left.
func startChild(t *testing.T, args ...string) *child {
	t.Helper()
	if testing.Short() {
		t.Skip("-short: the engine tests run in the full pass")
	}
	c := &child{cmd: exec.Command(os.Args[0], append([]string{"engine", "start"}, args...)...), log: &strings.Builder{}}
	c.cmd.Env = append(os.Environ(), childEnv+"=1")
	stdout, _ := c.cmd.StdoutPipe()
	stderr, _ := c.cmd.StderrPipe()
	if err := c.cmd.Start(); err != nil {
		t.Fatal(err)
	}
	url, jvm, ended := make(chan string, 1), make(chan int, 1), make(chan struct{})
	go func() {
		sc := bufio.NewScanner(stdout)
		for sc.Scan() {
			url <- sc.Text()
		}
	}()
	var mu sync.Mutex
	go func() {
		defer close(ended)
		sc := bufio.NewScanner(stderr)
		for sc.Scan() {
			mu.Lock()
			c.log.WriteString(sc.Text() + "\n")
			mu.Unlock()
			var pid int
			if i := strings.Index(sc.Text(), "(JVM "); i >= 0 {
				fmt.Sscanf(sc.Text()[i:], "(JVM %d", &pid)
				jvm <- pid
			}
		}
	}()
	t.Cleanup(func() {
		c.cmd.Process.Kill()
		c.cmd.Wait()
		if c.PID > 0 {
			syscall.Kill(-c.PID, syscall.SIGKILL)
		}
	})
	select {
	case c.URL = <-url:
		c.PID = <-jvm
		t.Logf("ranklab engine start %s: %s, JVM %d", strings.Join(args, " "), c.URL, c.PID)
		return c
	case <-ended:
	case <-time.After(5 * time.Minute):
	}
	mu.Lock()
	defer mu.Unlock()
	if os.Getenv("RANKLAB_ENGINE_TESTS") == "1" {
		t.Fatalf("RANKLAB_ENGINE_TESTS=1 but ranklab engine start %s gave no URL: %s", strings.Join(args, " "), c.log.String())
	}
	t.Skipf("no local cluster (set RANKLAB_ENGINE_TESTS=1 to make this a failure): %s", c.log.String())
	return nil
}

// stop sends sig to `ranklab engine start` and returns how long its JVM and the JVM's process
// group took to be gone (a test failure past 10 s).
func (c *child) stop(t *testing.T, sig syscall.Signal) time.Duration {
	t.Helper()
	t0 := time.Now()
	c.cmd.Process.Signal(sig)
	c.cmd.Wait()
	for groupAlive(c.PID) {
		if time.Since(t0) > 10*time.Second {
			syscall.Kill(-c.PID, syscall.SIGKILL)
			t.Fatalf("after %v the JVM %d (or its group) still runs", sig, c.PID)
		}
		time.Sleep(20 * time.Millisecond)
	}
	return time.Since(t0)
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

// openSearchUsers returns an internal_users.yml of OpenSearch's security plugin with one user
// whose backend role "admin" its default roles_mapping.yml maps to all_access (bcrypt, the cost
// kept low: every new connection checks it).
func openSearchUsers(t *testing.T, user, password string) string {
	h, err := bcrypt.GenerateFromPassword([]byte(password), bcrypt.MinCost)
	if err != nil {
		t.Fatal(err)
	}
	return fmt.Sprintf("_meta:\n  type: \"internalusers\"\n  config_version: 2\n%s:\n  hash: %q\n  backend_roles: [\"admin\"]\n", user, h)
}

// TestEngineFaults tries the faults a user meets against real engines started as a user starts
// them (`ranklab engine start`, a child process), each serving https with basic authentication:
// Solr with its BasicAuthPlugin, OpenSearch with its security plugin. On each: a CA not trusted,
// no credentials, a wrong password, then the right ones (whose password appears nowhere in the
// output or the stamped run) giving Cranfield's BM25. Then each is stopped as a user stops it:
// Solr by killing `ranklab engine start` outright (SIGKILL: the JVM sees its standard input end)
// in the middle of a run of 40,000 queries, which must fail with no run file; OpenSearch by
// Ctrl-C (SIGINT), after which it is down (connection refused, naming the URL). Each time the JVM
// and everything in its process group must be gone within 2.5 s (the command and the JVM give
// the cluster's own shutdown 1.5-2 s, then halt).
func TestEngineFaults(t *testing.T) {
	dir := t.TempDir()
	chain, key, ca := testTLS(t, dir)
	const user, password = "ranklab", "s3cret-Pa55word-never-printed"
	data := sharedtest.Path(t, "data", "cranfield")
	qrels, err := eval.ReadQrelsFile(filepath.Join(data, "qrels", "test.tsv"))
	if err != nil {
		t.Fatal(err)
	}
	t.Setenv("RANKLAB_ENGINE_CA", "")
	t.Setenv("RANKLAB_ENGINE_USER", "")
	t.Setenv("RANKLAB_ENGINE_PASSWORD", "")
	for _, kind := range []string{"solr", "opensearch"} {
		t.Run(kind, func(t *testing.T) {
			users := sharedtest.WriteFile(t, dir, "security.json", solrBasicAuth(user, password))
			if kind == "opensearch" {
				users = sharedtest.WriteFile(t, dir, "internal_users.yml", openSearchUsers(t, user, password))
			}
			cl := startChild(t, "--kind", kind, "--security", users, "--tls-cert", chain, "--tls-key", key)
			if !strings.HasPrefix(cl.URL, "https://") {
				t.Fatalf("the cluster serves %s, want https", cl.URL)
			}
			out := filepath.Join(dir, kind+".run")
			beir := func() (string, int) {
				_, stderr, code := runCmd("beir", "run", "--data", data, "--engine", cl.URL, "--k", "100", "--out", out, "--stamp")
				if strings.Contains(stderr, password) {
					t.Errorf("the password is printed: %s", stderr)
				}
				return stderr, code
			}
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
			run, err := eval.ReadRunFile(out)
			if err != nil {
				t.Fatal(err)
			}
			res, err := eval.Options{AllQueries: true}.Evaluate(qrels, run, eval.NDCG(10), eval.Recall(100))
			if err != nil {
				t.Fatal(err)
			}
			if got := fmt.Sprintf("%.4f %.4f", res.Mean(eval.NDCG(10)), res.Mean(eval.Recall(100))); got != "0.3654 0.7224" {
				t.Errorf("Cranfield BM25 through https and basic authentication: %s, want 0.3654 0.7224 (Lucene's EnglishAnalyzer)", got)
			}
			t.Logf("through https and basic authentication: Cranfield BM25 nDCG@10 / R@100 %s", fmt.Sprintf("%.4f / %.4f", res.Mean(eval.NDCG(10)), res.Mean(eval.Recall(100))))
			tpl := sharedtest.WriteFile(t, dir, "template-"+kind+".json", map[string]string{
				"solr":       `{"query": "{{query}}", "params": {"defType": "edismax", "qf": "text"}}`,
				"opensearch": `{"query": {"match": {"text": "{{query}}"}}}`}[kind])
			queries := filepath.Join(dir, "queries.jsonl")
			if kind == "opensearch" {
				took := cl.stop(t, syscall.SIGINT)
				t.Logf("Ctrl-C: the JVM and its group gone %.2f s after SIGINT", took.Seconds())
				if took > 2500*time.Millisecond {
					t.Errorf("Ctrl-C: the JVM took %.2f s to go, want at most 2 s (+0.5 s for the machine)", took.Seconds())
				}
				_, qerr, qcode := runCmd("engine", "query", "--engine", cl.URL, "--index", "x", "--template", tpl, "--data", data, "--out", filepath.Join(dir, "down.run"))
				if qcode != 1 || !strings.Contains(qerr, "connection refused") || !strings.Contains(qerr, cl.URL) {
					t.Errorf("engine down: exit %d, stderr %q; want connection refused naming the URL", qcode, qerr)
				}
				t.Logf("engine down: %s", strings.TrimSpace(qerr))
				return
			}
			// The engine dies in the middle of a run: many queries in flight, `ranklab engine
			// start` killed, so its JVM stops.
			var qs strings.Builder
			for i := range 40000 {
				fmt.Fprintf(&qs, "{\"_id\": \"q%d\", \"text\": \"boundary layer flow %d\"}\n", i, i)
			}
			os.WriteFile(queries, []byte(qs.String()), 0o644)
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
				t.Fatalf("the 40,000 queries were answered in under 3 s (exit %d: %s): the engine could not be stopped mid-run", qcode, qerr)
			default:
			}
			t0 := time.Now()
			took := cl.stop(t, syscall.SIGKILL)
			t.Logf("ranklab engine start killed: the JVM and its group gone %.2f s after SIGKILL", took.Seconds())
			if took > 2500*time.Millisecond {
				t.Errorf("SIGKILL: the JVM took %.2f s to go, want at most 2 s (+0.5 s for the machine)", took.Seconds())
			}
			<-done
			if qcode != 1 || !strings.Contains(qerr, cl.URL) || !strings.Contains(qerr, "no run written") {
				t.Errorf("killed mid-run: exit %d, stderr %q; want 1, the URL and no run", qcode, qerr)
			}
			if _, err := os.Stat(killed); !os.IsNotExist(err) {
				t.Errorf("a run file was left after the engine died: %v", err)
			}
			t.Logf("engine stopped mid-run; after %.1f s the user sees: %s", time.Since(t0).Seconds(), strings.TrimSpace(qerr))
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
