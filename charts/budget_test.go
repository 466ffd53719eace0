package charts

import (
	"strings"
	"testing"
)

func TestQualityAtBudget(t *testing.T) {
	budgets := []int{128, 512, 2048}
	curves := []BudgetCurve{
		{Name: "whole", Values: []float64{0.003, 0.45, 0.66}, Indexed: 1000},
		{Name: hostileDoc, Values: []float64{0.52, 0.63, 0.67}, Low: []float64{0.5, 0.6, 0.65}, High: []float64{0.55, 0.66, 0.69}, Indexed: 1250},
	}
	out := QualityAtBudget("SciFact <test>", "nDCG", budgets, 1000, curves)
	// Two charts, each with its own container and one script.
	if n := strings.Count(out, `class="ranklab-chart"`); n != 2 || strings.Count(out, "</script>") != 2 {
		t.Fatalf("want two chart fragments, got %d:\n%s", n, out)
	}
	if strings.Contains(out, "<test>") || strings.Contains(out, "<img") || strings.Contains(out, "<script>alert") {
		t.Error("unescaped data in the fragment")
	}
	split := strings.Index(out, `<div style="flex:2`)
	_, _, _, opt := scriptArgs(t, out[:split])
	var second map[string]any
	for _, s := range opt["series"].([]any) {
		if m := s.(map[string]any); m["name"] == hostileDoc && m["type"] == "bar" {
			second = m
		}
	}
	if second == nil {
		t.Fatalf("no bar series for the second curve: %v", opt["series"])
	}
	pt := second["data"].([]any)[1].(map[string]any)
	if pt["value"].(float64) != 0.63 || !strings.Contains(pt["tooltip"].(map[string]any)["formatter"].(string), "512: 0.63 [0.6, 0.66]") {
		t.Errorf("point at B = 512: %v", pt)
	}
	if cats := opt["xAxis"].([]any)[0].(map[string]any)["data"].([]any); len(cats) != 3 || cats[2] != "2048" {
		t.Errorf("x categories %v", cats)
	}
	_, _, _, bar := scriptArgs(t, out[split:])
	bs := bar["series"].([]any)[0].(map[string]any)
	b := bs["data"].([]any)[1].(map[string]any)
	if b["value"].(float64) != 1250/1e6 || !strings.Contains(b["tooltip"].(map[string]any)["formatter"].(string), "+25%") {
		t.Errorf("footprint bar %v: want 1250/1e6 million tokens, +25%%", b)
	}

	bad := QualityAtBudget("t", "nDCG", budgets, 1000, []BudgetCurve{{Name: "short", Values: []float64{1}}})
	if !strings.Contains(bad, "ranklab-error") || strings.Count(bad, "<script") != 1 {
		t.Errorf("mismatched curve: want the error box beside the footprint chart: %s", bad)
	}
}
