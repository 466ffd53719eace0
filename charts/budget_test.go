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
	parts := strings.Split(out, `class="ranklab-chart"`)
	if len(parts) != 3 || strings.Count(out, "</script>") != 2 {
		t.Fatalf("want two chart fragments:\n%s", out)
	}
	if strings.Contains(out, "<test>") || strings.Contains(out, "<img") || strings.Count(out, "<script>alert") > 0 {
		t.Error("unescaped data in the fragment")
	}
	line := out[:strings.Index(out, `<div style="flex:2`)]
	_, _, _, opt := scriptArgs(t, line)
	series := opt["series"].([]any)
	if len(series) != 2 {
		t.Fatalf("%d line series, want 2", len(series))
	}
	second := series[1].(map[string]any)["data"].([]any)
	if v := second[1].(map[string]any)["value"].(float64); v != 0.63 {
		t.Errorf("value at B = 512: %v, want 0.63", v)
	}
	tip := second[1].(map[string]any)["tooltip"].(map[string]any)["formatter"].(string)
	if !strings.Contains(tip, "B = 512: nDCG 0.6300 [0.6000, 0.6600]") || strings.Contains(tip, "</script>") {
		t.Errorf("tooltip %q", tip)
	}
	if cats := opt["xAxis"].([]any)[0].(map[string]any)["data"].([]any); len(cats) != 3 || cats[2] != "2048" {
		t.Errorf("x categories %v", cats)
	}
	_, _, _, bar := scriptArgs(t, out[strings.Index(out, `<div style="flex:2`):])
	bs := bar["series"].([]any)[0].(map[string]any)
	if v := bs["data"].([]any)[1].(map[string]any)["value"].(float64); v != 1250/1e6 {
		t.Errorf("footprint bar %v, want 1250/1e6 (millions)", v)
	}
	if tip := bs["data"].([]any)[1].(map[string]any)["tooltip"].(map[string]any)["formatter"].(string); !strings.Contains(tip, "1250 tokens indexed (25.0% duplicated)") {
		t.Errorf("footprint tooltip %q", tip)
	}

	bad := QualityAtBudget("t", "nDCG", budgets, 1000, []BudgetCurve{{Name: "short", Values: []float64{1}}})
	if !strings.Contains(bad, "ranklab-error") || strings.Contains(bad, "<script") {
		t.Errorf("mismatched curve: %s", bad)
	}
}
