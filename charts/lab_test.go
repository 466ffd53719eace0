package charts

import (
	"fmt"
	"html"
	"math"
	"strings"
	"testing"

	"github.com/ranklab/ranklab/lab"
)

const hostileDoc = `</script><script>alert(1)</script>`

// handOutcome is a hand-built ranking of five candidates (first-stage order d1..d5 with a
// hostile doc ID at rank 2) with one missed relevant item, evaluated at k = 2, reranking the
// first 3, grade >= 1.
func handOutcome(t *testing.T, mutate func(*lab.State)) (lab.Outcome, lab.State, lab.Synthetic) {
	t.Helper()
	syn := lab.Synthetic{
		Candidates: []lab.Candidate{
			{Doc: "d1", Label: "first", Grade: 0, FirstScore: 9, RerankScore: 0.1},
			{Doc: hostileDoc, Label: `<img src=x onerror=alert(2)>`, Grade: 3, FirstScore: 8, RerankScore: 0.9},
			{Doc: `"'&`, Label: "amp", Grade: 1, FirstScore: 7, RerankScore: 0.5},
			{Doc: "d4", Label: "four", Grade: 0, FirstScore: 6, RerankScore: 0.8},
			{Doc: "d5", Label: "five", Grade: 2, FirstScore: 5, RerankScore: 0.2},
		},
		Missed: []lab.Candidate{{Doc: "m1", Label: "missed", Grade: 2}},
	}
	s := lab.DefaultState()
	s.K, s.Rerank, s.MinGrade, s.Total, s.Size = 2, 3, 1, 0, 5
	s.Corpus, s.Chunk, s.Overlap = 1000, 300, 100
	if mutate != nil {
		mutate(&s)
	}
	o, err := s.OutcomeFor(syn)
	if err != nil {
		t.Fatal(err)
	}
	return o, s, syn
}

// seriesByName returns the option's series with the given name, in order.
func seriesByName(option map[string]any, name string) []map[string]any {
	var out []map[string]any
	for _, s := range option["series"].([]any) {
		m := s.(map[string]any)
		if m["name"] == name {
			out = append(out, m)
		}
	}
	return out
}

// checkSafeScript fails when the fragment's script could be broken out of or carries raw
// data markup.
func checkSafeScript(t *testing.T, frag string) {
	t.Helper()
	if n := strings.Count(frag, "</script"); n != 1 {
		t.Errorf("fragment has %d '</script' sequences, want 1", n)
	}
	if strings.Contains(frag, "<img") {
		t.Error("fragment contains a raw <img")
	}
}

// safeOption checks the fragment with checkSafeScript and returns its decoded option.
func safeOption(t *testing.T, frag string) map[string]any {
	t.Helper()
	checkSafeScript(t, frag)
	_, _, _, opt := scriptArgs(t, frag)
	return opt
}

func TestRankingOption(t *testing.T) {
	o, s, _ := handOutcome(t, nil)
	frag := Ranking(o)
	opt := safeOption(t, frag)
	cats := opt["xAxis"].([]any)[0].(map[string]any)["data"].([]any)
	if len(cats) != len(o.Items) {
		t.Fatalf("%d categories, want one per candidate (%d)", len(cats), len(o.Items))
	}
	// Reranking the first 3 by reranker score: hostile (0.9), "'& (0.5), d1 (0.1); d4, d5 stay.
	wantDocs := []string{hostileDoc, `"'&`, "d1", "d4", "d5"}
	for i, c := range cats {
		if want := fmt.Sprintf("%d\n%s", i+1, wantDocs[i]); c != want {
			t.Errorf("category %d = %q, want %q", i, c, want)
		}
	}
	// Top k = 2 shaded from the first to the second category.
	g0 := seriesByName(opt, "grade 0")
	if len(g0) != 1 {
		t.Fatalf("want one grade 0 series, got %d", len(g0))
	}
	area := g0[0]["markArea"].(map[string]any)["data"].([]any)[0].([]any)
	if area[0].(map[string]any)["xAxis"] != cats[0] || area[1].(map[string]any)["xAxis"] != cats[s.K-1] {
		t.Errorf("top-k area spans %v..%v, want %q..%q", area[0], area[1], cats[0], cats[s.K-1])
	}
	if name := area[0].(map[string]any)["name"]; name != "top k = 2" {
		t.Errorf("area label %q", name)
	}
	// Reranked prefix ends between rank 3 and rank 4: 2.5 on the hidden value axis (index 1)
	// spanning -0.5..n-0.5, where the bar of category index i is centred at i.
	rp := seriesByName(opt, "reranked prefix")
	if len(rp) != 1 || rp[0]["xAxisIndex"] != 1.0 {
		t.Fatalf("want one rerank boundary series on x axis 1, got %v", rp)
	}
	line := rp[0]["markLine"].(map[string]any)["data"].([]any)[0].(map[string]any)
	if line["xAxis"] != 2.5 {
		t.Errorf("rerank line at %v, want 2.5", line["xAxis"])
	}
	x1 := opt["xAxis"].([]any)[1].(map[string]any)
	if x1["type"] != "value" || x1["min"] != -0.5 || x1["max"] != float64(len(cats))-0.5 || x1["show"] != false {
		t.Errorf("hidden boundary axis %v, want a hidden value axis -0.5..%v", x1, float64(len(cats))-0.5)
	}
	for _, name := range opt["legend"].(map[string]any)["data"].([]any) {
		if name == "reranked prefix" {
			t.Error("the rerank boundary is in the legend")
		}
	}
	// Each grade series holds the first-stage scores of its items and "-" elsewhere.
	wantScore := []float64{8, 7, 9, 6, 5}
	wantGrade := []int{3, 1, 0, 0, 2}
	for g := 0; g <= 3; g++ {
		data := seriesByName(opt, fmt.Sprintf("grade %d", g))[0]["data"].([]any)
		for i, d := range data {
			v := d.(map[string]any)["value"]
			if wantGrade[i] == g && v != wantScore[i] {
				t.Errorf("grade %d, rank %d: value %v, want %v", g, i+1, v, wantScore[i])
			}
			if wantGrade[i] != g && v != "-" {
				t.Errorf("grade %d, rank %d: value %v, want \"-\"", g, i+1, v)
			}
		}
	}
	// One marker per item with grade >= 1: ranks 1, 2 and 5.
	marks := seriesByName(opt, "grade ≥ 1 (relevant)")[0]["data"].([]any)
	if len(marks) != 3 {
		t.Fatalf("%d relevant markers, want 3", len(marks))
	}
	tip := marks[0].(map[string]any)["tooltip"].(map[string]any)["formatter"].(string)
	if !strings.Contains(tip, html.EscapeString(hostileDoc)) || strings.Contains(tip, "<script") {
		t.Errorf("marker tooltip %q is not HTML-escaped", tip)
	}
	// The y axis leaves 30% headroom above the best score, 9.
	if top := opt["yAxis"].([]any)[0].(map[string]any)["max"]; top != math.Ceil(9*1.3) {
		t.Errorf("y max %v, want %v", top, math.Ceil(9*1.3))
	}
}

func TestRankingKBeyondList(t *testing.T) {
	o, _, _ := handOutcome(t, func(s *lab.State) { s.K = 8; s.Rerank = 0 })
	_, _, _, opt := scriptArgs(t, Ranking(o))
	g0 := seriesByName(opt, "grade 0")[0]
	area := g0["markArea"].(map[string]any)["data"].([]any)[0].([]any)
	if got := area[1].(map[string]any)["xAxis"]; got != "5\nd5" {
		t.Errorf("area ends at %q, want the last candidate", got)
	}
	if name := area[0].(map[string]any)["name"]; name != "top k = 8 (beyond the 5 candidates)" {
		t.Errorf("area label %q", name)
	}
	if len(seriesByName(opt, "reranked prefix")) != 0 {
		t.Error("rerank line drawn with reranking off")
	}
}

func TestRerankOption(t *testing.T) {
	o, _, _ := handOutcome(t, nil)
	frag := Rerank(o)
	opt := safeOption(t, frag)
	count := func(name string) int {
		s := seriesByName(opt, name)
		if len(s) != 1 {
			t.Fatalf("want one %q series", name)
		}
		d, _ := s[0]["data"].([]any)
		return len(d)
	}
	// First stage d1, H, "'&, d4, d5 -> H, "'&, d1, d4, d5: H 2->1 and "'& 3->2 move up,
	// d1 1->3 moves down, d4 and d5 stay.
	if up, down, same := count("moved up"), count("moved down"), count("unchanged"); up != 2 || down != 1 || same != 2 {
		t.Errorf("moved up/down/unchanged = %d/%d/%d, want 2/1/2", up, down, same)
	}
	down := seriesByName(opt, "moved down")[0]["data"].([]any)[0].(map[string]any)["coords"]
	if fmt.Sprint(down) != "[[0 1] [1 3]]" {
		t.Errorf("d1's line %v, want from rank 1 to rank 3", down)
	}
	title := opt["title"].(map[string]any)["text"]
	if title != "Reranking the first 3: 3 of 5 items moved" {
		t.Errorf("title %q", title)
	}
}

func TestMetricCards(t *testing.T) {
	o, _, _ := handOutcome(t, nil)
	cards := MetricCards(o)
	if strings.Contains(cards, "<script") || strings.Contains(cards, "<img") {
		t.Fatal("metric cards carry raw markup from the data")
	}
	// Top 2 after reranking: grades 3 and 1, both relevant; R = 3 relevant judged + 1 missed = 4.
	idcg := (math.Pow(2, 3)-1)/math.Log2(2) + (math.Pow(2, 2)-1)/math.Log2(3)
	dcg := (math.Pow(2, 3)-1)/math.Log2(2) + (math.Pow(2, 1)-1)/math.Log2(3)
	for _, want := range []string{
		"Precision@2", fmt.Sprintf(">%.3f<", 2.0/2),
		"Recall@2", fmt.Sprintf(">%.3f<", 2.0/4), "of R = 4",
		"MRR@2", fmt.Sprintf(">%.3f<", 1.0/1),
		"nDCG@2", fmt.Sprintf(">%.3f<", dcg/idcg),
		"relevant in top 2", ">2 / 2<",
		"first stage " + fmt.Sprintf("%.3f", 1.0/2), // first-stage P@2: d1 (0), hostile (3)
		"link: <code>" + html.EscapeString(o.Link) + "</code>",
	} {
		if !strings.Contains(cards, want) {
			t.Errorf("cards lack %q", want)
		}
	}
	for _, l := range o.Reading {
		if !strings.Contains(cards, "<li>"+html.EscapeString(l)+"</li>") {
			t.Errorf("cards lack the reading %q", l)
		}
	}
}

func TestMetricsAtKAndRerankSweep(t *testing.T) {
	o, _, _ := handOutcome(t, nil)
	for _, tc := range []struct {
		name   string
		frag   string
		series []string
		mark   float64
		points int
	}{
		{"metrics at k", MetricsAtK(o), []string{"P@k", "R@k", "MRR@k", "nDCG@k"}, 2, 5},
		{"rerank sweep", RerankSweep(o), []string{"nDCG@2", "P@2"}, 3, 6},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, _, _, opt := scriptArgs(t, tc.frag)
			series := opt["series"].([]any)
			if len(series) != len(tc.series) {
				t.Fatalf("%d series, want %d", len(series), len(tc.series))
			}
			for i, name := range tc.series {
				sr := series[i].(map[string]any)
				if sr["name"] != name {
					t.Errorf("series %d named %q, want %q", i, sr["name"], name)
				}
				if sr["step"] != "end" {
					t.Errorf("series %q: step %v, want \"end\" (whole k: steps, not slopes)", name, sr["step"])
				}
				if n := len(sr["data"].([]any)); n != tc.points {
					t.Errorf("series %q has %d points, want %d", name, n, tc.points)
				}
			}
			mark := series[0].(map[string]any)["markLine"].(map[string]any)["data"].([]any)[0].(map[string]any)
			if mark["xAxis"] != tc.mark {
				t.Errorf("current value marked at %v, want %v", mark["xAxis"], tc.mark)
			}
			if l := opt["legend"].(map[string]any); l["show"] != true {
				t.Error("legend hidden")
			}
		})
	}
	// P@k at k = 1 after reranking is the hostile doc, grade 3: 1/1.
	_, _, _, opt := scriptArgs(t, MetricsAtK(o))
	p1 := opt["series"].([]any)[0].(map[string]any)["data"].([]any)[0].(map[string]any)["value"]
	if fmt.Sprint(p1) != "[1 1]" {
		t.Errorf("P@1 point %v, want [1 1]", p1)
	}
}

func TestChunkOverlapSegments(t *testing.T) {
	// corpus 1000, chunk 300, overlap 100: stride 200, windows [0,300) [200,500) [400,700)
	// [600,900) [800,1000).
	o, _, _ := handOutcome(t, nil)
	_, _, _, opt := scriptArgs(t, ChunkOverlap(o))
	values := func(s map[string]any) []float64 {
		var out []float64
		for _, d := range s["data"].([]any) {
			out = append(out, d.(map[string]any)["value"].(float64))
		}
		return out
	}
	series := opt["series"].([]any)
	if len(series) != 4 {
		t.Fatalf("%d series, want offset, overlap, once, overlap", len(series))
	}
	want := [][]float64{
		{0, 200, 400, 600, 800},   // window starts (transparent offset)
		{0, 100, 100, 100, 100},   // shared with the previous window
		{200, 100, 100, 100, 100}, // indexed once
		{100, 100, 100, 100, 0},   // shared with the next window
	}
	for i, w := range want {
		if got := values(series[i].(map[string]any)); fmt.Sprint(got) != fmt.Sprint(w) {
			t.Errorf("series %d (%v) = %v, want %v", i, series[i].(map[string]any)["name"], got, w)
		}
	}
	stride := series[0].(map[string]any)["markLine"].(map[string]any)["data"].([]any)[0].([]any)
	if lbl := series[0].(map[string]any)["markLine"].(map[string]any)["label"].(map[string]any); lbl["show"] != false {
		t.Errorf("stride label shown on the chart (it covered chunk 2): %v", lbl)
	}
	if stride[0].(map[string]any)["name"] != "stride 200" || fmt.Sprint(stride[1].(map[string]any)["coord"]) != "[200 chunk 2]" {
		t.Errorf("stride mark %v", stride)
	}
}

func TestChunkOverlapManyWindows(t *testing.T) {
	o, _, _ := handOutcome(t, func(s *lab.State) { s.Corpus, s.Chunk, s.Overlap = 100000, 100, 50 })
	_, _, _, opt := scriptArgs(t, ChunkOverlap(o))
	// 1 + ceil((100000 − 100) / 50) = 1999 windows, 40 drawn.
	if title := opt["title"].(map[string]any)["text"]; title != "Chunk windows over 100000 tokens: first 40 of 1999 chunks" {
		t.Errorf("title %q", title)
	}
	if n := len(opt["series"].([]any)[1].(map[string]any)["data"].([]any)); n != 40 {
		t.Errorf("%d rows drawn, want 40", n)
	}
}

func TestFootprintOverOverlap(t *testing.T) {
	_, _, _, opt := scriptArgs(t, FootprintOverOverlap(10000, 512))
	indexed := opt["series"].([]any)[0].(map[string]any)["data"].([]any)
	dup := opt["series"].([]any)[1].(map[string]any)["data"].([]any)
	points := map[float64][2]float64{}
	for i := range indexed {
		a := indexed[i].(map[string]any)["value"].([]any)
		b := dup[i].(map[string]any)["value"].([]any)
		points[a[0].(float64)] = [2]float64{a[1].(float64), b[1].(float64)}
	}
	// Overlap 0: windows tile the corpus, nothing duplicated. Overlap 128: stride 384,
	// 1 + ceil((10000 − 512) / 384) = 26 chunks, indexed 25·512 + (10000 − 25·384) = 13200.
	for ov, want := range map[float64][2]float64{0: {10000, 0}, 128: {25*512 + (10000 - 25*384), 100 * 3200.0 / 10000}} {
		if got, ok := points[ov]; !ok || got != want {
			t.Errorf("overlap %v: (indexed, duplication%%) = %v (present %v), want %v", ov, got, ok, want)
		}
	}
	if last := indexed[len(indexed)-1].(map[string]any)["value"].([]any)[0]; last != float64(3*512/4) {
		t.Errorf("last overlap %v, want 3/4 of the chunk", last)
	}
	box := FootprintOverOverlap(10, 0)
	if !strings.Contains(box, "ranklab-error") || !strings.Contains(box, "chunk") || strings.Contains(box, "<script") {
		t.Errorf("invalid chunk size: %s", box)
	}
}

func TestChunkingCard(t *testing.T) {
	o, _, _ := handOutcome(t, nil)
	card := ChunkingCard(o)
	// 5 windows: 1 + ceil((1000 − 300) / 200); indexed 4·300 + (1000 − 4·200) = 1400.
	for _, want := range []string{">200<", ">5<", ">1400<", ">400<", ">40.0%<"} {
		if !strings.Contains(card, want) {
			t.Errorf("card lacks %q", want)
		}
	}
	if strings.Contains(card, "<script") {
		t.Error("card has a script")
	}
}

// TestLabFragmentSizes keeps every default lab chart under 20 KB (ECharts is sent apart).
func TestLabFragmentSizes(t *testing.T) {
	s := lab.DefaultState()
	o, err := s.Outcome()
	if err != nil {
		t.Fatal(err)
	}
	frags := LabPanels(o)
	ids := map[string]bool{}
	for i, f := range frags {
		if len(f) >= 20_000 {
			t.Errorf("fragment %d is %d bytes, want < 20 KB", i, len(f))
		}
		if m := divID.FindStringSubmatch(f); m != nil {
			if ids[m[1]] {
				t.Errorf("id %s repeated", m[1])
			}
			ids[m[1]] = true
		}
	}
	if len(ids) != 6 {
		t.Errorf("%d charts in the lab, want 6", len(ids))
	}
}

// The ranking shows the query it answers (escaped) and says that its bars stand in reranked
// order with first-stage heights; the cards show the query too.
func TestRankingQueryAndHeights(t *testing.T) {
	o, _, _ := handOutcome(t, nil)
	o.Query = `why <b>"this"</b> & that?`
	frag := Ranking(o)
	checkSafeScript(t, frag)
	_, _, _, opt := scriptArgs(t, frag)
	title := opt["title"].(map[string]any)
	if got := title["text"].(string); !strings.Contains(got, `why <b>"this"</b> & that?`) {
		t.Errorf("title %q lacks the query", got)
	}
	sub := title["subtext"].(string)
	for _, want := range []string{"bars in reranked order", "height = first-stage score", "need not fall"} {
		if !strings.Contains(sub, want) {
			t.Errorf("subtitle %q lacks %q", sub, want)
		}
	}
	if strings.Contains(frag, "<b>") {
		t.Error("the query's markup reached the fragment unescaped")
	}
	if y := opt["yAxis"].([]any)[0].(map[string]any)["name"]; y != "first-stage score (in reranked order)" {
		t.Errorf("y axis name %q", y)
	}
	cards := MetricCards(o)
	if !strings.Contains(cards, "<q data-query>"+html.EscapeString(o.Query)+"</q>") {
		t.Error("cards lack the escaped query")
	}
	// Without reranking the subtitle does not speak of a reranked order.
	o0, _, _ := handOutcome(t, func(s *lab.State) { s.Rerank = 0 })
	_, _, _, opt0 := scriptArgs(t, Ranking(o0))
	if sub0 := opt0["title"].(map[string]any)["subtext"].(string); strings.Contains(sub0, "reranked") {
		t.Errorf("depth 0 subtitle %q speaks of reranking", sub0)
	}
}

// The notebook panels hold exactly the lab views' Full fragments of their panel, after a heading.
func TestPanelsFromLabViews(t *testing.T) {
	o, err := lab.DefaultState().Outcome()
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range []struct {
		name  string
		frags []string
	}{{"ranking", panel(o, "ranking", "Ranking panel")}, {"chunking", panel(o, "chunking", "Chunking panel")}} {
		n := 0
		for _, v := range labViews {
			if v.Panel == p.name && v.Full != nil {
				n++
			}
		}
		if len(p.frags) != n+1 || !strings.HasPrefix(p.frags[0], "<h2") {
			t.Errorf("%s panel: %d fragments, want a heading and %d views", p.name, len(p.frags), n)
		}
	}
	keys := map[string]bool{}
	for _, v := range labViews {
		if keys[v.Key] || (v.Full == nil && v.Live == nil) || v.Uses == 0 {
			t.Errorf("view %q: repeated, without a builder or without inputs", v.Key)
		}
		keys[v.Key] = true
	}
}
