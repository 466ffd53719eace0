package charts

import (
	"encoding/json"
	"fmt"
	"math"
	"strconv"
	"strings"
)

// Colours of the lab's charts and tables. Every colour that draws a mark (a bar, a dot, a line)
// or a table rule is in themeColors with the colour JupyterLab's dark theme shows instead; both
// columns keep a contrast ratio of at least 3:1 (WCAG's minimum for graphics) against the light
// and the dark backgrounds (TestThemeContrast). Charts are built with the light colours; the
// chart script swaps in the dark column where the page is dark (darkColorsJS).
//
// Grades: a grey for 0 and blues for 1..3 that darken with the grade on a light page and lighten
// with it on a dark one, so their order reads without a legend and survives colour-blindness.
var gradeColors = [...]string{"#8a8a8a", "#4292c6", "#2171b5", "#08306b"}

const (
	colorUp        = "#2166ac" // moved up / run B better
	colorDown      = "#c25e00" // moved down / run A better
	colorSame      = "#808080" // unchanged / tie
	colorMark      = "#d62728" // markers: relevant items, the current k
	colorHighlight = "rgba(255,193,7,0.16)"
	colorKLabel    = "#8a6d00" // the top-k band's label
	colorRule      = "#8a8a8a" // table rules: under the header and between rows
)

// themeColors lists the colours above with their dark-theme counterparts ("" = the same colour
// serves both themes). A light colour appears once, so the swap is a function.
var themeColors = []struct{ role, light, dark string }{
	{"grade 0", gradeColors[0], ""},
	{"grade 1", gradeColors[1], ""},
	{"grade 2", gradeColors[2], "#6baed6"},
	{"grade 3", gradeColors[3], "#c6dbef"},
	{"moved up", colorUp, "#4393c3"},
	{"moved down", colorDown, ""},
	{"unchanged", colorSame, ""},
	{"relevant marker", colorMark, ""},
	{"top-k label", colorKLabel, "#e6b422"},
	{"table rule", colorRule, ""},
	{"chunk indexed once", colorOnce, ""},
	{"chunk overlap", colorOverlap, ""},
	{"metric P", metricColors[0], ""},
	{"metric R", metricColors[1], ""},
	{"metric MRR", metricColors[2], ""},
	{"metric nDCG", metricColors[3], ""},
	{"comparison win", colorWin, ""},
	{"comparison loss", colorLoss, "#e5534b"},
	{"comparison tie", colorTie, ""},
	{"comparison baseline", colorBase, "#4393c3"},
}

// Backgrounds the colours are checked against: JupyterLab 4's light theme (--jp-layout-color0
// #fff) and its dark theme (--jp-layout-color0 #111, --jp-layout-color1 #212121), from
// @jupyterlab/theme-light-extension and theme-dark-extension's index.css.
var (
	lightBackgrounds = []string{"#ffffff"}
	darkBackgrounds  = []string{"#111111", "#212121"}
)

// darkColorsJS is the JavaScript object literal {"light":"dark",...} of the colours a dark page
// swaps (lower-case hex).
var darkColorsJS = func() string {
	m := map[string]string{}
	for _, c := range themeColors {
		if c.dark != "" {
			m[strings.ToLower(c.light)] = strings.ToLower(c.dark)
		}
	}
	js, _ := json.Marshal(m) // strings always marshal
	return string(js)
}()

// relativeLuminance returns WCAG 2's relative luminance of a #rrggbb or #rgb colour:
//
//	L = 0.2126 R + 0.7152 G + 0.0722 B,  each channel c = s/12.92 when s <= 0.04045,
//	else ((s + 0.055) / 1.055)^2.4, with s the channel's 8-bit value / 255.
func relativeLuminance(hex string) (float64, error) {
	h := strings.TrimPrefix(hex, "#")
	if len(h) == 3 {
		h = string([]byte{h[0], h[0], h[1], h[1], h[2], h[2]})
	}
	if len(h) != 6 {
		return 0, fmt.Errorf("charts: %q is not a #rrggbb colour", hex)
	}
	var lin [3]float64
	for i := range lin {
		v, err := strconv.ParseUint(h[2*i:2*i+2], 16, 8)
		if err != nil {
			return 0, fmt.Errorf("charts: %q is not a #rrggbb colour", hex)
		}
		s := float64(v) / 255
		if s <= 0.04045 {
			lin[i] = s / 12.92
		} else {
			lin[i] = math.Pow((s+0.055)/1.055, 2.4)
		}
	}
	return 0.2126*lin[0] + 0.7152*lin[1] + 0.0722*lin[2], nil
}

// contrastRatio returns WCAG 2's contrast ratio of two colours, (L1 + 0.05) / (L2 + 0.05) with
// L1 the lighter relative luminance: 1 (same) .. 21 (black on white).
func contrastRatio(a, b string) (float64, error) {
	la, err := relativeLuminance(a)
	if err != nil {
		return 0, err
	}
	lb, err := relativeLuminance(b)
	if err != nil {
		return 0, err
	}
	return (max(la, lb) + 0.05) / (min(la, lb) + 0.05), nil
}
