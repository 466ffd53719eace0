package eval

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"

	"github.com/ranklab/ranklab/internal/sharedtest"
)

// TestNotebook08TrecEvalGraded is the check notebook 08 once ran in a cell: trec_eval's own
// reference case with graded qrels (grades −1..4), evaluated on the notebook's measures with -q,
// equals what trec_eval 10.0 printed, line for line (TestTrecEvalAnchors checks every case).
func TestNotebook08TrecEvalGraded(t *testing.T) {
	ref := filepath.Join(sharedtest.Path(t), "anchors", "trec_eval", "02_trec_graded")
	want, err := os.ReadFile(filepath.Join(ref, "out.base.v10.txt"))
	if err != nil {
		t.Fatal(err)
	}
	qrels, err := ReadQrelsFile(filepath.Join(ref, "qrels"))
	if err != nil {
		t.Fatal(err)
	}
	run, err := ReadRunFile(filepath.Join(ref, "run"))
	if err != nil {
		t.Fatal(err)
	}
	measures, err := ParseMeasures("P.5,10", "recall.5,10", "recip_rank", "ndcg_cut.5,10", "map", "Rprec")
	if err != nil {
		t.Fatal(err)
	}
	res, err := Evaluate(qrels, run, measures...)
	if err != nil {
		t.Fatal(err)
	}
	var got bytes.Buffer
	if err := (TrecFormat{PerQuery: true}).Write(&got, res); err != nil {
		t.Fatal(err)
	}
	if got.String() != string(want) {
		t.Errorf("differs from trec_eval 10.0's out.base.v10.txt:\n%s", sharedtest.LineDiff(got.String(), string(want)))
	}
}
