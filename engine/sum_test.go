package engine

import (
	"os/exec"
	"strings"
	"testing"
)

// TestLauncherSumIsShells: the stamp Go computes is the one kernel-setup/engine.sh writes.
func TestLauncherSumIsShells(t *testing.T) {
	for _, kind := range []string{"solr", "opensearch"} {
		out, err := exec.Command("bash", "-c", "cat launcher/src/ranklab/*.java launcher/"+kind+"/pom.xml | sha256sum").Output()
		if err != nil {
			t.Skip(err)
		}
		got, err := launcherSum(kind)
		if err != nil {
			t.Fatal(err)
		}
		if want := strings.Fields(string(out))[0]; got != want {
			t.Errorf("%s: launcherSum %s, the shell's %s", kind, got, want)
		}
	}
}
