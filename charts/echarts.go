package charts

import (
	_ "embed"
	"os"
	"strings"
	"sync/atomic"
)

// echartsVersion is the version of ECharts every chart is written for, embedded and pinned online.
const echartsVersion = "5.4.3"

// onlineURL is the pinned ECharts 5.4.3 file used in online mode (and as a fallback when the
// embedded copy has not reached the page).
const onlineURL = "https://cdn.jsdelivr.net/npm/echarts@5.4.3/dist/echarts.min.js"

// echartsJS is dist/echarts.min.js of the npm package echarts@5.4.3 (Apache-2.0; see
// assets/LICENSE and assets/NOTICE).
//
//go:embed assets/echarts.min.js
var echartsJS string

// envMode is the environment variable that chooses where charts get ECharts from:
// "offline" (the default) or "online".
const envMode = "RANKLAB_ECHARTS"

// offline holds the mode, read from the environment when the program starts: true (the
// default) = the copy embedded in this module (sent to the page once per kernel run by Show),
// false (RANKLAB_ECHARTS=online) = the pinned CDN URL (onlineURL).
var offline atomic.Bool

func init() { offline.Store(offlineFromEnv(os.Getenv(envMode))) }

// offlineFromEnv reads the RANKLAB_ECHARTS value: only "online" (any case, spaces trimmed)
// selects online mode; anything else, including empty, means offline.
func offlineFromEnv(v string) bool {
	return !strings.EqualFold(strings.TrimSpace(v), "online")
}

// libraryHTML returns one <script> element that defines window.echarts from the embedded
// ECharts 5.4.3 unless the page already has it. The library runs inside a function whose
// parameters shadow define, exports and module, so a page with RequireJS (classic Notebook,
// nbconvert exports) cannot capture it as an anonymous AMD module. Send it once per page
// (Page does; Show does once per kernel run in offline mode).
func libraryHTML() string {
	var b strings.Builder
	b.Grow(len(echartsJS) + 200)
	b.WriteString(`<script data-ranklab-echarts="` + echartsVersion + `">if(!window.echarts){(function(define,exports,module){` + "\n")
	b.WriteString(echartsJS)
	b.WriteString("\n}).call(window);}</script>")
	return b.String()
}
