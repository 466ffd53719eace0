package retrieval

import (
	"math"
	"math/bits"
	"runtime"
	"slices"
	"sync"
)

// BM25 holds the two parameters of Lucene's BM25 ranking function (the formula of Lucene 8 and
// later, which Anserini uses):
//
//	score(q, u) = Σ_{t ∈ q} n(t, q) · idf(t) · tf(t, u) / (tf(t, u) + k1 · (1 − b + b · dl(u) / avgdl))
//	idf(t)      = ln(1 + (N − df(t) + 0.5) / (df(t) + 0.5))
//
// where n(t, q) is how often t occurs in the analyzed query (Anserini's bag-of-words query
// gives a repeated term a boost equal to its count), N the number of units, df(t) the number
// of units holding t, tf(t, u) the count of t in u, avgdl the mean unit length (total terms /
// N, exact), and dl(u) the unit's length as Lucene stores it: the count of terms after stop
// words are removed, squeezed into one byte by SmallFloat.intToByte4 and decoded again
// (exact up to 23 terms, then rounded down to 4 significant bits: 24, 25, ..., 40, 42, 44,
// ...). The (k1 + 1) factor of the textbook formula is dropped, as Lucene 8 does; it scales
// every score alike and leaves the ranking unchanged. Scores are computed in float64 where
// Lucene uses float32, so scores agree to about 7 digits and ties may differ.
//
// Why not bleve's BM25: bleve v2.6.3 (scoring model "bm25", scorch only) takes the "average
// field length" to be unique terms per document and its statistics move with the indexing
// batch size, so its scores cannot reproduce Anserini's published figures (SciFact nDCG@10
// varies between 0.674 and 0.684 with the batch size). This package uses bleve only for text
// analysis.
type BM25 struct {
	K1, B float64
}

// Anserini is the BM25 setting of Anserini's BEIR regressions: k1 = 0.9, b = 0.4.
var Anserini = BM25{K1: 0.9, B: 0.4}

// invIndex is an in-memory inverted index of units (whole documents or chunks), each unit one
// field of analyzed terms, scored with BM25 (see its doc for the formula) or QLDirichlet. It is
// immutable once built and safe for concurrent searches.
type invIndex struct {
	params     BM25
	terms      map[string]int32
	postings   [][]posting // by term ID, units ascending
	cf         []int64     // by term ID: occurrences in all units (collection frequency)
	norms      []uint8     // per unit: intToByte4(length)
	sumTF      int64
	lengthNorm [256]float64 // by norm byte: k1 · (1 − b + b · dl / avgdl)
}

type posting struct {
	unit, tf int32
}

// unitTerms is one analyzed unit: its distinct terms with counts, and its length.
type unitTerms struct {
	terms  []string
	tfs    []int32
	length int
}

// newInvIndex analyzes texts with a and indexes each as one unit; unit i is texts[i].
// Analysis runs on all CPUs; the index does not depend on their number.
func newInvIndex(a Analyzer, p BM25, texts []string) *invIndex {
	analyzed := make([]unitTerms, len(texts))
	workers := min(runtime.GOMAXPROCS(0), max(1, len(texts)))
	var wg sync.WaitGroup
	for w := range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := w; i < len(texts); i += workers {
				analyzed[i] = a.unit(texts[i])
			}
		}()
	}
	wg.Wait()
	return newIndexAnalyzed(p, analyzed)
}

// unit analyzes text into its distinct terms (in byte order) and counts.
func (a Analyzer) unit(text string) unitTerms {
	return a.count(a.Terms(text))
}

// count groups terms into distinct terms (byte order) with counts; terms is reordered.
func (Analyzer) count(terms []string) unitTerms {
	slices.Sort(terms)
	u := unitTerms{length: len(terms)}
	for i := 0; i < len(terms); {
		j := i + 1
		for j < len(terms) && terms[j] == terms[i] {
			j++
		}
		u.terms = append(u.terms, terms[i])
		u.tfs = append(u.tfs, int32(j-i))
		i = j
	}
	return u
}

func newIndexAnalyzed(p BM25, units []unitTerms) *invIndex {
	ix := &invIndex{params: p, terms: map[string]int32{}, norms: make([]uint8, len(units))}
	for u, ut := range units {
		ix.norms[u] = intToByte4(ut.length)
		ix.sumTF += int64(ut.length)
		for i, t := range ut.terms {
			id, ok := ix.terms[t]
			if !ok {
				id = int32(len(ix.postings))
				ix.terms[t] = id
				ix.postings = append(ix.postings, nil)
				ix.cf = append(ix.cf, 0)
			}
			ix.cf[id] += int64(ut.tfs[i])
			ix.postings[id] = append(ix.postings[id], posting{unit: int32(u), tf: ut.tfs[i]})
		}
	}
	avgdl := ix.AvgLength()
	for b := range ix.lengthNorm {
		dl := float64(byte4ToInt(uint8(b)))
		ix.lengthNorm[b] = p.K1 * (1 - p.B + p.B*dl/avgdl)
	}
	return ix
}

// Len returns the number of units.
func (ix *invIndex) Len() int { return len(ix.norms) }

// TotalTerms returns the number of terms indexed (stop words excluded), summed over units.
func (ix *invIndex) TotalTerms() int64 { return ix.sumTF }

// AvgLength returns avgdl, the exact mean number of terms per unit (0 for an empty index).
func (ix *invIndex) AvgLength() float64 {
	if len(ix.norms) == 0 {
		return 0
	}
	return float64(ix.sumTF) / float64(len(ix.norms))
}

// IDF returns Lucene's idf of a term held by df of the index's units:
//
//	idf = ln(1 + (N − df + 0.5) / (df + 0.5))
func (ix *invIndex) IDF(df int) float64 {
	n := float64(len(ix.norms))
	return math.Log(1 + (n-float64(df)+0.5)/(float64(df)+0.5))
}

// queryTerms groups analyzed query terms into distinct terms (byte order) with counts,
// keeping only terms the index holds. The fixed order makes score sums reproducible.
func (ix *invIndex) queryTerms(terms []string) (ids []int32, counts []float64) {
	terms = slices.Clone(terms)
	slices.Sort(terms)
	for i := 0; i < len(terms); {
		j := i + 1
		for j < len(terms) && terms[j] == terms[i] {
			j++
		}
		if id, ok := ix.terms[terms[i]]; ok {
			ids = append(ids, id)
			counts = append(counts, float64(j-i))
		}
		i = j
	}
	return ids, counts
}

// Scores returns the BM25 score of every unit for the analyzed query terms (the formula
// in the BM25 doc), as a slice indexed by unit, and the units that match at least one
// term, in ascending order. Units that match no term score 0.
func (ix *invIndex) Scores(terms []string) (scores []float64, matched []int32) {
	return ix.scoresBM25(terms, &ix.lengthNorm)
}

// scoresWith is Scores with the parameters p instead of the index's own: only the length
// normalisation k1 · (1 − b + b · dl / avgdl) depends on them, so p's table is computed here
// (256 entries) when p differs from the index's.
func (ix *invIndex) scoresWith(terms []string, p BM25) ([]float64, []int32) {
	if p == ix.params {
		return ix.Scores(terms)
	}
	var norm [256]float64
	avgdl := ix.AvgLength()
	for b := range norm {
		norm[b] = p.K1 * (1 - p.B + p.B*float64(byte4ToInt(uint8(b)))/avgdl)
	}
	return ix.scoresBM25(terms, &norm)
}

// scoresBM25 scores every unit with the length normalisation table lengthNorm.
func (ix *invIndex) scoresBM25(terms []string, lengthNorm *[256]float64) (scores []float64, matched []int32) {
	scores = make([]float64, len(ix.norms))
	seen := make([]bool, len(ix.norms))
	ids, counts := ix.queryTerms(terms)
	for i, id := range ids {
		post := ix.postings[id]
		w := counts[i] * ix.IDF(len(post))
		for _, p := range post {
			tf := float64(p.tf)
			scores[p.unit] += w * tf / (tf + lengthNorm[ix.norms[p.unit]])
			if !seen[p.unit] {
				seen[p.unit] = true
				matched = append(matched, p.unit)
			}
		}
	}
	slices.Sort(matched)
	return scores, matched
}

// intToByte4 is Lucene's SmallFloat.intToByte4: lengths below 24 are kept exactly, larger
// ones as a 4-bit-mantissa float (rounded down).
func intToByte4(i int) uint8 {
	const free = 24 // 255 − longToInt4(MaxInt32)
	if i < free {
		return uint8(i)
	}
	return uint8(free + longToInt4(uint64(i-free)))
}

// longToInt4 is Lucene's SmallFloat.longToInt4.
func longToInt4(i uint64) int {
	numBits := 64 - bits.LeadingZeros64(i)
	if numBits < 4 {
		return int(i)
	}
	shift := numBits - 4
	encoded := int(i>>uint(shift)) & 0x07
	return encoded | (shift+1)<<3
}

// byte4ToInt is Lucene's SmallFloat.byte4ToInt, the inverse of intToByte4 up to rounding.
func byte4ToInt(b uint8) int {
	const free = 24
	i := int(b)
	if i < free {
		return i
	}
	return free + int(int4ToLong(i-free))
}

// int4ToLong is Lucene's SmallFloat.int4ToLong.
func int4ToLong(i int) uint64 {
	bitsV := uint64(i & 0x07)
	shift := (i >> 3) - 1
	if shift == -1 {
		return bitsV
	}
	return (bitsV | 0x08) << uint(shift)
}
