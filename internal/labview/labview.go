// Package labview declares the parts of the lab's display (View). Their one list is package
// charts' (its fragments are its own, charts/panels.go): the notebook panels (charts.LabPanels)
// and the live panel's regions and tabs (package live, through charts.LabViews) all come from it,
// so adding a view to the lab is one entry there.
package labview

import "github.com/ranklab/ranklab/lab"

// A View is one part of the lab's display.
type View struct {
	Key   string                   // a stable name: "cards", "ranking", "at-k", ...
	Tab   string                   // the live panel's tab label; "" = shown above the tabs, always visible
	Panel string                   // the notebook panel that shows Full: "ranking" or "chunking"
	Uses  Uses                     // the state fields the view depends on (the live panel re-sends it only when they change)
	Full  func(lab.Outcome) string // the fragment in the notebook panels (nil: not there)
	Live  func(lab.Outcome) string // the live panel's compact fragment (nil: not there)
}

// Uses says which of a lab.State's fields a view depends on.
type Uses int

const (
	Ranking  Uses = 1 << iota // every field but Corpus, Chunk and Overlap
	Chunking                  // Corpus, Chunk and Overlap
)
