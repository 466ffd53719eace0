package compare

import (
	"bytes"
	"encoding/gob"

	"github.com/ranklab/ranklab/eval"
)

// A Report travels through encoding/gob (nb.Cache keeps one between notebook cells): its
// measures are interface values, so their concrete types are registered (eval.Measure here,
// rag.BudgetMeasure in package rag), and runSummary encodes its unexported values itself.
func init() { gob.Register(eval.Measure{}) }

// runSummaryGob is runSummary with every field exported, for encoding/gob.
type runSummaryGob struct {
	Name                string
	ScoredZero, Ignored []string
	Values              [][]float64
	Means               []Estimate
}

// GobEncode encodes s with its per-measure values (for encoding/gob).
func (s runSummary) GobEncode() ([]byte, error) {
	var b bytes.Buffer
	err := gob.NewEncoder(&b).Encode(runSummaryGob{s.Name, s.ScoredZero, s.Ignored, s.values, s.means})
	return b.Bytes(), err
}

// GobDecode decodes what GobEncode wrote.
func (s *runSummary) GobDecode(data []byte) error {
	var g runSummaryGob
	if err := gob.NewDecoder(bytes.NewReader(data)).Decode(&g); err != nil {
		return err
	}
	*s = runSummary{Name: g.Name, ScoredZero: g.ScoredZero, Ignored: g.Ignored, values: g.Values, means: g.Means}
	return nil
}
