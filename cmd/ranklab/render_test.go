package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestRenderLab writes the lab page for a state given by a link and a flag, and checks that the
// page carries that state's link, the embedded ECharts and one container per chart.
func TestRenderLab(t *testing.T) {
	out := filepath.Join(t.TempDir(), "lab.html")
	if _, stderr, code := runCmd("render", "lab", "--link", "k=3&overlap=100", "--k", "8", "--out", out); code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	b, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	page := string(b)
	// --k overrides the link's k; the link's overlap stays.
	if want := "k=8&amp;rerank=10&amp;rerank_quality=50&amp;grade=1&amp;total=0&amp;corpus=10000&amp;chunk=512&amp;overlap=100&amp;seed=2278&amp;n=20"; !strings.Contains(page, want) {
		t.Errorf("page lacks the state's link %q", want)
	}
	if !strings.Contains(page, "if(!window.echarts)") {
		t.Error("page does not embed ECharts")
	}
	if n := strings.Count(page, `class="ranklab-chart"`); n < 6 {
		t.Errorf("page has %d chart containers, want at least 6 (ranking, rerank, metrics at k, rerank sweep, chunk windows, footprint)", n)
	}
}

func TestRenderErrors(t *testing.T) {
	dir := t.TempDir()
	anchors := filepath.Join("..", "..", "..", "shared", "anchors", "trec_eval", "02_trec_graded")
	for _, tc := range []struct {
		name string
		args []string
		code int
		msg  string
	}{
		{"no page", []string{"render"}, 2, "usage"},
		{"unknown page", []string{"render", "plot"}, 2, `unknown page "plot"`},
		{"lab without --out", []string{"render", "lab"}, 2, "--out FILE.html is required"},
		{"lab bad link", []string{"render", "lab", "--link", "zz=1", "--out", filepath.Join(dir, "x.html")}, 2, `unknown key "zz"`},
		{"lab bad overlap", []string{"render", "lab", "--overlap", "600", "--out", filepath.Join(dir, "x.html")}, 2, "overlap: 600 must be in 0..511"},
		{"eval one file", []string{"render", "eval", "qrels", "--out", filepath.Join(dir, "x.html")}, 2, "want QRELS RUN"},
		{"eval missing file", []string{"render", "eval", filepath.Join(dir, "none"), filepath.Join(dir, "none2"), "--out", filepath.Join(dir, "x.html")}, 1, "none"},
		{"eval bad measure", []string{"render", "eval", "-m", "foo", filepath.Join(anchors, "qrels"), filepath.Join(anchors, "run"), "--out", filepath.Join(dir, "x.html")}, 2, `unknown measure "foo"`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if tc.name == "eval bad measure" {
				if _, err := os.Stat(anchors); err != nil {
					t.Skip("../shared is absent")
				}
			}
			_, stderr, code := runCmd(tc.args...)
			if code != tc.code || !strings.Contains(stderr, tc.msg) {
				t.Errorf("exit %d, stderr %q; want exit %d and %q", code, stderr, tc.code, tc.msg)
			}
		})
	}
}
