package retrieval

import (
	"math"
	"slices"
	"strings"
	"testing"
)

// TestSmallFloat checks the norm byte against Lucene's SmallFloat.intToByte4 worked by hand:
// lengths below 24 are exact; above, 24 + a float with a 3-bit mantissa (plus the implicit
// bit) of length − 24, rounded down.
func TestSmallFloat(t *testing.T) {
	tests := []struct {
		length, decoded int
	}{
		{0, 0}, {1, 1}, {23, 23}, {24, 24}, {31, 24 + 7}, {32, 24 + 8}, {39, 24 + 15},
		{40, 24 + 16}, {41, 24 + 16}, {42, 24 + (8+1)<<1}, {43, 24 + (8+1)<<1},
		{1000, 24 + (8+7)<<6}, // 976 = 0b1111010000 keeps its top 4 bits: 15 << 6
	}
	for _, tc := range tests {
		if got := byte4ToInt(intToByte4(tc.length)); got != tc.decoded {
			t.Errorf("byte4ToInt(intToByte4(%d)) = %d, want %d", tc.length, got, tc.decoded)
		}
	}
	if got := intToByte4(math.MaxInt32); got != 255 {
		t.Errorf("intToByte4(MaxInt32) = %d, want 255", got)
	}
	prev := 0
	for n := 0; n < 1<<16; n++ {
		d := byte4ToInt(intToByte4(n))
		if d > n || d < prev {
			t.Fatalf("length %d decodes to %d (previous %d): want monotone and rounded down", n, d, prev)
		}
		prev = d
	}
}

func analyzedUnit(terms ...string) unitTerms {
	return Analyzer{}.count(terms)
}

func TestIndexScores(t *testing.T) {
	long := strings.Fields(strings.Repeat("w ", 41))
	ix := newIndexAnalyzed(Anserini, []unitTerms{
		analyzedUnit("x", "y", "x"),
		analyzedUnit("y", "z"),
		analyzedUnit("z", "z", "z", "z"),
		analyzedUnit(long...),
	})
	const n = 4.0
	avgdl := (3 + 2 + 4 + 41) / n
	k1, b := 0.9, 0.4
	norm := func(dl float64) float64 { return k1 * (1 - b + b*dl/avgdl) }
	idf := func(df float64) float64 { return math.Log(1 + (n-df+0.5)/(df+0.5)) }

	t.Run("formula", func(t *testing.T) {
		// Query "x z z": z counts twice (Anserini's boost), "nope" is not indexed.
		scores, matched := ix.Scores([]string{"z", "x", "nope", "z"})
		want := []float64{
			idf(1) * 2 / (2 + norm(3)),
			2 * idf(2) * 1 / (1 + norm(2)),
			2 * idf(2) * 4 / (4 + norm(4)),
			0,
		}
		if !slices.Equal(matched, []int32{0, 1, 2}) {
			t.Errorf("matched = %v, want [0 1 2]", matched)
		}
		for i := range want {
			if math.Abs(scores[i]-want[i]) > 1e-12 {
				t.Errorf("score[%d] = %.15g, want %.15g", i, scores[i], want[i])
			}
		}
	})
	t.Run("lossy length", func(t *testing.T) {
		// 41 terms are stored as 40 (SmallFloat), as Lucene does.
		scores, _ := ix.Scores([]string{"w"})
		want := idf(1) * 41 / (41 + norm(40))
		if math.Abs(scores[3]-want) > 1e-12 {
			t.Errorf("score = %.15g, want %.15g (dl stored as 40)", scores[3], want)
		}
		if exact := idf(1) * 41 / (41 + norm(41)); math.Abs(scores[3]-exact) < 1e-9 {
			t.Errorf("score %.15g equals the exact-length score: the norm is not lossy", scores[3])
		}
	})
	t.Run("stats", func(t *testing.T) {
		if ix.Len() != 4 || ix.TotalTerms() != 50 || ix.AvgLength() != avgdl {
			t.Errorf("Len, TotalTerms, AvgLength = %d, %d, %g; want 4, 50, %g", ix.Len(), ix.TotalTerms(), ix.AvgLength(), avgdl)
		}
	})
	t.Run("empty query", func(t *testing.T) {
		scores, matched := ix.Scores(nil)
		if len(matched) != 0 || len(scores) != 4 || slices.Max(scores) != 0 {
			t.Errorf("Scores(nil) = %v, %v; want zeros and no match", scores, matched)
		}
	})
}

func TestNewIndexAnalyzes(t *testing.T) {
	a := mustEnglish(t)
	ix := newInvIndex(a, Anserini, []string{"Running dogs", "The cat runs", ""})
	scores, matched := ix.Scores(a.Terms("run"))
	if !slices.Equal(matched, []int32{0, 1}) || scores[0] <= 0 || scores[2] != 0 {
		t.Errorf("matched %v scores %v: want units 0 and 1 to match the stem run", matched, scores)
	}
	// Unit 1 has 2 terms (the is a stop word), unit 0 has 2 terms: equal lengths, equal tf.
	if scores[0] != scores[1] {
		t.Errorf("scores %v: want equal scores for equal tf and length", scores)
	}
}

func mustEnglish(t testing.TB) Analyzer {
	t.Helper()
	a, err := English()
	if err != nil {
		t.Fatal(err)
	}
	return a
}
