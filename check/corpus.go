package check

import (
	"cmp"
	"encoding/binary"
	"fmt"
	"hash/fnv"
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"unicode"

	"github.com/ranklab/ranklab/eval"
	"github.com/ranklab/ranklab/retrieval"
)

// Twins: the collection check of a corpus (ranklab check --corpus), apart from the preflight of
// qrels and runs. Documents with the same text under different IDs make a correct hit count as
// a miss when only one of them is judged (mteb#4626).
//
// Text. A document's text is its title, a space and its text, lower-cased (Unicode), with
// every run of white space made one space and the ends trimmed. Documents whose own text holds
// no word, titled or not (a heading with nothing under it), are listed apart (Empty), as corpus
// import and the judging panel count them, and take part in nothing else.
//
// Exact twins: documents with equal texts, reported as groups (Exact), never as pairs, so 8,000
// copies of one boilerplate page are one group of 8,000 IDs, not 32 million pairs.
//
// Near twins: pairs of distinct texts whose sets of word 5-shingles (every run of 5 consecutive
// words; a text of fewer than 5 words is one shingle, itself) have a Jaccard similarity of at
// least Threshold (default 0.9):
//
//	J(A, B) = |S(A) ∩ S(B)| / |S(A) ∪ S(B)|
//
// A pair of texts stands for their exact groups: Near names each by its group's first ID (the
// group's other IDs are its exact twins). Up to 2,000 distinct texts (and 4·10⁸ shingle
// comparisons: (texts − 1) · all their shingles), every pair is verified (Method "exhaustive"). Beyond, candidates come from MinHash with locality-sensitive hashing
// (Method "minhash"), shaped for the threshold: h_i(s) = mix(fnv64a(s) XOR seed_i) (mix:
// SplitMix64's finaliser, seeds from PCG(24, 0), so the same corpus gives the same candidates on
// every machine), the signature sig_i(A) = min over the shingles of h_i, cut into b bands of r
// rows; two texts are candidates when they agree on every row of at least one band. A pair with
// Jaccard J becomes a candidate with probability 1 − (1 − J^r)^b; r is the largest and b the
// smallest with b·r ≤ 200 and a miss at J = Threshold below 10⁻⁶ (Miss, the bound reached):
// 8 rows × 25 bands at 0.9, 2 × 49 at 0.5, 1 × 39 at 0.3. Every candidate is verified by its
// exact Jaccard, so no pair below the threshold is reported. A threshold no such shape reaches
// (below about 0.067) is refused when there are more than 2,000 texts (Refused says why, and
// nothing else is computed).
//
// Judged docs with no text are listed (EmptyJudged): a judge graded a document whose text is
// empty, which no retriever can match on its text.
//
// Judged docs with an unjudged twin: for each query of the qrels and each doc it judges (grade
// >= 0), every exact twin of the doc, and every member of a group near the doc's group, that
// the query does not judge. At most 20 are listed for one judged pair (TwinPairs); the others
// are counted (TwinPairsOmitted).

// TwinOptions are the settings of Twins; the zero value is the default.
type TwinOptions struct {
	Threshold float64 // near twins: Jaccard >= Threshold (0: 0.9)
}

// nearTwin is a pair of near twins (A < B in byte order) and their exact Jaccard similarity.
type nearTwin struct {
	A       string  `json:"a"`
	B       string  `json:"b"`
	Jaccard float64 `json:"jaccard"`
}

// twinPair is a judged doc of a query with a twin the query does not judge.
type twinPair struct {
	Query string `json:"query"`
	Doc   string `json:"doc"`
	Grade int    `json:"grade"`
	Twin  string `json:"twin,omitempty"`
	Exact bool   `json:"exact"` // an exact twin (else a near one)
}

// TwinReport is what Twins finds (and ranklab check --corpus's preflight, with File and Findings).
type TwinReport struct {
	File       string     `json:"file,omitempty"`     // the corpus file (the preflight)
	Findings   []Finding  `json:"findings,omitempty"` // the preflight's findings, each with its line
	Docs       int        `json:"docs"`
	Empty      []string   `json:"empty"`      // IDs of documents with no text
	Exact      [][]string `json:"exact"`      // groups of exact twins, each sorted, groups by their first ID
	Near       []nearTwin `json:"near"`       // near twins (groups by their first ID), by A then B
	Candidates int        `json:"candidates"` // candidate pairs of texts verified
	Threshold  float64    `json:"threshold"`
	Method     string     `json:"method"`            // "exhaustive" (every pair of texts verified) or "minhash"
	Bands      int        `json:"bands,omitempty"`   // minhash: bands ...
	Rows       int        `json:"rows,omitempty"`    // ... of rows
	Miss       float64    `json:"miss,omitempty"`    // minhash: the chance a pair at the threshold is missed
	Refused    string     `json:"refused,omitempty"` // why near twins were not searched (a threshold no shape serves)
	// With qrels:
	Judged           int        `json:"judged"`             // judged pairs (grade >= 0) of docs in the corpus
	Unknown          []string   `json:"unknown"`            // judged doc IDs absent from the corpus
	EmptyJudged      []twinPair `json:"empty_judged"`       // judged pairs whose doc has no text (Twin empty)
	TwinPairs        []twinPair `json:"twin_pairs"`         // by query, doc, twin (at most 20 per judged pair)
	TwinPairsOmitted int        `json:"twin_pairs_omitted"` // unjudged twins beyond the 20 listed per judged pair
	JudgedWithTwin   int        `json:"judged_with_twin"`   // judged pairs with at least one unjudged twin
	RelevantTwin     int        `json:"relevant_with_twin"` // of those, pairs with a grade >= 1
}

// normalText is a document's text as the twin checks compare it.
func normalText(d retrieval.Document) string {
	return strings.Join(strings.FieldsFunc(strings.ToLower(d.Title+" "+d.Text), unicode.IsSpace), " ")
}

const (
	shingleWords    = 5
	maxHashes       = 200  // MinHash functions at most (bands · rows)
	maxMiss         = 1e-6 // the chance a pair at the threshold may be missed
	exhaustiveTexts = 2000 // up to this many distinct texts, every pair is verified ...
	exhaustiveWork  = 4e8  // ... unless that means merging more shingles than this
	maxTwinsListed  = 20   // unjudged twins listed per judged pair
)

// lshShape returns the rows r (largest) and bands b (smallest) with b·r <= maxHashes whose
// chance to miss a pair at Jaccard t, (1 − t^r)^b, is below maxMiss; ok is false when none is.
func lshShape(t float64) (bands, rows int, miss float64, ok bool) {
	for r := maxHashes; r >= 1; r-- {
		p := math.Pow(t, float64(r))
		if p <= 0 {
			continue
		}
		bf := 1.0
		if p < 1 {
			bf = max(1, math.Ceil(math.Log(maxMiss)/math.Log1p(-p)))
		}
		if bf*float64(r) <= maxHashes {
			b := int(bf)
			return b, r, math.Pow(1-p, bf), true
		}
	}
	return 0, 0, 1, false
}

// shingles returns the distinct word 5-shingles of a normalised text, as 64-bit hashes
// (fnv64a of the shingle's text), sorted.
func shingles(text string) []uint64 {
	words := strings.Split(text, " ")
	n := len(words) - shingleWords + 1
	if n < 1 {
		n = 1
	}
	out := make([]uint64, 0, n)
	for i := range n {
		h := fnv.New64a()
		h.Write([]byte(strings.Join(words[i:min(i+shingleWords, len(words))], " ")))
		out = append(out, h.Sum64())
	}
	slices.Sort(out)
	return slices.Compact(out)
}

// mix is SplitMix64's finaliser.
func mix(x uint64) uint64 {
	x ^= x >> 30
	x *= 0xbf58476d1ce4e5b9
	x ^= x >> 27
	x *= 0x94d049bb133111eb
	return x ^ x>>31
}

// jaccard is |a ∩ b| / |a ∪ b| of two sorted sets.
func jaccard(a, b []uint64) float64 {
	i, j, inter := 0, 0, 0
	for i < len(a) && j < len(b) {
		switch {
		case a[i] == b[j]:
			inter++
			i++
			j++
		case a[i] < b[j]:
			i++
		default:
			j++
		}
	}
	return float64(inter) / float64(len(a)+len(b)-inter)
}

// Twins finds the exact and near twins of docs and, with qrels (nil: none), the judged docs
// that have a twin the same query does not judge. Memory grows with the documents, the groups
// and the near pairs found, never with the pairs inside a group.
func Twins(docs []retrieval.Document, qrels eval.Qrels, opt TwinOptions) TwinReport {
	if opt.Threshold == 0 {
		opt.Threshold = 0.9
	}
	r := TwinReport{Docs: len(docs), Threshold: opt.Threshold}
	// Groups of equal texts: group[i] is doc i's group (-1: no text), members[g] its docs.
	group := make([]int, len(docs))
	byText := map[string]int{}
	var members [][]int
	var texts []string // one per group
	for i, d := range docs {
		t := normalText(d)
		if strings.TrimSpace(d.Text) == "" {
			r.Empty = append(r.Empty, d.ID)
			group[i] = -1
			continue
		}
		g, ok := byText[t]
		if !ok {
			g = len(members)
			byText[t] = g
			members = append(members, nil)
			texts = append(texts, t)
		}
		group[i] = g
		members[g] = append(members[g], i)
	}
	byText = nil
	ids := make([][]string, len(members)) // each group's IDs, sorted
	for g, m := range members {
		ids[g] = make([]string, len(m))
		for k, i := range m {
			ids[g][k] = docs[i].ID
		}
		slices.Sort(ids[g])
		if len(m) > 1 {
			r.Exact = append(r.Exact, ids[g])
		}
	}
	slices.SortFunc(r.Exact, func(a, b []string) int { return cmp.Compare(a[0], b[0]) })

	near := r.nearGroups(texts, opt.Threshold) // pairs of groups
	nearOf := map[int][]int{}
	for _, p := range near {
		nearOf[p[0]] = append(nearOf[p[0]], p[1])
		nearOf[p[1]] = append(nearOf[p[1]], p[0])
		a, b := ids[p[0]][0], ids[p[1]][0]
		if a > b {
			a, b = b, a
		}
		r.Near = append(r.Near, nearTwin{a, b, jaccard(shingles(texts[p[0]]), shingles(texts[p[1]]))})
	}
	slices.SortFunc(r.Near, func(a, b nearTwin) int { return cmp.Or(cmp.Compare(a.A, b.A), cmp.Compare(a.B, b.B)) })
	if qrels == nil {
		return r
	}
	index := make(map[string]int, len(docs))
	for i, d := range docs {
		index[d.ID] = i
	}
	unknown := map[string]bool{}
	queries := make([]string, 0, len(qrels))
	for q := range qrels {
		queries = append(queries, q)
	}
	slices.Sort(queries)
	for _, q := range queries {
		judged := qrels[q]
		jd := make([]string, 0, len(judged))
		for d, g := range judged {
			if g >= 0 {
				jd = append(jd, d)
			}
		}
		slices.Sort(jd)
		for _, d := range jd {
			i, ok := index[d]
			if !ok {
				unknown[d] = true
				continue
			}
			r.Judged++
			g := group[i]
			if g < 0 {
				r.EmptyJudged = append(r.EmptyJudged, twinPair{Query: q, Doc: d, Grade: judged[d]})
				continue
			}
			type twin struct {
				id    string
				exact bool
			}
			var ts []twin
			unjudged := func(t string) bool {
				gr, ok := judged[t]
				return t != d && (!ok || gr < 0)
			}
			for _, t := range ids[g] {
				if unjudged(t) {
					ts = append(ts, twin{t, true})
				}
			}
			for _, h := range nearOf[g] {
				for _, t := range ids[h] {
					if unjudged(t) {
						ts = append(ts, twin{t, false})
					}
				}
			}
			if len(ts) == 0 {
				continue
			}
			slices.SortFunc(ts, func(a, b twin) int { return cmp.Compare(a.id, b.id) })
			r.JudgedWithTwin++
			if judged[d] >= 1 {
				r.RelevantTwin++
			}
			for k, t := range ts {
				if k == maxTwinsListed {
					r.TwinPairsOmitted += len(ts) - k
					break
				}
				r.TwinPairs = append(r.TwinPairs, twinPair{q, d, judged[d], t.id, t.exact})
			}
		}
	}
	for d := range unknown {
		r.Unknown = append(r.Unknown, d)
	}
	slices.Sort(r.Unknown)
	return r
}

// nearGroups returns the pairs of texts (by index) whose Jaccard is at least t: every pair when
// there are few texts, else the MinHash candidates of lshShape(t), each verified. It sets the
// method fields of r.
func (r *TwinReport) nearGroups(texts []string, t float64) [][2]int {
	sh := make([][]uint64, len(texts))
	for k, text := range texts {
		sh[k] = shingles(text)
	}
	var out [][2]int
	shingleCount := 0
	for _, s := range sh {
		shingleCount += len(s)
	}
	if len(texts) <= exhaustiveTexts && (len(texts)-1)*shingleCount <= exhaustiveWork {
		r.Method = "exhaustive"
		for x := range texts {
			for y := x + 1; y < len(texts); y++ {
				r.Candidates++
				// J <= min/max of the set sizes: a pair too unequal in size cannot reach t.
				if a, b := float64(len(sh[x])), float64(len(sh[y])); min(a, b) < t*max(a, b) {
					continue
				}
				if jaccard(sh[x], sh[y]) >= t {
					out = append(out, [2]int{x, y})
				}
			}
		}
		return out
	}
	bands, rows, miss, ok := lshShape(t)
	r.Method = "minhash"
	if !ok {
		r.Refused = fmt.Sprintf("no MinHash shape of at most %d hashes finds the pairs at Jaccard %g with a miss below %g among %d texts: choose a threshold of 0.07 or more", maxHashes, t, maxMiss, len(texts))
		return nil
	}
	r.Bands, r.Rows, r.Miss = bands, rows, miss
	seeds := make([]uint64, bands*rows)
	pcg := rand.New(rand.NewPCG(24, 0))
	for i := range seeds {
		seeds[i] = pcg.Uint64()
	}
	// keys[k][b]: text k's band b, hashed. Two texts share a bucket of band b when their keys
	// there are equal; a pair is verified in the first band where they share one.
	keys := make([][]uint64, len(texts))
	row := make([]byte, 8*rows)
	for k := range texts {
		keys[k] = make([]uint64, bands)
		for b := range bands {
			for i := range rows {
				m := uint64(math.MaxUint64)
				seed := seeds[b*rows+i]
				for _, s := range sh[k] {
					m = min(m, mix(s^seed))
				}
				binary.LittleEndian.PutUint64(row[8*i:], m)
			}
			h := fnv.New64a()
			h.Write(row)
			keys[k][b] = h.Sum64()
		}
	}
	for b := range bands {
		buckets := map[uint64][]int32{}
		for k := range texts {
			buckets[keys[k][b]] = append(buckets[keys[k][b]], int32(k))
		}
		for _, ks := range buckets {
			for i := range ks {
			pairs:
				for j := i + 1; j < len(ks); j++ {
					x, y := ks[i], ks[j]
					for e := range b {
						if keys[x][e] == keys[y][e] {
							continue pairs // verified in band e already
						}
					}
					r.Candidates++
					if a, b := float64(len(sh[x])), float64(len(sh[y])); min(a, b) < t*max(a, b) {
						continue
					}
					if jaccard(sh[x], sh[y]) >= t {
						out = append(out, [2]int{int(x), int(y)})
					}
				}
			}
		}
	}
	return out
}
