// Package nb is the notebooks' plumbing, so that a cell shows the idea and not the error
// handling: Must and Check stop a cell with the error, Shared finds the project's shared data
// beside the repository, and Cache keeps a slow result from one cell for the next.
//
//	qrels := nb.Must(eval.ReadQrelsFile(path))
//	dir, err := nb.Shared("anchors", "trec_eval") // ../shared/anchors/trec_eval, or why not
//	sweep := nb.Cache("sweep-scifact", func() (study.Sweep, error) { ... })
//
// Outside a notebook (go test, a program) every function works the same, except that Cache
// computes every time.
package nb

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"

	"github.com/janpfeifer/gonb/cache"
)

// Must returns v, or panics with err when it is not nil: the cell stops and shows the error.
func Must[T any](v T, err error) T {
	Check(err)
	return v
}

// Check panics with err when it is not nil.
func Check(err error) {
	if err != nil {
		panic(err)
	}
}

// Shared returns the path of elem inside the shared folder that sits beside the repository
// (../shared next to the folder holding go.mod): the trec_eval reference cases and the real
// collections. The search starts in the notebook's folder (GoNB's GONB_DIR), else in the working
// directory. When the path does not exist the error says where it looked, so a cell can print it
// and skip what needs the data.
func Shared(elem ...string) (string, error) {
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
			return "", fmt.Errorf("nb: no go.mod in %s or above it, so no repository to find ../shared beside", dir)
		}
		root = parent
	}
	p := filepath.Join(append([]string{filepath.Dir(root), "shared"}, elem...)...)
	if _, err := os.Stat(p); err != nil {
		return "", fmt.Errorf("nb: %s is not here (the shared folder beside the repository %s): %w", p, root, errors.Unwrap(err))
	}
	return p, nil
}

// Cache returns the value computed by fn, computing it only once per kernel run: in a GoNB
// notebook the value is kept (gob-encoded, by GoNB's cache package) under key in the kernel's
// temporary folder, so later cells, each a new program, read it back instead of computing it
// again; restarting the kernel starts afresh, so a value never outlives the code that made it.
// Outside a notebook fn runs every time. An error from fn panics, as Must does. key must be
// usable as a file name.
func Cache[T any](key string, fn func() (T, error)) T {
	dir := os.Getenv("GONB_TMP_DIR")
	if dir == "" {
		return Must(fn())
	}
	store := Must(cache.New(filepath.Join(dir, "ranklab-nb-cache")))
	return cache.CacheWith(store, key, func() T { return Must(fn()) })
}
