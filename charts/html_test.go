package charts

import (
	"encoding/json"
	"regexp"
	"strings"
	"testing"
)

// scriptArgs returns the arguments of the chart script's call (id, url, wait, height, option) decoded
// from the fragment, failing the test when the fragment does not have the expected shape.
func scriptArgs(t *testing.T, frag string) (id, url string, wait int, option map[string]any) {
	t.Helper()
	start := strings.LastIndex(frag, "})(")
	end := strings.LastIndex(frag, ");</script>")
	if start < 0 || end < start {
		t.Fatalf("fragment has no chart script call:\n%s", frag)
	}
	var args []json.RawMessage
	if err := json.Unmarshal([]byte("["+frag[start+3:end]+"]"), &args); err != nil {
		t.Fatalf("script arguments are not JSON: %v\n%s", err, frag[start+3:end])
	}
	if len(args) != 5 {
		t.Fatalf("script has %d arguments, want 5", len(args))
	}
	var height int
	for i, dst := range []any{&id, &url, &wait, &height, &option} {
		if err := json.Unmarshal(args[i], dst); err != nil {
			t.Fatalf("argument %d: %v", i, err)
		}
	}
	return id, url, wait, option
}

var divID = regexp.MustCompile(`<div id="([^"]+)" class="ranklab-chart"`)

func TestHTMLEscapesHostileStrings(t *testing.T) {
	hostile := []string{
		`</script><script>alert(1)</script>`,
		`"'&`,
		`<!--`,
		"line\u2028sep",
		`<img src=x onerror=alert(1)>`,
	}
	for _, h := range hostile {
		t.Run(h, func(t *testing.T) {
			option := map[string]any{
				"title":  map[string]any{"text": "run " + h},
				"xAxis":  map[string]any{"type": "category", "data": []string{h, "d2"}},
				"yAxis":  map[string]any{"type": "value"},
				"series": []any{map[string]any{"type": "bar", "name": h, "data": []float64{1, 2}}},
			}
			frag := optionHTML(option, 200)
			if n := strings.Count(frag, "</script"); n != 1 {
				t.Errorf("fragment has %d '</script' sequences, want only its own closing tag", n)
			}
			if n := strings.Count(frag, "<script"); n != 1 {
				t.Errorf("fragment has %d '<script' sequences, want 1", n)
			}
			script := frag[strings.Index(frag, "<script>")+len("<script>"):]
			for _, raw := range []string{"<img", "<!--", "\u2028"} {
				if strings.Contains(h, raw) && strings.Contains(script, raw) {
					t.Errorf("script contains raw %q", raw)
				}
			}
			if strings.Contains(h, "<img") && strings.Contains(frag, "<img") {
				t.Error("fragment contains a raw <img")
			}
			_, _, _, got := scriptArgs(t, frag)
			x := got["xAxis"].(map[string]any)["data"].([]any)
			if x[0] != h {
				t.Errorf("x label decodes to %q, want %q", x[0], h)
			}
			if s := got["series"].([]any)[0].(map[string]any)["name"]; s != h {
				t.Errorf("series name decodes to %q, want %q", s, h)
			}
			m := regexp.MustCompile(`aria-label="([^"]*)"`).FindStringSubmatch(frag)
			if m == nil {
				t.Fatal("no aria-label")
			}
			for _, c := range []string{"<", ">", "'", "\""} {
				if strings.Contains(m[1], c) {
					t.Errorf("aria-label %q contains raw %q", m[1], c)
				}
			}
		})
	}
}

func TestHTMLTitleEscapedInLabel(t *testing.T) {
	frag := optionHTML(map[string]any{"title": []any{map[string]any{"text": ""}, map[string]any{"text": `a<b>"c"&'d'`}}}, 0)
	want := `aria-label="a&lt;b&gt;&#34;c&#34;&amp;&#39;d&#39;"`
	if !strings.Contains(frag, want) {
		t.Errorf("fragment lacks %s:\n%s", want, frag)
	}
	if !strings.Contains(frag, `data-height="360"`) || !strings.Contains(frag, ",360,{") {
		t.Errorf("height 0 should give the default %d px", defaultHeight)
	}
}

func TestHTMLUniqueIDs(t *testing.T) {
	seen := map[string]bool{}
	for i := 0; i < 200; i++ {
		frag := optionHTML(map[string]any{"series": []any{}}, 100)
		m := divID.FindStringSubmatch(frag)
		if m == nil {
			t.Fatalf("no container div in %s", frag)
		}
		id, _, _, _ := scriptArgs(t, frag)
		if id != m[1] {
			t.Fatalf("script draws into %q but the container is %q", id, m[1])
		}
		if seen[id] {
			t.Fatalf("id %q repeated after %d fragments", id, i)
		}
		seen[id] = true
	}
}

func TestHTMLMode(t *testing.T) {
	defer offline.Store(offline.Load())
	for _, tc := range []struct {
		name     string
		offline  bool
		wantWait int
	}{{"offline waits for the embedded copy", true, 3000}, {"online loads at once", false, 0}} {
		t.Run(tc.name, func(t *testing.T) {
			offline.Store(tc.offline)
			frag := optionHTML(map[string]any{}, 100)
			_, url, wait, _ := scriptArgs(t, frag)
			if wait != tc.wantWait || url != onlineURL {
				t.Errorf("wait=%d url=%q, want %d %q", wait, url, tc.wantWait, onlineURL)
			}
			if strings.Contains(frag, "src=") && strings.Contains(frag, "<script src") {
				t.Error("fragment has a <script src>")
			}
		})
	}
}

func TestOfflineFromEnv(t *testing.T) {
	for v, want := range map[string]bool{"": true, "offline": true, "online": false, " Online ": false, "x": true} {
		if got := offlineFromEnv(v); got != want {
			t.Errorf("RANKLAB_ECHARTS=%q: offline=%v, want %v", v, got, want)
		}
	}
}

func TestHTMLUnencodableOptionPanics(t *testing.T) {
	defer func() {
		if r := recover(); r == nil || !strings.Contains(r.(string), "charts:") {
			t.Errorf("recover() = %v, want a charts: panic", r)
		}
	}()
	optionHTML(map[string]any{"f": func() {}}, 100)
}
