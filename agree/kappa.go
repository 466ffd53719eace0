package agree

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"sort"

	"github.com/ranklab/ranklab/eval"
	"github.com/ranklab/ranklab/internal/quantile"
	"gonum.org/v1/gonum/stat/distuv"
)

// weighting is the weighting of a κ; it prints as "unweighted", "linear" or "quadratic" (Agreement
// holds one Kappa of each).
type weighting int

const (
	weightNone      weighting = iota // w_ij = 0 on the diagonal, 1 elsewhere
	weightLinear                     // w_ij = |i − j|
	weightQuadratic                  // w_ij = (i − j)²
)

func (w weighting) String() string {
	switch w {
	case weightNone:
		return "unweighted"
	case weightLinear:
		return "linear"
	case weightQuadratic:
		return "quadratic"
	}
	return fmt.Sprintf("weighting(%d)", int(w))
}

// weight is w_ij of the package doc.
func (w weighting) weight(i, j int) float64 {
	d := float64(i - j)
	switch w {
	case weightLinear:
		return math.Abs(d)
	case weightQuadratic:
		return d * d
	}
	if i == j {
		return 0
	}
	return 1
}

// confusion returns the confusion matrix of the paired grades a and b over labels (sorted,
// distinct): m[i][j] counts the k with a[k] = labels[i] and b[k] = labels[j]. It panics when
// a and b differ in length or hold a grade not in labels (a caller bug).
func confusion(a, b, labels []int) [][]int {
	if len(a) != len(b) {
		panic(fmt.Sprintf("agree: %d grades against %d", len(a), len(b)))
	}
	index := make(map[int]int, len(labels))
	for i, l := range labels {
		index[l] = i
	}
	m := make([][]int, len(labels))
	for i := range m {
		m[i] = make([]int, len(labels))
	}
	for k := range a {
		i, ok1 := index[a[k]]
		j, ok2 := index[b[k]]
		if !ok1 || !ok2 {
			panic(fmt.Sprintf("agree: grade pair (%d, %d) not in the labels %v", a[k], b[k], labels))
		}
		m[i][j]++
	}
	return m
}

// labelsOf returns the distinct grades of a and b, sorted.
func labelsOf(a, b []int) []int {
	l := slices.Concat(a, b)
	slices.Sort(l)
	return slices.Compact(l)
}

// cohenKappa returns Cohen's κ of the paired grades a and b with weights w over labels (nil:
// labelsOf(a, b)):
//
//	κ = 1 − Σ w_ij O_ij / Σ w_ij E_ij,  E_ij = row_i · col_j / n
//
// It equals scikit-learn's cohen_kappa_score(a, b, labels=labels, weights=w). NaN when there is
// no pair or Σ w_ij E_ij = 0.
func cohenKappa(a, b, labels []int, w weighting) float64 {
	if labels == nil {
		labels = labelsOf(a, b)
	}
	return kappaOf(confusion(a, b, labels), w)
}

// kappaOf is κ of a confusion matrix.
func kappaOf(m [][]int, w weighting) float64 {
	n := len(m)
	rows, cols := make([]float64, n), make([]float64, n)
	total := 0.0
	for i := range n {
		for j := range n {
			rows[i] += float64(m[i][j])
			cols[j] += float64(m[i][j])
			total += float64(m[i][j])
		}
	}
	if total == 0 {
		return math.NaN()
	}
	var observed, expected float64
	for i := range n {
		for j := range n {
			wij := w.weight(i, j)
			observed += wij * float64(m[i][j])
			expected += wij * rows[i] * cols[j] / total
		}
	}
	if expected == 0 {
		return math.NaN()
	}
	return 1 - observed/expected
}

// Kappa is one κ with its bootstrap interval (see the package doc).
type Kappa struct {
	Weights   weighting
	Value     float64 // NaN when undefined
	Low, High float64 // the percentile bootstrap interval at Options.Level
	Undefined int     // bootstrap resamples where κ was undefined (left out)
}

// Options are the settings of Judges and Systems; the zero value is the default of each field.
type Options struct {
	Threshold int          // binary κ: a grade >= Threshold is relevant (0: 1)
	Labels    []int        // κ's categories, sorted (nil: every grade either judge gave)
	Resamples int          // bootstrap resamples (0: 2000)
	Level     float64      // interval level (0: 0.95)
	Seed      uint64       // bootstrap seed
	Measure   eval.Measure // Systems' measure (zero: nDCG@10)
	Alpha     float64      // Systems' significance level, after Holm (0: 0.05)
	ByQuery   bool         // κ intervals resample queries with all their pairs, not pairs
}

func (o Options) withDefaults() Options {
	if o.Threshold == 0 {
		o.Threshold = 1
	}
	if o.Resamples == 0 {
		o.Resamples = 2000
	}
	if o.Level == 0 {
		o.Level = 0.95
	}
	if o.Measure == (eval.Measure{}) {
		o.Measure = eval.NDCG(10)
	}
	if o.Alpha == 0 {
		o.Alpha = 0.05
	}
	return o
}

// judgedPair is one pair both judges graded.
type judgedPair struct {
	Query, Doc string
	A, B       int
}

// Agreement is what Judges finds (see the package doc).
type Agreement struct {
	Pairs        []judgedPair // the pairs both judged, by query then doc (byte order)
	OnlyA, OnlyB int          // pairs only one judge graded
	Labels       []int        // the categories of Confusion and the weighted κ
	Confusion    [][]int      // Confusion[i][j]: A gave Labels[i], B gave Labels[j] (by grade: Count)
	Observed     float64      // the share of pairs with the same grade
	Threshold    int
	Binary       Kappa // unweighted κ of grade >= Threshold
	Unweighted   Kappa // κ over the grades
	Linear       Kappa
	Quadratic    Kappa
	Level        float64
}

// Count returns the number of pairs both judged that A graded a and B graded b: the cell of
// Confusion at the labels a and b, looked up by grade, never by position. A grade that is not
// one of Labels was given to no pair: 0.
func (ag Agreement) Count(a, b int) int {
	i, j := slices.Index(ag.Labels, a), slices.Index(ag.Labels, b)
	if i < 0 || j < 0 {
		return 0
	}
	return ag.Confusion[i][j]
}

// Judges compares the grades of a and b on the pairs both judged (grade >= 0 in both). It
// returns an error when they share no judged pair, when opt.Labels misses a grade given, or
// for an invalid option (Threshold < 0, Level outside (0, 1), Resamples < 0).
func Judges(a, b eval.Qrels, opt Options) (Agreement, error) {
	opt = opt.withDefaults()
	switch {
	case opt.Threshold < 0:
		return Agreement{}, fmt.Errorf("agree: threshold %d is negative", opt.Threshold)
	case !(opt.Level > 0 && opt.Level < 1):
		return Agreement{}, fmt.Errorf("agree: level %v not in (0, 1)", opt.Level)
	case opt.Resamples < 0:
		return Agreement{}, fmt.Errorf("agree: %d resamples", opt.Resamples)
	}
	ag := Agreement{Threshold: opt.Threshold, Level: opt.Level}
	for q, docs := range a {
		for d, ga := range docs {
			if ga < 0 {
				continue
			}
			if gb, ok := b[q][d]; ok && gb >= 0 {
				ag.Pairs = append(ag.Pairs, judgedPair{q, d, ga, gb})
			} else {
				ag.OnlyA++
			}
		}
	}
	for q, docs := range b {
		for d, gb := range docs {
			if ga, ok := a[q][d]; gb >= 0 && (!ok || ga < 0) {
				ag.OnlyB++
			}
		}
	}
	if len(ag.Pairs) == 0 {
		return Agreement{}, fmt.Errorf("agree: the judges share no judged pair (%d judged by A only, %d by B only)", ag.OnlyA, ag.OnlyB)
	}
	sort.Slice(ag.Pairs, func(i, j int) bool {
		p, q := ag.Pairs[i], ag.Pairs[j]
		if p.Query != q.Query {
			return p.Query < q.Query
		}
		return p.Doc < q.Doc
	})
	ga, gb := make([]int, len(ag.Pairs)), make([]int, len(ag.Pairs))
	same := 0
	for k, p := range ag.Pairs {
		ga[k], gb[k] = p.A, p.B
		if p.A == p.B {
			same++
		}
	}
	ag.Observed = float64(same) / float64(len(ag.Pairs))
	ag.Labels = labelsOf(ga, gb)
	if opt.Labels != nil {
		for _, l := range ag.Labels {
			if !slices.Contains(opt.Labels, l) {
				return Agreement{}, fmt.Errorf("agree: grade %d is not one of the labels %v", l, opt.Labels)
			}
		}
		ag.Labels = slices.Clone(opt.Labels)
		slices.Sort(ag.Labels)
		ag.Labels = slices.Compact(ag.Labels)
	}
	ag.Confusion = confusion(ga, gb, ag.Labels)
	if opt.ByQuery {
		group := make([]int, len(ag.Pairs))
		for k := 1; k < len(ag.Pairs); k++ {
			group[k] = group[k-1]
			if ag.Pairs[k].Query != ag.Pairs[k-1].Query {
				group[k]++
			}
		}
		ag.Binary, ag.Unweighted, ag.Linear, ag.Quadratic = bootstrapWith(ga, gb, ag.Labels, opt.Threshold, opt, drawQueries, group)
	} else {
		ag.Binary, ag.Unweighted, ag.Linear, ag.Quadratic = bootstrapKappas(ga, gb, ag.Labels, opt.Threshold, opt)
	}
	return ag, nil
}

// pcgStream is the second PCG seed word, the one package stats uses.
const pcgStream = 0x9e3779b97f4a7c15

// bootstrapKappas computes the binary κ (grade >= threshold) and the unweighted, linear and
// quadratic κ of the grades a and b over labels, each with its percentile bootstrap interval.
//
// A resample of n pairs drawn with replacement is known by its counts in the occupied cells of
// the confusion matrix, and its four κ follow from those counts in O(cells + labels)
// (resampleKappas). The counts are drawn either pair by pair (n draws) or, when the pairs fall in
// few cells (16 · cells < n), as one multinomial (cells conditional binomials, gonum's
// distuv.Binomial): the two have the same distribution. So a resample costs O(min(n, cells) +
// labels), not O(n + labels²): 1 M pairs over 4 grades, or 2,000 distinct grades.
func bootstrapKappas(a, b, labels []int, threshold int, opt Options) (binary, unweighted, linear, quadratic Kappa) {
	return bootstrapWith(a, b, labels, threshold, opt, drawAuto, nil)
}

// How a resample's cell counts are drawn: the cheaper way, pair by pair, or as a multinomial.
const (
	drawAuto = iota
	drawPairs
	drawMultinomial
	drawQueries // whole queries (group[k] is pair k's query, in order), with all their pairs
)

func bootstrapWith(a, b, labels []int, threshold int, opt Options, draw int, group []int) (binary, unweighted, linear, quadratic Kappa) {
	m := confusion(a, b, labels)
	cut := 0 // labels[cut:] are >= threshold
	for cut < len(labels) && labels[cut] < threshold {
		cut++
	}
	bm := [][]int{{0, 0}, {0, 0}}
	for i := range m {
		for j := range m[i] {
			bm[b2i(i >= cut)][b2i(j >= cut)] += m[i][j]
		}
	}
	ks := []*Kappa{&binary, &unweighted, &linear, &quadratic}
	ws := []weighting{weightNone, weightNone, weightLinear, weightQuadratic}
	for k, kp := range ks {
		v := kappaOf(m, ws[k])
		if k == 0 {
			v = kappaOf(bm, weightNone)
		}
		*kp = Kappa{Weights: ws[k], Value: v, Low: math.NaN(), High: math.NaN()}
	}
	rs := newResampler(m, cut)
	n := len(a)
	// Each pair as its cell, for the draws pair by pair.
	cellOf := make([]int32, 0, n)
	for c, cl := range rs.cells {
		for range cl.n {
			cellOf = append(cellOf, int32(c))
		}
	}
	multinomial := draw == drawMultinomial || (draw == drawAuto && 16*len(rs.cells) < n)
	// For drawQueries: each query's pairs as counts over the cells.
	var queries [][]cell // cell.i: the cell's index in rs.cells, cell.n: the query's pairs there
	if draw == drawQueries {
		index := map[[2]int]int{}
		for c, cl := range rs.cells {
			index[[2]int{cl.i, cl.j}] = c
		}
		li := map[int]int{}
		for i, l := range labels {
			li[l] = i
		}
		for k := range a {
			if k == 0 || group[k] != group[k-1] {
				queries = append(queries, nil)
			}
			c := index[[2]int{li[a[k]], li[b[k]]}]
			q := queries[len(queries)-1]
			if len(q) > 0 && q[len(q)-1].i == c {
				q[len(q)-1].n++
			} else {
				q = append(q, cell{i: c, n: 1})
			}
			queries[len(queries)-1] = q
		}
	}
	r := rand.New(rand.NewPCG(opt.Seed, pcgStream))
	binomial := distuv.Binomial{Src: r}
	counts := make([]int64, len(rs.cells))
	values := make([][]float64, len(ks))
	for range opt.Resamples {
		switch {
		case draw == drawQueries:
			clear(counts)
			for range queries {
				for _, cl := range queries[r.IntN(len(queries))] {
					counts[cl.i] += cl.n
				}
			}
		case multinomial:
			rs.multinomial(counts, int64(n), &binomial)
		default:
			clear(counts)
			for range n {
				counts[cellOf[r.IntN(n)]]++
			}
		}
		for k, v := range rs.kappas(counts) {
			if math.IsNaN(v) {
				ks[k].Undefined++
			} else {
				values[k] = append(values[k], v)
			}
		}
	}
	alpha := 1 - opt.Level
	for k, kp := range ks {
		if len(values[k]) > 0 {
			sort.Float64s(values[k])
			kp.Low, kp.High = quantile.Linear(values[k], alpha/2), quantile.Linear(values[k], 1-alpha/2)
		}
	}
	return binary, unweighted, linear, quadratic
}

// cell is an occupied cell (i, j) of a confusion matrix and its count.
type cell struct {
	i, j int
	n    int64
}

// resampler computes the κ of resamples given as counts over the cells of a confusion matrix.
type resampler struct {
	cells      []cell
	cut        int       // labels[cut:] are relevant (binary κ)
	rows, cols []float64 // scratch: the resample's row and column sums
}

func newResampler(m [][]int, cut int) *resampler {
	rs := &resampler{cut: cut, rows: make([]float64, len(m)), cols: make([]float64, len(m))}
	for i := range m {
		for j, c := range m[i] {
			if c > 0 {
				rs.cells = append(rs.cells, cell{i, j, int64(c)})
			}
		}
	}
	return rs
}

// multinomial draws into counts the cell counts of n pairs drawn with replacement: cell c's
// count is Binomial(draws left, its pairs / the pairs of the cells not drawn yet).
func (rs *resampler) multinomial(counts []int64, n int64, binomial *distuv.Binomial) {
	left, weight := n, n
	for c, cl := range rs.cells {
		switch {
		case left == 0:
			counts[c] = 0
		case cl.n == weight:
			counts[c] = left
		default:
			binomial.N, binomial.P = float64(left), float64(cl.n)/float64(weight)
			counts[c] = int64(binomial.Rand())
		}
		left -= counts[c]
		weight -= cl.n
	}
}

// kappas returns the binary, unweighted, linear and quadratic κ of the matrix whose occupied
// cells hold counts (κ = 1 − Σ w·O / Σ w·E, as kappaOf). Σ w·E = Σ_i r_i · W_i / t with
// W_i = Σ_j c_j w(i, j), which the weights give in one pass over the labels:
//
//	unweighted  W_i = t − c_i
//	linear      W_0 = Σ_j j·c_j,    W_{i+1} = W_i + C_≤i − (t − C_≤i)   (C_≤i = Σ_{j≤i} c_j)
//	quadratic   W_0 = Σ_j j²·c_j,   W_{i+1} = W_i + 2(i·t − Σ_j j·c_j) + t
//
// Every term is a sum of non-negative counts times distances: nothing cancels.
func (rs *resampler) kappas(counts []int64) [4]float64 {
	clear(rs.rows)
	clear(rs.cols)
	var t, obsNone, obsLinear, obsQuad float64
	var bin [2][2]float64
	for c, cl := range rs.cells {
		k := float64(counts[c])
		if k == 0 {
			continue
		}
		rs.rows[cl.i] += k
		rs.cols[cl.j] += k
		t += k
		if d := float64(cl.i - cl.j); d != 0 {
			obsNone += k
			obsLinear += math.Abs(d) * k
			obsQuad += d * d * k
		}
		bin[b2i(cl.i >= rs.cut)][b2i(cl.j >= rs.cut)] += k
	}
	var s1, s2 float64 // Σ j·c_j, Σ j²·c_j
	for j, c := range rs.cols {
		s1 += float64(j) * c
		s2 += float64(j) * float64(j) * c
	}
	var expNone, expLinear, expQuad float64
	wLin, wQuad, below := s1, s2, 0.0
	for i, r := range rs.rows {
		c := rs.cols[i]
		expNone += r * (t - c)
		expLinear += r * wLin
		expQuad += r * wQuad
		below += c
		wLin += below - (t - below)
		wQuad += 2*(float64(i)*t-s1) + t
	}
	kappa := func(observed, expected float64) float64 {
		if expected == 0 {
			return math.NaN()
		}
		return 1 - observed*t/expected
	}
	binObs := bin[0][1] + bin[1][0]
	binExp := (bin[0][0]+bin[0][1])*(bin[0][1]+bin[1][1]) + (bin[1][0]+bin[1][1])*(bin[0][0]+bin[1][0])
	return [4]float64{kappa(binObs, binExp), kappa(obsNone, expNone), kappa(obsLinear, expLinear), kappa(obsQuad, expQuad)}
}

func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}
