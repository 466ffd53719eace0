package corpus_test

import (
	"fmt"
	"os"
	"path/filepath"

	"github.com/ranklab/ranklab/corpus"
)

// A folder of Markdown split at its headings: IDs from the path and the heading, titles from
// the heading.
func Example() {
	dir, _ := os.MkdirTemp("", "docs")
	defer os.RemoveAll(dir)
	os.WriteFile(filepath.Join(dir, "channels.md"), []byte("# Channels\n\nSend with <-.\n\n## Closing\n\nOnly the sender closes.\n"), 0o644)
	im, err := corpus.Import([]string{dir}, corpus.Options{SplitOn: "headings"})
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, d := range im.Docs {
		fmt.Printf("%s | %s | %s\n", d.ID, d.Title, d.Text)
	}
	// Output:
	// channels.md:channels | Channels | Send with <-.
	// channels.md:closing | Closing | Only the sender closes.
}
