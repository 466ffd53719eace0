package check

import (
	"cmp"
	"encoding/binary"
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
// every run of white space made one space and the ends trimmed. Documents whose text is then
// empty are listed apart (Empty) and take part in nothing else.
//
// Exact twins: documents with equal texts.
//
// Near twins: pairs of documents, not exact twins, whose sets of word 5-shingles (every run of
// 5 consecutive words; a text of fewer than 5 words is one shingle, itself) have a Jaccard
// similarity of at least Threshold (default 0.9):
//
//	J(A, B) = |S(A) ∩ S(B)| / |S(A) ∪ S(B)|
//
// Candidates come from MinHash with locality-sensitive hashing: 100 hash functions h_i(s) =
// mix(fnv64a(s) XOR seed_i) (mix: SplitMix64's finaliser, seeds from PCG(24, 0), so the same
// corpus gives the same candidates on every machine), the signature sig_i(A) = min over the
// shingles of h_i, cut into 20 bands of 5 rows; two documents are candidates when they agree
// on every row of at least one band. A pair with Jaccard J becomes a candidate with probability
// 1 − (1 − J⁵)²⁰: 1 − 2·10⁻⁸ at J = 0.9, 0.47 at J = 0.5. Every candidate is then verified by
// its exact Jaccard, so no pair below the threshold is reported; a pair at or above it is
// missed with probability below 2·10⁻⁸.
//
// Judged docs with no text are listed (EmptyJudged): a judge graded a document whose text is
// empty, which no retriever can match on its text.
//
// Judged docs with an unjudged twin: for each query of the qrels and each doc it judges (grade
// >= 0), every exact or near twin of the doc that the query does not judge.

// TwinOptions are the settings of Twins; the zero value is the default.
type TwinOptions struct {
	Threshold float64 // near twins: Jaccard >= Threshold (0: 0.9)
}

// NearTwin is a pair of near twins (A < B in byte order) and their exact Jaccard similarity.
type NearTwin struct {
	A       string  `json:"a"`
	B       string  `json:"b"`
	Jaccard float64 `json:"jaccard"`
}

// TwinPair is a judged doc of a query with a twin the query does not judge.
type TwinPair struct {
	Query string `json:"query"`
	Doc   string `json:"doc"`
	Grade int    `json:"grade"`
	Twin  string `json:"twin,omitempty"`
	Exact bool   `json:"exact"` // an exact twin (else a near one)
}

// TwinReport is what Twins finds.
type TwinReport struct {
	Docs       int        `json:"docs"`
	Empty      []string   `json:"empty"`      // IDs of documents with no text
	Exact      [][]string `json:"exact"`      // groups of exact twins, each sorted, groups by their first ID
	Near       []NearTwin `json:"near"`       // near twins, by A then B
	Candidates int        `json:"candidates"` // candidate pairs verified
	Threshold  float64    `json:"threshold"`
	// With qrels:
	Judged         int        `json:"judged"`             // judged pairs (grade >= 0) of docs in the corpus
	Unknown        []string   `json:"unknown"`            // judged doc IDs absent from the corpus
	EmptyJudged    []TwinPair `json:"empty_judged"`       // judged pairs whose doc has no text (Twin empty)
	TwinPairs      []TwinPair `json:"twin_pairs"`         // by query, doc, twin
	JudgedWithTwin int        `json:"judged_with_twin"`   // judged pairs with at least one unjudged twin
	RelevantTwin   int        `json:"relevant_with_twin"` // of those, pairs with a grade >= 1
}

// normalText is a document's text as the twin checks compare it.
func normalText(d retrieval.Document) string {
	return strings.Join(strings.FieldsFunc(strings.ToLower(d.Title+" "+d.Text), unicode.IsSpace), " ")
}

const (
	shingleWords = 5
	bands        = 20
	rows         = 5
)

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
// that have a twin the same query does not judge.
func Twins(docs []retrieval.Document, qrels eval.Qrels, opt TwinOptions) TwinReport {
	if opt.Threshold == 0 {
		opt.Threshold = 0.9
	}
	r := TwinReport{Docs: len(docs), Threshold: opt.Threshold}
	texts := make([]string, len(docs))
	byText := map[string][]int{}
	var live []int // docs with a text
	for i, d := range docs {
		texts[i] = normalText(d)
		if texts[i] == "" {
			r.Empty = append(r.Empty, d.ID)
			continue
		}
		live = append(live, i)
		byText[texts[i]] = append(byText[texts[i]], i)
	}
	twins := map[string]map[string]bool{} // doc → its twins (exact: true)
	link := func(a, b string, exact bool) {
		for _, p := range [][2]string{{a, b}, {b, a}} {
			if twins[p[0]] == nil {
				twins[p[0]] = map[string]bool{}
			}
			twins[p[0]][p[1]] = exact
		}
	}
	for _, group := range byText {
		if len(group) < 2 {
			continue
		}
		ids := make([]string, len(group))
		for k, i := range group {
			ids[k] = docs[i].ID
		}
		slices.Sort(ids)
		r.Exact = append(r.Exact, ids)
		for x := range ids {
			for y := x + 1; y < len(ids); y++ {
				link(ids[x], ids[y], true)
			}
		}
	}
	slices.SortFunc(r.Exact, func(a, b []string) int { return cmp.Compare(a[0], b[0]) })

	// Near twins: one representative per distinct text, MinHash signatures, LSH bands.
	var reps []int
	for _, i := range live {
		if byText[texts[i]][0] == i {
			reps = append(reps, i)
		}
	}
	seeds := make([]uint64, bands*rows)
	pcg := rand.New(rand.NewPCG(24, 0))
	for i := range seeds {
		seeds[i] = pcg.Uint64()
	}
	sh := make([][]uint64, len(reps))
	buckets := make([]map[string][]int, bands)
	for b := range buckets {
		buckets[b] = map[string][]int{}
	}
	key := make([]byte, 8*rows)
	for k, i := range reps {
		sh[k] = shingles(texts[i])
		for b := range bands {
			for row := range rows {
				m := uint64(math.MaxUint64)
				seed := seeds[b*rows+row]
				for _, s := range sh[k] {
					m = min(m, mix(s^seed))
				}
				binary.LittleEndian.PutUint64(key[8*row:], m)
			}
			buckets[b][string(key)] = append(buckets[b][string(key)], k)
		}
	}
	seen := map[[2]int]bool{}
	for _, bucket := range buckets {
		for _, ks := range bucket {
			for x := range ks {
				for y := x + 1; y < len(ks); y++ {
					p := [2]int{ks[x], ks[y]}
					if seen[p] {
						continue
					}
					seen[p] = true
					j := jaccard(sh[p[0]], sh[p[1]])
					if j < opt.Threshold {
						continue
					}
					// Every doc of one text is a near twin of every doc of the other.
					for _, a := range byText[texts[reps[p[0]]]] {
						for _, b := range byText[texts[reps[p[1]]]] {
							ida, idb := docs[a].ID, docs[b].ID
							if ida > idb {
								ida, idb = idb, ida
							}
							r.Near = append(r.Near, NearTwin{ida, idb, j})
							link(ida, idb, false)
						}
					}
				}
			}
		}
	}
	r.Candidates = len(seen)
	slices.SortFunc(r.Near, func(a, b NearTwin) int { return cmp.Or(cmp.Compare(a.A, b.A), cmp.Compare(a.B, b.B)) })
	if qrels == nil {
		return r
	}
	inCorpus := make(map[string]bool, len(docs))
	for _, d := range docs {
		inCorpus[d.ID] = true
	}
	empty := map[string]bool{}
	for _, id := range r.Empty {
		empty[id] = true
	}
	unknown := map[string]bool{}
	queries := make([]string, 0, len(qrels))
	for q := range qrels {
		queries = append(queries, q)
	}
	slices.Sort(queries)
	for _, q := range queries {
		judged := qrels[q]
		ids := make([]string, 0, len(judged))
		for d, g := range judged {
			if g >= 0 {
				ids = append(ids, d)
			}
		}
		slices.Sort(ids)
		for _, d := range ids {
			if !inCorpus[d] {
				unknown[d] = true
				continue
			}
			r.Judged++
			if empty[d] {
				r.EmptyJudged = append(r.EmptyJudged, TwinPair{Query: q, Doc: d, Grade: judged[d]})
			}
			var ts []string
			for t := range twins[d] {
				if g, ok := judged[t]; !ok || g < 0 {
					ts = append(ts, t)
				}
			}
			if len(ts) == 0 {
				continue
			}
			slices.Sort(ts)
			r.JudgedWithTwin++
			if judged[d] >= 1 {
				r.RelevantTwin++
			}
			for _, t := range ts {
				r.TwinPairs = append(r.TwinPairs, TwinPair{q, d, judged[d], t, twins[d][t]})
			}
		}
	}
	for d := range unknown {
		r.Unknown = append(r.Unknown, d)
	}
	slices.Sort(r.Unknown)
	return r
}
