package engine

import (
	"context"
	"io"
	"os"
	"os/exec"
	"path/filepath"
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

// TestLauncherJarsGone: a launcher whose stamp is current but whose class path names a jar that
// is no longer on disk (Maven's cache cleared, or built under another home) is built again, not
// handed to a JVM that cannot find its classes. With no Maven on PATH the rebuild fails, naming
// the jar; with every jar present the class path is returned without Maven.
func TestLauncherJarsGone(t *testing.T) {
	for _, tc := range []struct {
		name    string
		present bool
	}{{"jar gone", false}, {"jar present", true}} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			t.Setenv("RANKLAB_ENGINE_DIR", dir)
			t.Setenv("PATH", t.TempDir()) // no mvn
			sum, err := launcherSum("solr")
			if err != nil {
				t.Fatal(err)
			}
			out := filepath.Join(dir, "solr")
			jar := filepath.Join(dir, "m2", "solr-core-9.10.1.jar")
			must(t, os.MkdirAll(out, 0o755))
			must(t, os.WriteFile(filepath.Join(out, "launcher.sha256"), []byte(sum+"\n"), 0o644))
			must(t, os.WriteFile(filepath.Join(out, "classpath.txt"), []byte(jar+"\n"), 0o644))
			if tc.present {
				must(t, os.MkdirAll(filepath.Dir(jar), 0o755))
				must(t, os.WriteFile(jar, []byte("jar"), 0o644))
			}
			cp, err := ensureLauncher(context.Background(), "solr", io.Discard)
			switch {
			case tc.present && err != nil:
				t.Fatalf("every jar present: %v", err)
			case tc.present && !strings.Contains(cp, jar):
				t.Fatalf("class path %q lacks %s", cp, jar)
			case !tc.present && err == nil:
				t.Fatalf("a jar gone, yet the class path %q was handed out", cp)
			case !tc.present && (!strings.Contains(err.Error(), jar) || !strings.Contains(err.Error(), "Maven")):
				t.Fatalf("the error should name the jar and Maven: %v", err)
			}
		})
	}
}

func must(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}

// TestEngineShJarsGone: kernel-setup/engine.sh --check (the set-up's "already done") fails when a
// launcher's class path names a jar that is gone, as ensureLauncher rebuilds then.
func TestEngineShJarsGone(t *testing.T) {
	dir := t.TempDir()
	jar := filepath.Join(dir, "m2", "x.jar")
	must(t, os.MkdirAll(filepath.Dir(jar), 0o755))
	must(t, os.WriteFile(jar, []byte("jar"), 0o644))
	for _, kind := range []string{"solr", "opensearch"} {
		sum, err := launcherSum(kind)
		if err != nil {
			t.Fatal(err)
		}
		must(t, os.MkdirAll(filepath.Join(dir, kind), 0o755))
		must(t, os.WriteFile(filepath.Join(dir, kind, "launcher.sha256"), []byte(sum+"\n"), 0o644))
		must(t, os.WriteFile(filepath.Join(dir, kind, "classpath.txt"), []byte(jar+"\n"), 0o644))
	}
	check := func() error {
		cmd := exec.Command("bash", "../kernel-setup/engine.sh", "--check")
		cmd.Env = append(os.Environ(), "RANKLAB_ENGINE_DIR="+dir)
		return cmd.Run()
	}
	if err := check(); err != nil {
		t.Skipf("engine.sh --check fails with every jar present (no Java 21 here?): %v", err)
	}
	must(t, os.Remove(jar))
	if check() == nil {
		t.Fatal("engine.sh --check passes with a jar of the class path gone")
	}
}
