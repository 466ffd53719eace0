package panel

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

func TestParseMode(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want Mode
		err  bool
	}{
		{"", Auto, false}, {"auto", Auto, false}, {" Static ", Static, false}, {"LIVE", Live, false},
		{"on", Auto, true}, {"1", Auto, true},
	} {
		t.Run(fmt.Sprintf("%q", tc.in), func(t *testing.T) {
			got, err := parseMode(tc.in)
			if (err != nil) != tc.err {
				t.Fatalf("ParseMode(%q) error = %v, want error %v", tc.in, err, tc.err)
			}
			if err == nil && got != tc.want {
				t.Errorf("ParseMode(%q) = %v, want %v", tc.in, got, tc.want)
			}
			if err != nil && !strings.Contains(err.Error(), EnvMode) {
				t.Errorf("error %q does not name %s", err, EnvMode)
			}
		})
	}
}

func TestOptionsFromEnv(t *testing.T) {
	env := func(m map[string]string) func(string) string { return func(k string) string { return m[k] } }
	t.Run("defaults", func(t *testing.T) {
		o, err := OptionsFromEnv(env(nil))
		if err != nil {
			t.Fatal(err)
		}
		if o.Mode != Auto || o.Probe != HeadlessProbe || o.Idle != DefaultIdle || o.Max != DefaultMax {
			t.Errorf("got %+v, want the headless probe outside a server session", o)
		}
	})
	t.Run("server session", func(t *testing.T) {
		// jupyter_server sets JPY_SESSION_NAME for its kernels: a page may come, be patient.
		o, err := OptionsFromEnv(env(map[string]string{envSession: "notebooks/00_lab.ipynb"}))
		if err != nil {
			t.Fatal(err)
		}
		if o.Probe != ServerProbe || ServerProbe <= HeadlessProbe {
			t.Errorf("got probe %s in a server session, want %s (> %s)", o.Probe, ServerProbe, HeadlessProbe)
		}
	})
	t.Run("set", func(t *testing.T) {
		o, err := OptionsFromEnv(env(map[string]string{EnvMode: "static", EnvIdle: "90s", EnvMax: "2m", EnvProbe: "1s"}))
		if err != nil {
			t.Fatal(err)
		}
		if o.Mode != Static || o.Idle != 90*time.Second || o.Max != 2*time.Minute || o.Probe != time.Second {
			t.Errorf("got %+v", o)
		}
	})
	for _, bad := range []map[string]string{{EnvIdle: "ten"}, {EnvMax: "-1s"}, {EnvProbe: "0s"}, {EnvMode: "maybe"}} {
		t.Run(fmt.Sprint(bad), func(t *testing.T) {
			_, err := OptionsFromEnv(env(bad))
			if err == nil {
				t.Fatal("no error")
			}
			for k := range bad {
				if !strings.Contains(err.Error(), k) {
					t.Errorf("error %q does not name %s", err, k)
				}
			}
		})
	}
}

// orphanHelperEnv makes the test binary act as a cell program: it watches its parent (with
// the watcher when the value is "watch", without it when "nowatch") and otherwise sleeps.
const orphanHelperEnv = "RANKLAB_PANEL_ORPHAN_HELPER"

func TestOrphanHelper(t *testing.T) {
	mode := os.Getenv(orphanHelperEnv)
	if mode == "" {
		t.Skip("helper process of TestOrphanedPanelExits")
	}
	marker := os.Getenv(orphanHelperEnv + "_MARKER")
	if mode == "watch" {
		go watchParent(context.Background(), os.Getppid(), 50*time.Millisecond, func() {
			_ = os.WriteFile(marker, []byte("orphaned"), 0o644)
			os.Exit(3)
		})
	}
	_ = os.WriteFile(marker+".ready", nil, 0o644)
	time.Sleep(30 * time.Second)
}

// TestOrphanedPanelExits starts the test binary as a "cell program" under a shell (the kernel),
// waits until it watches, then ends the shell (as a kernel restart does), so the program is
// re-parented. With the watcher it must exit within a few polls; without it, it keeps running
// (so the check can fail).
func TestOrphanedPanelExits(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("no parent re-parenting on Windows")
	}
	if _, err := exec.LookPath("sh"); err != nil {
		t.Skip("no sh")
	}
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	alive := func(pid int) bool {
		b, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
		if err == nil { // Linux: a zombie (state Z) waiting for its new parent to reap it has exited
			f := strings.Fields(string(b))
			return len(f) > 2 && f[2] != "Z"
		}
		return syscall.Kill(pid, 0) == nil
	}
	start := func(mode string) (pid int, marker string) {
		marker = filepath.Join(t.TempDir(), "marker")
		// The shell starts the helper, prints its pid and waits for a line on its stdin.
		cmd := exec.Command("sh", "-c", `"$0" -test.run='^TestOrphanHelper$' >/dev/null 2>&1 </dev/null & echo $!; read x || true`, exe)
		cmd.Env = append(os.Environ(), orphanHelperEnv+"="+mode, orphanHelperEnv+"_MARKER="+marker)
		stdin, err := cmd.StdinPipe()
		if err != nil {
			t.Fatal(err)
		}
		var out strings.Builder
		cmd.Stdout = &out
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		for end := time.Now().Add(20 * time.Second); ; time.Sleep(10 * time.Millisecond) {
			if _, err := os.Stat(marker + ".ready"); err == nil {
				break
			}
			if time.Now().After(end) {
				t.Fatal("the helper did not start within 20 s")
			}
		}
		stdin.Close() // the shell ends: the helper is orphaned
		if err := cmd.Wait(); err != nil {
			t.Fatal(err)
		}
		if pid, err = strconv.Atoi(strings.TrimSpace(out.String())); err != nil {
			t.Fatalf("sh printed %q: %v", out.String(), err)
		}
		return pid, marker
	}
	waitGone := func(pid int, within time.Duration) bool {
		for end := time.Now().Add(within); time.Now().Before(end); time.Sleep(20 * time.Millisecond) {
			if !alive(pid) {
				return true
			}
		}
		return false
	}

	pid, _ := start("nowatch")
	if waitGone(pid, time.Second) {
		t.Fatalf("control: the helper without a watcher (pid %d) exited by itself", pid)
	}
	_ = syscall.Kill(pid, syscall.SIGKILL)

	pid, marker := start("watch")
	if !waitGone(pid, 5*time.Second) {
		_ = syscall.Kill(pid, syscall.SIGKILL)
		t.Fatalf("the orphaned helper (pid %d) still runs 5 s after its parent exited", pid)
	}
	if b, _ := os.ReadFile(marker); string(b) != "orphaned" {
		t.Errorf("the helper exited, but not through the watcher (marker %q)", b)
	}
}

func TestWatchParentStopsWithContext(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() {
		watchParent(ctx, os.Getppid(), time.Millisecond, func() { t.Error("gone called while the parent lives") })
		close(done)
	}()
	time.Sleep(20 * time.Millisecond)
	cancel()
	select {
	case <-done:
	case <-time.After(2 * time.Second):
		t.Fatal("watchParent did not return after its context ended")
	}
}

// Script defines connectComm before the panel's own script, inside one function of cfg, and
// nothing in it can end the <script> element early.
func TestScript(t *testing.T) {
	got := Script("BODY();", `{"id":"p"}`)
	if !strings.HasPrefix(got, "<script>(function(cfg){") || !strings.HasSuffix(got, "\nBODY();})({\"id\":\"p\"});</script>") {
		t.Errorf("Script = %.80q…%q", got, got[max(0, len(got)-60):])
	}
	if i, j := strings.Index(got, "function connectComm("), strings.Index(got, "BODY();"); i < 0 || i > j {
		t.Errorf("connectComm at %d, the body at %d: want it defined first", i, j)
	}
	if strings.Contains(strings.ToLower(commJS), "</script") || strings.Contains(commJS, "<!--") {
		t.Error("comm.js holds text that would end or comment out its <script> element")
	}
}

// The pokes wait 2, 4, 8, 8… seconds.
func TestNextPoke(t *testing.T) {
	var got []time.Duration
	for d := PokeFirst; len(got) < 5; d = NextPoke(d) {
		got = append(got, d)
	}
	want := []time.Duration{2 * time.Second, 4 * time.Second, 8 * time.Second, 8 * time.Second, 8 * time.Second}
	if !slices.Equal(got, want) {
		t.Errorf("poke waits %v, want %v", got, want)
	}
}
