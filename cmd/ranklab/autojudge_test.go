package main

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/ranklab/ranklab/internal/sharedtest"
)

const autojudgeCorpus = `{"_id": "d1", "title": "Boundary layers", "text": "The boundary layer on a heated plate."}
{"_id": "d2", "title": "Wings", "text": "Flutter of a swept wing."}
`

const autojudgeQueries = `{"_id": "1", "text": "heated boundary layer"}
`

// TestAutojudgeCommandSignals: SIGINT, SIGTERM or SIGHUP (a closed terminal: the judge, in a
// process group of its own, does not get the terminal's) to ranklab autojudge stops it, the judge
// and the judge's children within 2 s, even when the judge ignores SIGTERM.
func TestAutojudgeCommandSignals(t *testing.T) {
	for _, sig := range []syscall.Signal{syscall.SIGINT, syscall.SIGTERM, syscall.SIGHUP} {
		t.Run(sig.String(), func(t *testing.T) {
			dir := sharedtest.WriteTree(t, map[string]string{"corpus.jsonl": autojudgeCorpus, "queries.jsonl": autojudgeQueries,
				"pool.txt": "1 0 d1 -1\n1 0 d2 -1\n"})
			pids := filepath.Join(dir, "pids")
			judgeCmd := fmt.Sprintf(`trap "" TERM INT; sleep 300 & echo $$ $! > %s; while :; do sleep 0.1; done`, pids)
			cmd := exec.Command(os.Args[0], "autojudge", "--pool", filepath.Join(dir, "pool.txt"), "--data", dir,
				"--judge", judgeCmd, "--out", filepath.Join(dir, "auto.qrels"))
			cmd.Env = append(os.Environ(), childEnv+"=1")
			var errOut bytes.Buffer
			cmd.Stderr = &errOut
			if err := cmd.Start(); err != nil {
				t.Fatal(err)
			}
			var procs []int
			for range 500 {
				if b, err := os.ReadFile(pids); err == nil && len(bytes.Fields(b)) == 2 {
					for _, f := range bytes.Fields(b) {
						n, _ := strconv.Atoi(string(f))
						procs = append(procs, n)
					}
					break
				}
				time.Sleep(10 * time.Millisecond)
			}
			if len(procs) != 2 {
				cmd.Process.Kill()
				t.Fatalf("the judge never started: %s", errOut.String())
			}
			start := time.Now()
			cmd.Process.Signal(sig)
			done := make(chan error, 1)
			go func() { done <- cmd.Wait() }()
			select {
			case <-done:
			case <-time.After(5 * time.Second):
				cmd.Process.Kill()
				t.Fatalf("ranklab autojudge still runs 5 s after %v", sig)
			}
			took := time.Since(start)
			// The judge's processes: gone (or zombies awaiting init) by the time ranklab exits.
			var alive []int
			for _, pid := range procs {
				if b, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid)); err == nil && !strings.Contains(string(b), ") Z ") {
					alive = append(alive, pid)
					syscall.Kill(pid, syscall.SIGKILL)
				}
			}
			if took > 2*time.Second || len(alive) > 0 {
				t.Errorf("%v: exited after %v, judge processes still running: %v", sig, took, alive)
			}
			if code := cmd.ProcessState.ExitCode(); code != 130 || !strings.Contains(errOut.String(), "stopped") {
				t.Errorf("exit %d, stderr %s", code, errOut.String())
			}
			t.Logf("%v: stopped in %v", sig, took)
		})
	}
}

func TestAutojudgeCommandErrors(t *testing.T) {
	dir := sharedtest.WriteTree(t, map[string]string{"corpus.jsonl": autojudgeCorpus, "queries.jsonl": autojudgeQueries,
		"pool.txt": "1 0 d1 -1\n1 0 d9 -1\n"})
	p, out := filepath.Join(dir, "pool.txt"), filepath.Join(dir, "a.qrels")
	for _, c := range []struct {
		name string
		args []string
		rc   int
		want string
	}{
		{"missing flags", []string{"--pool", p}, 2, "--pool, --data, --judge and --out are required"},
		{"in flight", []string{"--pool", p, "--data", dir, "--judge", "cat", "--out", out, "--in-flight", "0"}, 2, "--in-flight 0"},
		{"doc not in corpus", []string{"--pool", p, "--data", dir, "--judge", "cat", "--out", out}, 1, `document "d9" (query "1") is not in`},
	} {
		t.Run(c.name, func(t *testing.T) {
			_, errOut, rc := runCmd(append([]string{"autojudge"}, c.args...)...)
			if rc != c.rc || !strings.Contains(errOut, c.want) {
				t.Errorf("rc %d, stderr %q; want %d and %q", rc, errOut, c.rc, c.want)
			}
		})
	}
}
