package main

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ranklab/ranklab/internal/sharedtest"
)

const (
	fuseRunA = "q1 Q0 a 1 3 A\nq1 Q0 b 2 2 A\nq1 Q0 c 3 1 A\n"
	fuseRunB = "q1 Q0 b 1 10 B\nq1 Q0 d 2 5 B\n"
)

func TestFuseCommand(t *testing.T) {
	dir := sharedtest.WriteTree(t, map[string]string{"a.run": fuseRunA, "b.run": fuseRunB})
	a, b := filepath.Join(dir, "a.run"), filepath.Join(dir, "b.run")
	tests := []struct {
		name string
		args []string
		want string
	}{
		// b: 1/62 + 1/61, a: 1/61, d: 1/62, c: 1/63, each printed in the shortest form that reads back.
		{"rrf default", []string{a, b}, "q1 Q0 b 1 0.03252247488101534 fused\nq1 Q0 a 2 0.01639344262295082 fused\nq1 Q0 d 3 0.016129032258064516 fused\nq1 Q0 c 4 0.015873015873015872 fused\n"},
		{"flags after runs", []string{a, b, "--k", "1", "--top", "2", "--tag", "x"}, "q1 Q0 b 1 0.8333333333333333 x\nq1 Q0 a 2 0.5 x\n"},
		// combsum defaults to min-max: a 1, b 0.5 + 1, c 0, d 0 (ties by docno descending).
		{"combsum", []string{"--method", "combsum", a, b}, "q1 Q0 b 1 1.5 fused\nq1 Q0 a 2 1 fused\nq1 Q0 d 3 0 fused\nq1 Q0 c 4 0 fused\n"},
		{"combmnz weights", []string{"--method", "combmnz", "--weights", "2,1", a, b}, "q1 Q0 b 1 4 fused\nq1 Q0 a 2 2 fused\nq1 Q0 d 3 0 fused\nq1 Q0 c 4 0 fused\n"},
		{"combsum none", []string{"--method", "combsum", "--norm", "none", a, b}, "q1 Q0 b 1 12 fused\nq1 Q0 d 2 5 fused\nq1 Q0 a 3 3 fused\nq1 Q0 c 4 1 fused\n"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			out, errOut, rc := runCmd(append([]string{"fuse"}, tc.args...)...)
			if rc != 0 || out != tc.want {
				t.Errorf("rc %d, stderr %q\ngot:\n%s\nwant:\n%s", rc, errOut, out, tc.want)
			}
		})
	}
}

// TestFuseCommandStdinGzip: a gzipped run piped to stdin fuses as the same run from a file does.
// The command runs in a child process (this test binary, see TestMain) whose stdin is the pipe.
func TestFuseCommandStdinGzip(t *testing.T) {
	dir := sharedtest.WriteTree(t, map[string]string{"a.run": fuseRunA, "b.run": fuseRunB})
	cmd := exec.Command(os.Args[0], "fuse", filepath.Join(dir, "a.run"), "-")
	cmd.Env = append(os.Environ(), childEnv+"=1")
	cmd.Stdin = bytes.NewReader(sharedtest.Gzip([]byte(fuseRunB)))
	var piped, errOut bytes.Buffer
	cmd.Stdout, cmd.Stderr = &piped, &errOut
	if err := cmd.Run(); err != nil {
		t.Fatalf("child: %v: %s", err, errOut.String())
	}
	fromFile, _, rc := runCmd("fuse", filepath.Join(dir, "a.run"), filepath.Join(dir, "b.run"))
	if rc != 0 || piped.String() != fromFile || fromFile == "" {
		t.Errorf("stdin:\n%s\nfile (rc %d):\n%s", piped.String(), rc, fromFile)
	}
	out := filepath.Join(dir, "fused.run")
	if _, errOut, rc := runCmd("fuse", "--out", out, filepath.Join(dir, "a.run"), filepath.Join(dir, "b.run")); rc != 0 {
		t.Fatal(errOut)
	}
	if b, _ := os.ReadFile(out); string(b) != fromFile {
		t.Errorf("--out wrote %q, want %q", b, fromFile)
	}
}

func TestFuseCommandErrors(t *testing.T) {
	dir := sharedtest.WriteTree(t, map[string]string{"a.run": fuseRunA, "bad.run": "q1 Q0 a 1 3 A\nq1 Q0 b 2 x A\n"})
	a := filepath.Join(dir, "a.run")
	tests := []struct {
		name string
		args []string
		rc   int
		want string
	}{
		{"one run", []string{a}, 2, "need at least 2 runs, got 1"},
		{"bad method", []string{"--method", "borda", a, a}, 2, `fusion method "borda"`},
		{"norm with rrf", []string{"--norm", "zscore", a, a}, 1, "rrf uses ranks only"},
		{"bad weights", []string{"--weights", "1,x", a, a}, 2, `"x" is not a number`},
		{"weight count", []string{"--method", "combsum", "--weights", "1", a, a}, 1, "1 weights for 2 runs"},
		{"zero k", []string{"--k", "0", a, a}, 2, "--k 0: must be positive"},
		{"malformed run", []string{a, filepath.Join(dir, "bad.run")}, 1, "bad.run:2: score is not a finite number"},
		{"missing run", []string{a, filepath.Join(dir, "none.run")}, 1, "none.run"},
		{"stdin twice", []string{"-", "-"}, 2, "given twice"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, errOut, rc := runCmd(append([]string{"fuse"}, tc.args...)...)
			if rc != tc.rc || !strings.Contains(errOut, tc.want) {
				t.Errorf("rc %d, stderr %q; want %d and %q", rc, errOut, tc.rc, tc.want)
			}
		})
	}
}

// childEnv makes the test binary run the command given in its arguments instead of the tests,
// so a test can give the command a real stdin.
const childEnv = "RANKLAB_CMD_CHILD"

func TestMain(m *testing.M) {
	if os.Getenv(childEnv) == "1" {
		os.Exit(dispatch(os.Args[1:], os.Stdout, os.Stderr))
	}
	os.Exit(m.Run())
}
