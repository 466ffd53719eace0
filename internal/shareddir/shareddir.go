// Package shareddir finds the shared folder that sits beside the repository (../shared next to
// the folder holding go.mod): the trec_eval reference cases and the real collections. Package nb
// (nb.Shared) and retrieval's collection loaders (Archive.Load) find it through Find.
package shareddir

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
)

// Find returns the path of elem inside the shared folder. The search for go.mod starts in the
// notebook's folder (GoNB's GONB_DIR), else in the working directory. When the path does not
// exist the error says where it looked; the messages start with prefix ("nb", "retrieval").
func Find(prefix string, elem ...string) (string, error) {
	dir := os.Getenv("GONB_DIR")
	if dir == "" {
		var err error
		if dir, err = os.Getwd(); err != nil {
			return "", err
		}
	}
	root, err := filepath.Abs(dir)
	if err != nil {
		return "", err
	}
	for {
		if _, err := os.Stat(filepath.Join(root, "go.mod")); err == nil {
			break
		}
		parent := filepath.Dir(root)
		if parent == root {
			return "", fmt.Errorf("%s: no go.mod in %s or above it, so no repository to find ../shared beside", prefix, dir)
		}
		root = parent
	}
	p := filepath.Join(append([]string{filepath.Dir(root), "shared"}, elem...)...)
	if _, err := os.Stat(p); err != nil {
		return "", fmt.Errorf("%s: %s is not here (the shared folder beside the repository %s): %w", prefix, p, root, errors.Unwrap(err))
	}
	return p, nil
}
