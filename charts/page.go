package charts

import (
	"html"
	"strings"
)

// Page returns a standalone HTML page with the title as <title> and heading, the embedded
// ECharts 5.4.3 (once, in <head>) and the fragments in order. It needs no network: the chart
// scripts find window.echarts at once, whatever mode RANKLAB_ECHARTS selects.
func Page(title string, fragments ...string) string {
	var b strings.Builder
	n := len(echartsJS) + 2000
	for _, f := range fragments {
		n += len(f)
	}
	b.Grow(n)
	t := html.EscapeString(title)
	b.WriteString("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n")
	b.WriteString(`<meta name="viewport" content="width=device-width, initial-scale=1">` + "\n")
	b.WriteString("<title>" + t + "</title>\n")
	b.WriteString("<style>body{font-family:system-ui,-apple-system,\"Segoe UI\",\"DejaVu Sans\",sans-serif;" +
		"margin:24px auto;max-width:1000px;padding:0 16px;color:#222;background:#fff}" +
		"h1{font-size:22px;overflow-wrap:anywhere}.ranklab-section{margin:18px 0}</style>\n")
	b.WriteString(libraryHTML())
	b.WriteString("\n</head>\n<body>\n<h1>" + t + "</h1>\n")
	for _, f := range fragments {
		b.WriteString(`<div class="ranklab-section">` + "\n")
		b.WriteString(f)
		b.WriteString("</div>\n")
	}
	b.WriteString("</body>\n</html>\n")
	return b.String()
}
