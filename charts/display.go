package charts

import (
	"os"
	"path/filepath"

	"github.com/janpfeifer/gonb/gonbui"
	"github.com/ranklab/ranklab/internal/atomicfile"
)

// Show displays each fragment as its own text/html output of the current notebook cell and
// waits (gonbui.Sync) until GoNB has them. In offline mode it first sends the embedded ECharts
// (libraryHTML) once per kernel run: a marker file in GoNB's per-kernel temporary directory
// remembers that it was sent. Outside a notebook Show does nothing.
func Show(fragments ...string) {
	if !gonbui.IsNotebook {
		return
	}
	if offline.Load() {
		if marker := libraryMarker(); marker == "" || !exists(marker) {
			gonbui.DisplayHTML(libraryHTML())
			if marker != "" {
				_ = atomicfile.WriteFile(marker, []byte(echartsVersion+"\n")) // best effort: without it ECharts is sent again
			}
		}
	}
	for _, f := range fragments {
		gonbui.DisplayHTML(f)
	}
	gonbui.Sync()
}

// libraryMarker names the file that records "ECharts was sent in this kernel run", or "" when
// GoNB gives no per-kernel directory (then the library is sent with every Show).
func libraryMarker() string {
	dir := os.Getenv("GONB_TMP_DIR")
	if dir == "" {
		return ""
	}
	return filepath.Join(dir, "ranklab-echarts-"+echartsVersion+".sent")
}

func exists(path string) bool {
	_, err := os.Stat(path)
	return err == nil
}
