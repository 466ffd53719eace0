package live

import (
	"fmt"
	"math/rand"
	"regexp"
	"strings"
	"testing"

	"github.com/ranklab/ranklab/chunking"
	"github.com/ranklab/ranklab/internal/labview"
	"github.com/ranklab/ranklab/internal/panel"
	"github.com/ranklab/ranklab/lab"
)

func TestApplyKeepsOverlapBelowChunk(t *testing.T) {
	s := lab.DefaultState() // chunk 512, overlap 128
	for _, tc := range []struct {
		name        string
		values      map[string]int
		chunk, over int
	}{
		{"chunk shrinks below overlap", map[string]int{"chunk": 100}, 100, 99},
		{"overlap equal to chunk", map[string]int{"chunk": 64, "overlap": 64}, 64, 63},
		{"valid pair kept", map[string]int{"chunk": 300, "overlap": 200}, 300, 200},
		{"chunk 0 left to validation", map[string]int{"chunk": 0, "overlap": 5}, 0, 5},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := apply(s, tc.values)
			if got.Chunk != tc.chunk || got.Overlap != tc.over {
				t.Errorf("chunk, overlap = %d, %d; want %d, %d", got.Chunk, got.Overlap, tc.chunk, tc.over)
			}
			if s != lab.DefaultState() {
				t.Error("apply changed its input")
			}
		})
	}
	got := apply(s, map[string]int{"k": 9, "rerank": 3, "rerank_quality": 80, "grade": 2, "total": 12, "corpus": 777, "bogus": 1})
	want := s
	want.K, want.Rerank, want.RerankQuality, want.MinGrade, want.Total, want.Corpus = 9, 3, 80, 2, 12, 777
	if got != want {
		t.Errorf("apply = %+v, want %+v", got, want)
	}
}

// TestInboxNewestWins delivers a burst of messages in a shuffled order, as GoNB's goroutines may
// (package panel's queue hands them over in arrival order): the values taken must be those of the
// highest sequence number, and every button event must come through.
func TestInboxNewestWins(t *testing.T) {
	for trial := 0; trial < 20; trial++ {
		b := newInbox()
		const n = 50
		msgs := make([]inMsg, n)
		for i := range msgs {
			msgs[i] = inMsg{Seq: i + 1, Event: "input", Values: map[string]int{"k": i + 1}}
		}
		msgs[10].Event, msgs[30].Event = "reset", "csv"
		rand.New(rand.NewSource(int64(trial))).Shuffle(n, func(i, j int) { msgs[i], msgs[j] = msgs[j], msgs[i] })
		for _, m := range msgs {
			b.put(m)
		}
		values, seq, actions, _ := b.take()
		if seq != n || values["k"] != n {
			t.Fatalf("trial %d: took seq %d k %d, want %d", trial, seq, values["k"], n)
		}
		if len(actions) != 2 {
			t.Fatalf("trial %d: actions %v, want reset and csv", trial, actions)
		}
		if v, _, a, _ := b.take(); v != nil || a != nil {
			t.Fatalf("second take returned %v %v", v, a)
		}
		b.put(inMsg{Seq: 3, Event: "settle", Values: map[string]int{"k": 3}})
		if v, _, _, _ := b.take(); v != nil {
			t.Fatalf("a stale message was taken: %v", v)
		}
	}
}

func TestParseIn(t *testing.T) {
	for _, tc := range []struct {
		in string
		ok bool
	}{
		{`{"seq":1,"event":"hello","values":{"k":5}}`, true},
		{`{"seq":2,"event":"done","values":{}}`, true},
		{`{"seq":2,"event":"explode"}`, false},
		{`{"seq":"x","event":"input"}`, false},
		{`not json`, false},
	} {
		t.Run(tc.in, func(t *testing.T) {
			_, err := parseIn(tc.in)
			if (err == nil) != tc.ok {
				t.Errorf("parseIn(%q) error = %v", tc.in, err)
			}
		})
	}
}

func FuzzParseIn(f *testing.F) {
	f.Add(`{"seq":1,"event":"input","values":{"k":5,"overlap":3}}`)
	f.Add(`{"seq":-4,"event":"done"}`)
	f.Add(`{}`)
	f.Fuzz(func(t *testing.T, s string) {
		m, err := parseIn(s)
		if err != nil {
			if !strings.Contains(err.Error(), "live: bad message") {
				t.Fatalf("error without context: %v", err)
			}
			return
		}
		if !(m.Event == "hello" || m.Event == "input" || m.Event == "change" || m.Event == "settle" || buttons[m.Event]) {
			t.Fatalf("accepted event %q", m.Event)
		}
		_ = apply(lab.DefaultState(), m.Values) // never panics
	})
}

func TestViewsValid(t *testing.T) {
	for _, k := range []int{1, 5, 12} {
		s := lab.DefaultState()
		s.K = k
		v := views(s)
		if len(v) != len(liveViews) {
			t.Fatalf("%d regions, want %d", len(v), len(liveViews))
		}
		list := viewOf(t, v, "table")
		if got := strings.Count(list, `data-inside-k="1"`); got != k {
			t.Errorf("k=%d: %d highlighted rows, want k", k, got)
		}
		if got := strings.Count(list, `<tr data-rank=`); got != s.Size {
			t.Errorf("k=%d: %d rows, want the %d candidates", k, got, s.Size)
		}
		if strings.Contains(strings.Join(v, ""), "data-live-error") {
			t.Errorf("k=%d: a valid state shows an error", k)
		}
		// default chunking: 10000 tokens, chunks of 512 every 512-128 = 384 tokens: the first
		// chunk, then one per started stride of the remaining 10000-512 tokens
		if chunks := 1 + (10000-512+383)/384; !strings.Contains(viewOf(t, v, "chunking"), fmt.Sprintf(`data-chunks="%d"`, chunks)) {
			t.Errorf("default chunking: chunk hook missing in %.200s", viewOf(t, v, "chunking"))
		}
	}
}

func TestViewsInvalidShowOnlyTheMessage(t *testing.T) {
	s := lab.DefaultState()
	s.Total = 1 // below the relevant items found in the ranking
	v := views(s)
	if len(v) != len(liveViews) {
		t.Fatalf("%d regions, want %d", len(v), len(liveViews))
	}
	if !strings.Contains(v[0], "data-live-error") || !strings.Contains(v[0], `data-field="total"`) {
		t.Errorf("first region is not the validation message: %s", v[0])
	}
	all := strings.Join(v, "")
	for _, stale := range []string{"data-metric", "data-chunks", "Precision@", "data-inside-k"} {
		if strings.Contains(all, stale) {
			t.Errorf("invalid state still shows %s", stale)
		}
	}
}

func TestHTMLEscapes(t *testing.T) {
	err := &chunking.FieldError{Field: `k"><script>`, Msg: `<img src=x onerror=alert(1)>`}
	h := errorHTML(err)
	if strings.Contains(h, "<script>") || strings.Contains(h, "<img") {
		t.Errorf("unescaped error: %s", h)
	}
	p := panelHTML(`id"><b>`, lab.DefaultState(), `/in</script>`, "/out")
	if strings.Contains(p, `id"><b>`) || strings.Contains(p, `/in</script>`) {
		t.Errorf("unescaped panel: %.300s", p)
	}
	if got := strings.Count(p, "data-field="); got != len(fields) {
		t.Errorf("%d controls, want %d", got, len(fields))
	}
	for _, a := range []string{"reset", "copy", "csv", "done"} {
		if !strings.Contains(p, `data-action="`+a+`"`) {
			t.Errorf("no %s button", a)
		}
	}
}

func TestPanelOverlapMaxFollowsChunk(t *testing.T) {
	s := lab.DefaultState()
	s.Chunk, s.Overlap = 300, 10
	if _, hi, _ := controlSpans(s); hi["overlap"] != 299 {
		t.Errorf("overlap max = %d, want chunk-1 = 299", hi["overlap"])
	}
	if !strings.Contains(panelHTML("p", s, "/in", "/out"), `data-field="overlap" min="0" max="299"`) {
		t.Error("panel's overlap slider does not stop below the chunk size")
	}
}

func TestViewCache(t *testing.T) {
	if len(liveViews) == 0 {
		t.Fatal("no live views: charts.LabViews has none with a live fragment")
	}
	var c viewCache
	s := lab.DefaultState()
	a := viewsWith(s, &c)
	s.Overlap = 100 // chunking only: ranking views reused, chunking views rebuilt
	b := viewsWith(s, &c)
	s.K = 7 // ranking only
	d := viewsWith(s, &c)
	for i, v := range liveViews {
		ranking := v.Uses&labview.Ranking != 0
		chunking := v.Uses&labview.Chunking != 0
		if (a[i] == b[i]) == chunking {
			t.Errorf("%s: rebuilt %v for an overlap change, want %v", v.Key, a[i] != b[i], chunking)
		}
		if (b[i] == d[i]) == ranking {
			t.Errorf("%s: rebuilt %v for a k change, want %v", v.Key, b[i] != d[i], ranking)
		}
	}
	for _, key := range []string{"ranking", "rerank", "chunks"} {
		if !strings.Contains(viewOf(t, a, key), `class="ranklab-chart"`) {
			t.Errorf("view %s holds no chart", key)
		}
	}
}

// viewOf returns the region of the view with the given key.
func viewOf(t *testing.T, regions []string, key string) string {
	t.Helper()
	for i, v := range liveViews {
		if v.Key == key {
			return regions[i]
		}
	}
	t.Fatalf("no live view %q", key)
	return ""
}

// The total slider offers exactly the valid values: its left end stands for 0 (the qrels'
// count), then the relevant items found and up; a lower grade that finds more relevant items
// raises a non-zero total to that count, so no move makes the state invalid.
func TestTotalControlOffersValidValues(t *testing.T) {
	s := lab.DefaultState() // 5 candidates with grade >= 1, 1 with grade >= 2 (lab's State doc)
	lo, hi, zero := controlSpans(s)
	if lo["total"] != 4 || zero["total"] != 4 || hi["total"] != 40 {
		t.Errorf("total slider %d..%d, zero at %d; want 4..40 with 4 standing for 0", lo["total"], hi["total"], zero["total"])
	}
	if _, ok := zero["k"]; ok {
		t.Error("k has a zero position")
	}
	p := panelHTML("p", s, "/in", "/out")
	if !strings.Contains(p, `data-field="total" min="4" max="40" step="1" value="4" data-zero-at="4"`) {
		t.Errorf("total slider: %s", p[strings.Index(p, `data-field="total"`)-10:][:120])
	}
	s.Total = 7
	if p := panelHTML("p", s, "/in", "/out"); !strings.Contains(p, `data-field="total" min="4" max="40" step="1" value="7" data-zero-at="4"`) {
		t.Error("total 7 is not at position 7")
	}

	// grade 2 finds 1 relevant item: total 3 is valid; back to grade 1 (5 found) raises it to 5.
	g2 := apply(lab.DefaultState(), map[string]int{"grade": 2, "total": 3})
	if g2.Total != 3 || g2.Validate() != nil {
		t.Fatalf("grade 2, total 3: %+v, %v", g2, g2.Validate())
	}
	lo2, _, zero2 := controlSpans(g2)
	if lo2["total"] != 0 || zero2["total"] != 0 {
		t.Errorf("grade 2: total slider from %d, zero at %d; want 0 (then 1 found)", lo2["total"], zero2["total"])
	}
	g1 := apply(g2, map[string]int{"grade": 1})
	if g1.Total != 5 || g1.Validate() != nil {
		t.Errorf("grade back to 1: total %d (%v), want raised to the 5 found", g1.Total, g1.Validate())
	}
	if z := apply(g2, map[string]int{"grade": 1, "total": 0}); z.Total != 0 {
		t.Errorf("total 0 changed to %d", z.Total)
	}
}

// k's slider reaches beyond the list, where the reading explains the empty positions.
func TestKControlBeyondTheList(t *testing.T) {
	s := lab.DefaultState()
	_, hi, _ := controlSpans(s)
	if hi["k"] <= s.Size {
		t.Fatalf("k slider ends at %d, within the %d candidates", hi["k"], s.Size)
	}
	s.K = hi["k"]
	v := views(s)
	if !strings.Contains(viewOf(t, v, "ranking"), "is beyond the 20 candidates") {
		t.Errorf("k = %d: the cards lack the beyond-the-list reading", s.K)
	}
}

// The reranker quality is a live control, and the views follow it.
func TestRerankQualityControl(t *testing.T) {
	s := lab.DefaultState()
	if !strings.Contains(panelHTML("p", s, "/in", "/out"), `data-field="rerank_quality" min="0" max="100" step="1" value="50"`) {
		t.Error("no reranker quality slider 0..100 at 50")
	}
	noise := apply(s, map[string]int{"rerank_quality": 0})
	if a, b := views(s), views(noise); viewOf(t, a, "table") == viewOf(t, b, "table") || !strings.Contains(viewOf(t, b, "table"), "reranker quality 0%") {
		t.Error("the ranking list does not follow the reranker quality")
	}
}

// The total control says what its 0 means, with the count for the current grade: the qrels hold
// 8 items with grade >= 1 (5 in the ranking + d21, d22, d23 missed) and 3 with grade >= 2 (d03 in
// the ranking + d21, d22), lab's State doc.
func TestTotalZeroNote(t *testing.T) {
	s := lab.DefaultState()
	if p := panelHTML("p", s, "/in", "/out"); !strings.Contains(p, `<small data-zero-note="total" style="display:block;font-size:11px;opacity:.85">0 = the qrels&#39; count (8)</small>`) {
		t.Errorf("no zero note with the count 8 in the total control's label")
	}
	s.MinGrade = 2
	if n := controlNotes(s); len(n) != 1 || n["total"] != "0 = the qrels' count (3)" {
		t.Errorf("grade 2: notes %v, want total's count 3", n)
	}
}

// The tab strip has one button per tabbed view, the first selected, and its style hides every
// other tabbed view of the same panel (and only of that panel).
func TestTabs(t *testing.T) {
	h := tabsHTML("u1")
	var keys []string
	for _, v := range liveViews {
		if v.Tab != "" {
			keys = append(keys, v.Key)
			if !strings.Contains(h, `data-tab="`+v.Key+`"`) {
				t.Errorf("no tab for %s", v.Key)
			}
		}
	}
	if len(keys) < 2 || strings.Count(h, `role="tab"`) != len(keys) || strings.Count(h, `aria-selected="true"`) != 1 {
		t.Fatalf("%d tabs for %d tabbed views", strings.Count(h, `role="tab"`), len(keys))
	}
	want := `[data-live-of="u1"][data-live-tab]:not([data-live-tab="` + keys[0] + `"]){display:none}`
	if !strings.Contains(h, want) {
		t.Errorf("style does not show the first tab only: %.300s", h)
	}
	if got := tabbed("u1", firstTab(), "<p>x</p>"); got != `<div data-live-of="u1" data-live-tab="`+keys[0]+`"><p>x</p></div>` {
		t.Errorf("tabbed view: %s", got)
	}
	if got := tabbed("u1", 0, "<p>x</p>"); liveViews[0].Tab == "" && got != "<p>x</p>" {
		t.Errorf("a view above the tabs was wrapped: %s", got)
	}
}

// Keys pressed on the controls stop at the panel (JupyterLab's shortcuts would cancel arrows and
// Page Up/Down); the browser test presses them in JupyterLab.
func TestPanelKeepsKeys(t *testing.T) {
	if !strings.Contains(panelJS, `root.addEventListener("keydown"`) || !strings.Contains(panelJS, "e.stopPropagation()") {
		t.Error("the panel does not stop keydown events on its controls")
	}
	// Notebook 7 handles keydown on the document in the capture phase: only window comes first.
	if !regexp.MustCompile(`window\.addEventListener\("keydown", \(e\) => \{[^}]*\.ranklab-live input[^}]*stopPropagation\(\); \}\s*\}, true\)`).MatchString(panelJS) {
		t.Error("no capture-phase keydown listener on window for the panel's controls")
	}
}

// A panel that falls back to its snapshot says how long it waited and how to retry.
func TestFallbackSaysHowToRetry(t *testing.T) {
	h := headerHTML(lab.DefaultState(), "static", "no-frontend", panel.Options{Probe: panel.ServerProbe})
	for _, want := range []string{`data-live-reason="no-frontend"`, "within 1m0s", "re-run this cell", "%env RANKLAB_LIVE live", "%env RANKLAB_LIVE_PROBE 2m"} {
		if !strings.Contains(h, want) {
			t.Errorf("fallback header lacks %q: %s", want, h)
		}
	}
}
