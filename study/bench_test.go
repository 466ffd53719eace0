package study

import (
	"testing"

	"github.com/ranklab/ranklab/internal/sharedtest"
	"github.com/ranklab/ranklab/retrieval"
)

// BenchmarkSweepSciFact times the whole SciFact sweep (11 configurations) and reports the
// seconds per stage: go test -run - -bench SweepSciFact -benchtime 1x ./study
func BenchmarkSweepSciFact(b *testing.B) {
	c, err := retrieval.ReadCollection(sharedtest.Path(b, "data", "scifact"), "test")
	if err != nil {
		b.Fatal(err)
	}
	var st Stages
	for b.Loop() {
		sw, err := RunSweep(c, SweepOptions{})
		if err != nil {
			b.Fatal(err)
		}
		st.add(sw.Stages)
	}
	n := float64(b.N)
	b.ReportMetric(st.Tokenize.Seconds()/n, "tokenize-s")
	b.ReportMetric(st.Index.Seconds()/n, "index-s")
	b.ReportMetric(st.Search.Seconds()/n, "search-s")
	b.ReportMetric(st.Evaluate.Seconds()/n, "evaluate-s")
	b.ReportMetric(st.Total().Seconds()/n, "total-s")
}
