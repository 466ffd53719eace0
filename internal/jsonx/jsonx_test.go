package jsonx

import (
	"encoding/json"
	"strings"
	"testing"
	"unicode/utf8"
)

type row struct {
	Query  string             `json:"query"`
	Values map[string]float64 `json:"values,omitempty"`
	IDs    []string           `json:"ids"`
	hidden string
}

// TestInvalidUTF8 is defect 13 of issue 23: "q\xff" and "q\xfe" stay distinct in JSON, as
// "q\udcff" and "q\udcfe"; valid strings are encoded as encoding/json encodes them.
func TestInvalidUTF8(t *testing.T) {
	v := []row{{Query: "q\xff", Values: map[string]float64{"d\xfe": 1}, IDs: []string{"q\xfe", "a<b", "\U0010FFFE", "ok"}, hidden: "\xff"}}
	got, err := Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	want := `[{"query":"q\udcff","values":{"d\udcfe":1},"ids":["q\udcfe","a\u003cb","` + "\U0010FFFE" + `","ok"]}]`
	if string(got) != want {
		t.Errorf("got  %s\nwant %s", got, want)
	}
	valid := []row{{Query: "día", IDs: []string{"<&>", "\U0010FFFE"}}}
	std, _ := json.MarshalIndent(valid, "", "  ")
	if got, _ := MarshalIndent(valid, "", "  "); string(got) != string(std) {
		t.Errorf("valid UTF-8: got %s, want encoding/json's %s", got, std)
	}
}

func FuzzMarshal(f *testing.F) {
	f.Add("q\xff", "q\xfe")
	f.Add("\U0010FFFE\xff", "\xed\xa0\x80")
	f.Add("\U0010FF7F\xfe", "\U0010FF7F\U0010FFFE")
	f.Fuzz(func(t *testing.T, a, b string) {
		js, err := Marshal([]string{a, b})
		if err != nil {
			t.Fatal(err)
		}
		if !utf8.Valid(js) || !json.Valid(js) {
			t.Fatalf("not valid JSON: %q", js)
		}
		ja, _ := Marshal(a)
		jb, _ := Marshal(b)
		if (a == b) != (string(ja) == string(jb)) {
			t.Errorf("%q and %q encode to %s and %s", a, b, ja, jb)
		}
		if utf8.ValidString(a) {
			std, _ := json.Marshal(a)
			if string(ja) != string(std) {
				t.Errorf("valid %q: %s, want %s", a, ja, std)
			}
		} else if strings.Contains(string(ja), `\ufffd`) {
			t.Errorf("%q encodes to %s: a byte lost", a, ja)
		}
	})
}
