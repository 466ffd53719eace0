package charts

import (
	"strings"
	"testing"
)

func TestEmbeddedECharts(t *testing.T) {
	if len(echartsJS) < 900_000 {
		t.Fatalf("embedded echarts.min.js is %d bytes, want the ~1 MB dist file", len(echartsJS))
	}
	if !strings.Contains(echartsJS, `version="`+echartsVersion+`"`) {
		t.Errorf("embedded file does not declare version %s", echartsVersion)
	}
	if !strings.Contains(onlineURL, "echarts@"+echartsVersion+"/") {
		t.Errorf("OnlineURL %q is not pinned to %s", onlineURL, echartsVersion)
	}
	lib := libraryHTML()
	if n := strings.Count(lib, "</script"); n != 1 {
		t.Errorf("library element has %d '</script' sequences, want 1", n)
	}
	for _, want := range []string{"if(!window.echarts)", "function(define,exports,module)", ".call(window)"} {
		if !strings.Contains(lib, want) {
			t.Errorf("library element lacks %q", want)
		}
	}
}

func TestPage(t *testing.T) {
	p := Page(`<Lab> & "more"`, "<p>one</p>", "<p>two</p>")
	if !strings.Contains(p, "<title>&lt;Lab&gt; &amp; &#34;more&#34;</title>") {
		t.Error("page title not escaped")
	}
	if strings.Count(p, "data-ranklab-echarts=") != 1 {
		t.Error("page should embed ECharts exactly once")
	}
	if i, j := strings.Index(p, "<p>one</p>"), strings.Index(p, "<p>two</p>"); i < 0 || j < i {
		t.Error("fragments missing or out of order")
	}
	if strings.Contains(p, "<script src") {
		t.Error("page loads a script from the network")
	}
}
