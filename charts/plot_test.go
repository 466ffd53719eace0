package charts

import (
	"fmt"
	"html"
	"math"
	"strings"
	"testing"
)

// yAxis returns the option's first y axis.
func yAxis(t *testing.T, opt map[string]any) map[string]any {
	t.Helper()
	return opt["yAxis"].([]any)[0].(map[string]any)
}

// lineCoords returns the coords of every item of the "lines" series named name.
func lineCoords(opt map[string]any, name string) [][][]float64 {
	var out [][][]float64
	for _, s := range seriesByName(opt, name) {
		if s["type"] != "lines" {
			continue
		}
		for _, d := range s["data"].([]any) {
			var seg [][]float64
			for _, p := range d.(map[string]any)["coords"].([]any) {
				xy := p.([]any)
				seg = append(seg, []float64{xy[0].(float64), xy[1].(float64)})
			}
			out = append(out, seg)
		}
	}
	return out
}

func TestBarsOption(t *testing.T) {
	nan := math.NaN()
	p := Plot{Title: "T <b>", Subtitle: "s", X: "measure", Y: "value", Categories: []string{"P@5", `<img src=x onerror=alert(1)>`}}
	frag := Bars(p,
		Series{Name: "a", Values: []float64{0.5, 0.25}},
		Series{Name: "b&", Values: []float64{0.75, nan}, Low: []float64{0.5, nan}, High: []float64{1, nan}, Labels: []string{"{b} x", ""}},
		Series{Name: "c", Values: []float64{0.1, 0.2}},
	)
	opt := safeOption(t, frag)
	b := seriesByName(opt, "b&")
	if len(b) != 2 || b[0]["type"] != "bar" || b[1]["type"] != "lines" {
		t.Fatalf("series b&: %v", b)
	}
	data := b[0]["data"].([]any)
	first := data[0].(map[string]any)
	if first["value"] != 0.75 || data[1].(map[string]any)["value"] != "-" {
		t.Errorf("values %v", data)
	}
	if got := first["label"].(map[string]any)["formatter"]; got != "｛b｝ x" {
		t.Errorf("label %q: braces must not reach ECharts' templates", got)
	}
	if tip := first["tooltip"].(map[string]any)["formatter"]; tip != html.EscapeString("b& · P@5: 0.75 [0.5, 1] {b} x") {
		t.Errorf("tooltip %q", tip)
	}
	tip := seriesByName(opt, "a")[0]["data"].([]any)[1].(map[string]any)["tooltip"].(map[string]any)["formatter"]
	if tip != html.EscapeString(`a · <img src=x onerror=alert(1)>: 0.25`) {
		t.Errorf("tooltip %q not escaped", tip)
	}
	// Three grouped bars: width w = (1 − 0.2) / (3 + 2·0.3); the second bar is centred on its
	// category, so b&'s error bar stands at x = 0 (category 0) from 0.5 to 1, with caps 0.3·w
	// to either side. The missing value has no error bar.
	w := 0.8 / 3.6
	segs := lineCoords(opt, "b&")
	want := [][][]float64{{{0, 0.5}, {0, 1}}, {{-0.3 * w, 0.5}, {0.3 * w, 0.5}}, {{-0.3 * w, 1}, {0.3 * w, 1}}}
	if !nearSegs(segs, want) {
		t.Errorf("error bar segments\n%v\nwant\n%v", segs, want)
	}
	x := opt["xAxis"].([]any)
	if len(x) != 2 || x[1].(map[string]any)["min"] != -0.5 || x[1].(map[string]any)["max"] != 1.5 {
		t.Errorf("hidden value axis %v", x)
	}
	// Honest axis: from 0 to a round number above the largest end (1).
	if y := yAxis(t, opt); y["min"] != 0.0 || y["max"] != 1.0 {
		t.Errorf("y axis %v..%v, want 0..1", y["min"], y["max"])
	}
	if sub := opt["title"].(map[string]any)["subtext"]; sub != "s" {
		t.Errorf("subtitle %q", sub)
	}
}

// nearSegs compares segments to 1e-12.
func nearSegs(a, b [][][]float64) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		for j := range a[i] {
			for k := range a[i][j] {
				if math.Abs(a[i][j][k]-b[i][j][k]) > 1e-12 {
					return false
				}
			}
		}
	}
	return true
}

func TestBarOffsets(t *testing.T) {
	// Two bars: w = 0.8 / 2.3, centres at ±(w + 0.3·w)/2.
	w, off := barOffsets(2, true)
	if math.Abs(w-0.8/2.3) > 1e-12 || math.Abs(off[0]+1.3*w/2) > 1e-12 || math.Abs(off[1]-1.3*w/2) > 1e-12 {
		t.Errorf("width %v offsets %v", w, off)
	}
	if _, off := barOffsets(3, false); fmt.Sprint(off) != "[0 0 0]" {
		t.Errorf("points or stacked bars are centred: %v", off)
	}
}

func TestYAxis(t *testing.T) {
	vals := []float64{0.61, 0.64, 0.68}
	tests := []struct {
		name        string
		p           Plot
		lo, hi      float64
		truncatedBy string
	}{
		// 0.68 / 5 = 0.136 rounds to a step of 0.1; ceil(0.68 / 0.1) · 0.1 = 0.7.
		{"from zero", Plot{}, 0, 0.7, ""},
		// 1 / 5 = 0.2: a step of 0.2 up to 1.
		{"at least YMax", Plot{YMax: 1}, 0, 1, ""},
		// Zoomed: 0.61..0.68 padded by 5% of 0.07 each side (0.6065..0.6835), (0.6835 − 0.6065) / 5
		// = 0.0154 rounds to a step of 0.02: 0.6 to 0.7.
		{"zoom", Plot{Zoom: true}, 0.6, 0.7, "y axis truncated: it shows 0.6 to 0.7, not 0"},
		// 1.1 / 5 = 0.22 rounds to a step of 0.2: up to 1.2.
		{"reference line above", Plot{Refs: []Ref{{Y: 1.1, Label: "r"}}}, 0, 1.2, ""},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			tc.p.Categories = []string{"a", "b", "c"}
			_, _, _, opt := scriptArgs(t, Lines(tc.p, Series{Name: "s", Values: vals}))
			y := yAxis(t, opt)
			if y["min"] != tc.lo || y["max"] != tc.hi {
				t.Errorf("y axis %v..%v, want %v..%v", y["min"], y["max"], tc.lo, tc.hi)
			}
			sub, _ := opt["title"].(map[string]any)["subtext"].(string)
			if sub != tc.truncatedBy {
				t.Errorf("subtitle %q, want %q", sub, tc.truncatedBy)
			}
		})
	}
}

func TestLinesPointsAndSteps(t *testing.T) {
	p := Plot{Title: "t", Categories: []string{"1", "2"}, Refs: []Ref{{Y: 0.5, Label: "whole {c}"}}}
	_, _, _, opt := scriptArgs(t, Lines(p, Series{Name: "points", Values: []float64{0.1, 0.2}}, Series{Name: "steps", Values: []float64{0.3, 0.4}, Step: true}))
	pts, steps := seriesByName(opt, "points")[0], seriesByName(opt, "steps")[0]
	if pts["lineStyle"].(map[string]any)["opacity"] != 0.0 || pts["step"] != nil {
		t.Errorf("points are joined: %v", pts)
	}
	if steps["step"] != "end" || steps["lineStyle"].(map[string]any)["opacity"] != nil {
		t.Errorf("steps: %v", steps)
	}
	if pts["symbol"] == steps["symbol"] {
		t.Error("two series share a symbol")
	}
	var ref map[string]any
	for _, s := range opt["series"].([]any) {
		if ml, ok := s.(map[string]any)["markLine"].(map[string]any); ok {
			ref = ml["data"].([]any)[0].(map[string]any)
		}
	}
	label := ref["label"].(map[string]any)
	if ref["yAxis"] != 0.5 || label["formatter"] != "whole ｛c｝" || label["position"] != "insideEndTop" {
		t.Errorf("reference line %v", ref)
	}
	legend := opt["legend"].(map[string]any)["data"].([]any)
	if fmt.Sprint(legend) != "[points steps]" {
		t.Errorf("legend %v", legend)
	}
}

func TestPlotErrors(t *testing.T) {
	cats := []string{"a", "b"}
	tests := []struct {
		name string
		s    []Series
		want string
	}{
		{"no series", nil, "no series"},
		{"values", []Series{{Name: "s", Values: []float64{1}}}, `series "s" has 1 values for 2 categories`},
		{"one end", []Series{{Name: "s", Values: []float64{1, 2}, Low: []float64{0, 1}}}, "only one end"},
		{"labels", []Series{{Name: "s", Values: []float64{1, 2}, Labels: []string{"x"}}}, "1 labels"},
		{"infinite", []Series{{Name: "s", Values: []float64{1, math.Inf(1)}}}, "infinite value"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			box := Bars(Plot{Categories: cats}, tc.s...)
			if !strings.Contains(box, "ranklab-error") || !strings.Contains(box, html.EscapeString(tc.want)) {
				t.Errorf("got %s, want an error box with %q", box, tc.want)
			}
		})
	}
}

func TestNiceStep(t *testing.T) {
	for x, want := range map[float64]float64{0.136: 0.1, 0.1: 0.1, 0.22: 0.2, 0.34: 0.2, 0.36: 0.5, 7: 10, 0.0154: 0.02, 2e-5: 2e-5} {
		if got := niceStep(x); math.Abs(got-want) > want*1e-9 {
			t.Errorf("niceStep(%v) = %v, want %v", x, got, want)
		}
	}
}

func TestTable(t *testing.T) {
	tab := Table("cap <1>", []string{"query", "P@5", "note"},
		[][]string{{"q&1", "0.5000", "<b>"}, {"q2", "+0.25*†", ""}, {"q3"}}, "left out: <x>")
	for _, want := range []string{
		"<caption", ">cap &lt;1&gt;<",
		`text-align:left">query<`, `text-align:right">P@5<`, `text-align:left">note<`,
		`>q&amp;1<`, `>&lt;b&gt;<`, `>+0.25*†<`,
		`<p style="font-size:13px;margin:6px 0">left out: &lt;x&gt;</p>`,
		"overflow-x:auto",
	} {
		if !strings.Contains(tab, want) {
			t.Errorf("table lacks %q:\n%s", want, tab)
		}
	}
	if strings.Contains(tab, "<b>") || strings.Contains(tab, "<script") {
		t.Error("raw markup from data")
	}
	// The short row is padded: three cells in every row.
	if n := strings.Count(tab, "<td"); n != 9 {
		t.Errorf("%d cells, want 9", n)
	}
}
