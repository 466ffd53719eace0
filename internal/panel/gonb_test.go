package panel

import (
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// TestGoNBIsConnected guards the one private part of GoNB that connectComm (comm.js) reads:
// gonb_comm._is_connected, the promise of the page's comm connection. connectComm sends nothing
// through a gonb_comm before it resolves (GoNB would drop it) and follows the next gonb_comm when
// it rejects. GoNB documents no public signal for either (gonb_comm.send waits on the same promise
// and drops the message on failure, silently). This reads the page script of the GoNB that go.mod
// requires, from the module cache, and fails when any part of that contract changes: then
// comm.js (and scripts/panel-handshake-test.mjs, which fakes it) must follow the new script.
func TestGoNBIsConnected(t *testing.T) {
	goBin, err := exec.LookPath("go")
	if err != nil {
		t.Skip("no go command on PATH")
	}
	cmd := exec.Command(goBin, "list", "-m", "-f", "{{.Dir}} {{.Version}}", "github.com/janpfeifer/gonb")
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("go list -m github.com/janpfeifer/gonb: %v", err)
	}
	dir, version, _ := strings.Cut(strings.TrimSpace(string(out)), " ")
	script := filepath.Join(dir, "internal", "websocket", "websocket.js")
	src, err := os.ReadFile(script)
	if err != nil {
		t.Fatalf("GoNB %s's page script: %v", version, err)
	}
	for _, what := range gonbBreaks(src) {
		t.Errorf("GoNB %s (%s): no longer true that %s; internal/panel/comm.js relies on it", version, script, what)
	}
	// The check itself: a script that renamed the promise, or swallowed the failure, is caught.
	for _, edit := range []struct{ old, new string }{
		{"gonb_comm._is_connected = gonb_comm._connect_to_gonb();", "gonb_comm.connected = gonb_comm._connect_to_gonb();"},
		{"return Promise.reject(err)", "return null"},
		{"await this._wait_open_ack();", ""},
	} {
		if !strings.Contains(string(src), edit.old) {
			t.Fatalf("GoNB %s: %q is not in its script", version, edit.old)
		}
		if len(gonbBreaks([]byte(strings.Replace(string(src), edit.old, edit.new, 1)))) == 0 {
			t.Errorf("a script with %q changed to %q passes the check", edit.old, edit.new)
		}
	}
	if !strings.Contains(commJS, "g._is_connected") {
		t.Error("comm.js no longer reads gonb_comm._is_connected: this guard (and its reason) can go")
	}
}

// gonbBreaks returns what GoNB's page script src no longer does of what connectComm relies on.
func gonbBreaks(src []byte) (broken []string) {
	for _, c := range []struct{ what, re string }{
		{"gonb_comm._is_connected is the promise of the connection", `gonb_comm\._is_connected = gonb_comm\._connect_to_gonb\(\);`},
		{"which resolves once GoNB acknowledges comm_open", `(?s)_connect_to_gonb = async function\(\) \{.*?await this\._wait_open_ack\(\);.*?return null;`},
		{"and rejects, closing that gonb_comm, when the connection fails", `(?s)catch \(err\) \{.{0,300}?gonb_comm\.close\([^)]*\);\s*return Promise\.reject\(err\)`},
		{"closing removes it from globalThis (the page then waits for the next one)", `(?s)gonb_comm\.close = function\(code, reason\) \{.{0,300}?delete globalThis\.gonb_comm;`},
		{"the acknowledgement has a deadline", `reject\(Error\("comm_open_ack not received in time"\)\)`},
		{"subscribe and send are gonb_comm's methods", `(?s)gonb_comm\.send = function\(address, value\).*gonb_comm\.subscribe = function\(address, callback\)`},
		{"a new script replaces a gonb_comm still installed", `(?s)if \(globalThis\.gonb_comm\) \{.*?globalThis\.gonb_comm\.close\(`},
	} {
		if !regexp.MustCompile(c.re).Match(src) {
			broken = append(broken, c.what)
		}
	}
	return broken
}
