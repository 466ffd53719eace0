package sharedtest

import (
	"bytes"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
)

// PeersPython returns the Python of the peers' virtual environment (scripts/peers.sh, which pins
// pytrec_eval, ir_measures, ranx, BEIR's and LlamaIndex's metrics): $RANKLAB_PEERS_PYTHON, else
// the python of $RANKLAB_PEERS_VENV (default ~/.cache/ranklab/peers-venv) when its pins stamp is
// there. Without one the test skips, saying that what (the test's comparison) needs the peers;
// with RANKLAB_PEERS=1 (as scripts/test-all.sh sets it in CI) it fails instead. Under -short the
// test always skips: scripts/test-all.sh runs the tests with -race -short first, where the peers'
// Python and -race only cost time, then every test without -race.
func PeersPython(t testing.TB, what string) string {
	t.Helper()
	if testing.Short() {
		t.Skipf("-short: %s runs in the full pass (go test without -short)", what)
	}
	py := os.Getenv("RANKLAB_PEERS_PYTHON")
	if py == "" {
		venv := os.Getenv("RANKLAB_PEERS_VENV")
		if venv == "" {
			home, _ := os.UserHomeDir()
			venv = filepath.Join(home, ".cache", "ranklab", "peers-venv")
		}
		if _, err := os.Stat(filepath.Join(venv, ".ranklab-pins")); err == nil {
			py = filepath.Join(venv, "bin", "python")
		}
	}
	if py == "" {
		if os.Getenv("RANKLAB_PEERS") == "1" {
			t.Fatal("RANKLAB_PEERS=1 but no peers environment: run py=$(bash scripts/peers.sh | tail -1) and set RANKLAB_PEERS_PYTHON=$py")
		}
		t.Skipf("%s skipped: no peers environment (scripts/peers.sh); CI runs it with RANKLAB_PEERS=1 RANKLAB_PEERS_PYTHON=$(bash scripts/peers.sh | tail -1)", what)
	}
	return py
}

// RunPython writes in as JSON to a temporary file, runs py script FILE and decodes what the
// script prints on standard output, as JSON, into out. It fails the test when the script fails
// (showing its standard error) or prints something else than JSON.
func RunPython(t testing.TB, py, script string, in, out any) {
	t.Helper()
	data, err := json.Marshal(in)
	if err != nil {
		t.Fatal(err)
	}
	file := filepath.Join(t.TempDir(), "in.json")
	if err := os.WriteFile(file, data, 0o644); err != nil {
		t.Fatal(err)
	}
	var stdout, stderr bytes.Buffer
	cmd := exec.Command(py, script, file)
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		t.Fatalf("%s %s: %v\n%s", py, script, err, stderr.String())
	}
	if err := json.Unmarshal(stdout.Bytes(), out); err != nil {
		t.Fatalf("%s output: %v\n%.2000s", script, err, stdout.String())
	}
}
