package charts

import (
	"encoding/json"
	"math"
	"strings"
	"testing"
)

// TestContrastRatioReference checks the formula on values published with WCAG's definition:
// black on white is 21:1, a colour against itself 1:1, and #777777 on white 4.48:1 (the value
// WebAIM's contrast checker prints).
func TestContrastRatioReference(t *testing.T) {
	for _, c := range []struct {
		a, b string
		want float64
	}{
		{"#000000", "#ffffff", 21},
		{"#fff", "#000", 21},
		{"#777777", "#777777", 1},
		{"#777777", "#ffffff", 4.48},
	} {
		got, err := contrastRatio(c.a, c.b)
		if err != nil || math.Abs(got-c.want) > 0.005 {
			t.Errorf("contrastRatio(%s, %s) = %.4f, %v; want %.2f", c.a, c.b, got, err, c.want)
		}
	}
	if _, err := contrastRatio("#12345", "#fff"); err == nil {
		t.Error("a five-digit colour was accepted")
	}
}

// TestThemeContrast holds every chart and table colour at 3:1 or more against JupyterLab's light
// background (its light colour) and both dark backgrounds (its dark colour).
func TestThemeContrast(t *testing.T) {
	dark := map[string]string{}
	for _, c := range themeColors {
		d := c.dark
		if d == "" {
			d = c.light
		}
		if prev, ok := dark[strings.ToLower(c.light)]; ok && prev != d {
			t.Errorf("%s: light colour %s already swaps to %s, not %s", c.role, c.light, prev, d)
		}
		dark[strings.ToLower(c.light)] = d
		for _, theme := range []struct {
			name, color string
			bgs         []string
		}{{"light", c.light, lightBackgrounds}, {"dark", d, darkBackgrounds}} {
			for _, bg := range theme.bgs {
				r, err := contrastRatio(theme.color, bg)
				if err != nil {
					t.Fatal(err)
				}
				if r < 3 {
					t.Errorf("%s in the %s theme: %s on %s has contrast %.2f:1, want >= 3:1", c.role, theme.name, theme.color, bg, r)
				}
			}
		}
	}
}

// TestThemeColorsCoverGrades checks that every grade colour the charts draw is in the table, and
// that the script's swap table holds exactly the colours that change.
func TestThemeColorsCoverGrades(t *testing.T) {
	inTable := map[string]bool{}
	for _, c := range themeColors {
		inTable[c.light] = true
	}
	for g := range gradeColors {
		if !inTable[gradeColor(g)] {
			t.Errorf("grade %d's colour %s is not in themeColors", g, gradeColor(g))
		}
	}
	var swap map[string]string
	if err := json.Unmarshal([]byte(darkColorsJS), &swap); err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, c := range themeColors {
		if c.dark != "" {
			n++
			if swap[strings.ToLower(c.light)] != strings.ToLower(c.dark) {
				t.Errorf("%s: the script swaps %s to %q, want %s", c.role, c.light, swap[strings.ToLower(c.light)], c.dark)
			}
		}
	}
	if len(swap) != n {
		t.Errorf("the script swaps %d colours, the table %d", len(swap), n)
	}
	if !strings.Contains(drawJS, darkColorsJS) {
		t.Error("drawJS does not carry the swap table")
	}
}
