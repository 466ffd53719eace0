package provenance

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ranklab/ranklab/internal/sharedtest"
)

func TestNewHashes(t *testing.T) {
	data := []byte("q1 Q0 d1 1 1 t\n")
	p := sharedtest.WriteFile(t, "", "run", data)
	sum := sha256.Sum256(data)
	st, err := New("ranklab eval", []string{"-c", "a b"}, []string{"x"}, File{"run", p}, File{"qrels", "-"})
	if err != nil {
		t.Fatal(err)
	}
	if st.Inputs[0].SHA256 != hex.EncodeToString(sum[:]) || st.Inputs[0].Bytes != int64(len(data)) || st.Inputs[1] != (input{Role: "qrels", Path: "stdin", Bytes: -1}) {
		t.Errorf("inputs %+v", st.Inputs)
	}
	if !strings.Contains(st.Text(), "# command: ranklab eval -c 'a b'\n") {
		t.Errorf("text %q", st.Text())
	}
	if _, err := New("x", nil, nil, File{"run", filepath.Join(t.TempDir(), "absent")}); err == nil {
		t.Error("a missing file gives no error")
	}
}

// TestCommentsCannotBreakOut: a value holding a newline stays inside its comment line.
func TestCommentsCannotBreakOut(t *testing.T) {
	st := Stamp{Tool: "ranklab", Version: "v", Command: "c", Args: []string{"x\ny", "<b>"}, Conventions: []string{"a\r\nb"}}
	for name, out := range map[string]string{"latex": st.commentLines("% "), "text": st.Text()} {
		prefix := map[string]string{"latex": "% ", "text": "# "}[name]
		for _, l := range strings.Split(strings.TrimSuffix(out, "\n"), "\n") {
			if !strings.HasPrefix(l, prefix) {
				t.Errorf("%s: line %q is not a comment", name, l)
			}
		}
	}
	if h := st.HTML(); strings.Contains(h, "<b>") {
		t.Errorf("HTML not escaped: %s", h)
	}
	if md := st.markdown(); strings.Contains(md, "<b>") {
		t.Errorf("Markdown not escaped: %s", md)
	}
}

// FuzzAppendJSON: for any JSON object, the result of Append("json") is valid JSON holding every
// member of the object unchanged and the stamp under "provenance".
func FuzzAppendJSON(f *testing.F) {
	for _, s := range []string{`{}`, `{"a":1}`, "{\n  \"a\": [1, 2],\n  \"b\": {\"c\": null}\n}\n", `{"provenance":1}`, `[1]`, `{`, ` {"x":"}"} `} {
		f.Add(s)
	}
	st := Stamp{Tool: "ranklab", Version: "v", Command: "c", Args: []string{}, Conventions: []string{}, Inputs: []input{}}
	f.Fuzz(func(t *testing.T, s string) {
		out, err := st.Append("json", []byte(s))
		var obj map[string]json.RawMessage
		isObject := json.Unmarshal([]byte(s), &obj) == nil && strings.HasPrefix(strings.TrimSpace(s), "{")
		if !isObject {
			if err == nil {
				t.Fatalf("%q is not an object but no error", s)
			}
			return
		}
		if err != nil {
			t.Fatalf("%q: %v", s, err)
		}
		var back map[string]json.RawMessage
		if err := json.Unmarshal(out, &back); err != nil {
			t.Fatalf("output is not JSON: %v\n%s", err, out)
		}
		var got Stamp
		if err := json.Unmarshal(back["provenance"], &got); err != nil || got.Command != "c" {
			t.Fatalf("provenance member %s: %v", back["provenance"], err)
		}
	})
}
