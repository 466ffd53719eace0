package eval

import (
	"cmp"
	"fmt"
	"io"
	"slices"

	"github.com/ranklab/ranklab/internal/scan"
)

// prefsByQuery holds preference judgments (trec_eval's -R prefs): query ID → its judgments.
type prefsByQuery map[string][]pref

// pref is one line of a preferences file: doc Doc has level Level in judgment sub-group JSG of
// judgment group JG. Within a sub-group a doc with a higher level is preferred to one with a
// lower level; level 0 means non-relevant, above 0 relevant.
type pref struct {
	JG, JSG, Doc string
	Level        float64
}

// parsePrefs reads trec_eval's preferences format: one line a judgment, exactly 5 fields
//
//	query-id judgment-group sub-group doc-id level
//
// with level a decimal number. Comments, byte-order mark and errors are as for ReadQrels
// (a level error for a level that is not a finite decimal number).
func parsePrefs(r io.Reader, name string) (prefsByQuery, error) {
	return readPrefs(r, name, 5)
}

// parseQrelsPrefs reads a qrels file as preferences, as trec_eval's -R qrels_prefs does: the
// iteration field is the judgment group, all judgments of a group are in one sub-group, and the
// grade is the level (a decimal number here).
func parseQrelsPrefs(r io.Reader, name string) (prefsByQuery, error) {
	return readPrefs(r, name, 4)
}

func readPrefs(r io.Reader, name string, fields int) (prefsByQuery, error) {
	p := prefsByQuery{}
	want := "5 (query-id judgment-group sub-group doc-id level)"
	if fields == 4 {
		want = "4 (query-id judgment-group doc-id level)"
	}
	err := readRecords(r, name, fields, want, "no judgment", func(f [][]byte, line int) error {
		level, ok := scan.Float(f[fields-1])
		if !ok {
			return parseErr(name, line, errLevel, "%s", quoteField(f[fields-1]))
		}
		pr := pref{JG: string(f[1]), JSG: "0", Doc: string(f[fields-2]), Level: level}
		if fields == 5 {
			pr.JSG = string(f[2])
		}
		p[string(f[0])] = append(p[string(f[0])], pr)
		return nil
	})
	if err != nil {
		return nil, err
	}
	return p, nil
}

// evaluatePrefs computes the preference measures (and runid, num_q) of trec_eval -R prefs for
// each query of prefs, as trec_eval 10.0 does. For one query, the run's docs are ranked by
// score descending, ties by doc ID ascending (trec_eval's order for preferences), and cut to
// Depth; the NJR judged docs retrieved take the ids 0..NJR-1 in rank order, the judged docs not
// retrieved the next ids in doc ID order. In each judgment group (JG) every preference a > b
// (a at a higher level than b in one sub-group, closed transitively when a group has several
// sub-groups) is counted as fulfilled when a ranks above b among the retrieved docs (ful_ret),
// implied-fulfilled when only a is retrieved (ful_imp), possible otherwise (poss_ret: both
// retrieved, poss_imp: only b, notoccur: neither), with poss_ret and poss_imp counting their
// fulfilled ones too. Then, summed over the JGs of the query:
//
//	prefs_num_prefs_poss    = poss_ret + poss_imp + notoccur      (sums on the "all" line)
//	prefs_num_prefs_ful     = ful_ret + ful_imp
//	prefs_num_prefs_ful_ret = ful_ret
//	prefs_simp     = (ful_ret + ful_imp) / (poss_ret + poss_imp + notoccur)
//	prefs_simp_ret = ful_ret / poss_ret
//	prefs_simp_imp = (ful_ret + ful_imp) / (poss_ret + poss_imp)
//	prefs_avgjg, _ret, _imp = the mean over JGs of the same ratios (0 when their sum is 0)
//	prefs_pair     = the mean over doc pairs with a preference in some JG of
//	                 C(a,b) / (C(a,b) + C(b,a)), C the number of JGs preferring a to b, a the
//	                 higher-ranked (retrieved) doc; pairs of unretrieved docs count 0
//	prefs_pair_ret = the same over pairs of retrieved docs; prefs_pair_imp over pairs with a
//	                 retrieved doc
//	prefs_avgjg_Rnonrel(_ret) = prefs_avgjg(_ret) with only the first R non-relevant docs of
//	                 each JG counted (R its number of relevant docs; retrieved ones for _ret),
//	                 or R - N extra fulfilled preferences per relevant doc when R >= N
//
// (ratios are 0 when their denominator is). A doc given two levels in one sub-group, or 0 and
// a positive level in one group, and preferences of a group that contradict each other are
// errors. Queries: as Evaluate.
func (opt Options) evaluatePrefs(prefs prefsByQuery, run Run, measures ...Measure) (Result, error) {
	ev, err := newEvaluator(measures, opt, inPrefs)
	if err != nil {
		return Result{}, err
	}
	rowFor := func(q string, docs []ScoredDoc) (row, error) {
		pq, err := newPrefsQuery(q, prefs[q], rankDocs(docs, opt.TrecEval9, true), opt.Depth)
		if err != nil {
			return row{}, err
		}
		r := row{vals: make([]float64, len(ev.cs))}
		for j, c := range ev.cs {
			switch c.m.Name {
			case nameNumQ:
				r.vals[j] = 1
			case nameRunID:
			default:
				r.vals[j] = pq.value(c.m.Name)
			}
		}
		return r, nil
	}
	return ev.assembleSets(querySet(prefs), run, rowFor)
}

// jgCounts are the preference counts of one judgment group.
type jgCounts struct {
	fulRet, possRet, fulImp, possImp, notoccur int
	numRel, numRelRet, numNonrel, numNonrelRet int
	ecs                                        [][]int   // EC form: the docids of each level, levels descending
	pa                                         [][]bool  // array form: pa[i][j] = i preferred to j
	rel                                        []float64 // array form: each docid's level (-1: none)
}

// prefsQuery holds the counts of one query.
type prefsQuery struct {
	njr, nj int
	jgs     []jgCounts
	ca      []int32 // ca[i*nj+j]: the number of JGs preferring docid i to docid j
}

type prefRec struct {
	jg, jsg string
	level   float64
	doc     string
	id      int
}

// newPrefsQuery forms the counts of one query (trec_eval's form_prefs_counts).
func newPrefsQuery(qid string, prefs []pref, ranked []ScoredDoc, depth int) (*prefsQuery, error) {
	if depth > 0 && len(ranked) > depth {
		ranked = ranked[:depth]
	}
	judged := map[string]bool{}
	for _, p := range prefs {
		judged[p.Doc] = true
	}
	ids := map[string]int{}
	for _, d := range ranked {
		if judged[d.Doc] {
			ids[d.Doc] = len(ids)
		}
	}
	pq := &prefsQuery{njr: len(ids)}
	var unretrieved []string
	for d := range judged {
		if _, ok := ids[d]; !ok {
			unretrieved = append(unretrieved, d)
		}
	}
	slices.Sort(unretrieved)
	for _, d := range unretrieved {
		ids[d] = len(ids)
	}
	pq.nj = len(ids)
	recs := make([]prefRec, len(prefs))
	for i, p := range prefs {
		recs[i] = prefRec{jg: p.JG, jsg: p.JSG, level: p.Level, doc: p.Doc, id: ids[p.Doc]}
	}
	slices.SortStableFunc(recs, func(a, b prefRec) int {
		if c := cmp.Compare(a.jg, b.jg); c != 0 {
			return c
		}
		if c := cmp.Compare(a.jsg, b.jsg); c != 0 {
			return c
		}
		switch {
		case a.level > b.level:
			return -1
		case a.level < b.level:
			return 1
		}
		return a.id - b.id
	})
	pq.ca = make([]int32, pq.nj*pq.nj)
	for start := 0; start < len(recs); {
		end := start
		subGroups := 0
		for end < len(recs) && recs[end].jg == recs[start].jg {
			if end == start || recs[end].jsg != recs[end-1].jsg {
				subGroups++
			}
			end++
		}
		var jg jgCounts
		var err error
		if subGroups > 1 {
			err = pq.arrayJG(&jg, recs[start:end])
		} else {
			err = pq.ecJG(&jg, recs[start:end])
		}
		if err != nil {
			return nil, fmt.Errorf("evaluate: query %s: %w", quoteString(qid), err)
		}
		pq.jgs = append(pq.jgs, jg)
		start = end
	}
	return pq, nil
}

// ecJG counts a group with one sub-group: equivalence classes of equal level.
func (pq *prefsQuery) ecJG(jg *jgCounts, recs []prefRec) error {
	var levels []float64
	for i, r := range recs {
		if i == 0 || r.level != recs[i-1].level {
			jg.ecs = append(jg.ecs, nil)
			levels = append(levels, r.level)
		}
		jg.ecs[len(jg.ecs)-1] = append(jg.ecs[len(jg.ecs)-1], r.id)
	}
	njr := pq.njr
	for e1, ec := range jg.ecs {
		ret := 0
		for _, d := range ec {
			if d >= njr {
				break
			}
			ret++
		}
		if levels[e1] > 0 {
			jg.numRelRet += ret
			jg.numRel += len(ec)
		} else {
			jg.numNonrelRet += ret
			jg.numNonrel += len(ec)
		}
		for _, ec2 := range jg.ecs[e1+1:] {
			for _, d1 := range ec {
				for _, d2 := range ec2 {
					pq.ca[d1*pq.nj+d2]++
					if d1 == d2 {
						return fmt.Errorf("doc %s has two levels in one judgment sub-group", quoteString(docName(recs, d1)))
					}
					jg.count(d1, d2, njr)
				}
			}
		}
	}
	jg.close()
	return nil
}

// count counts one preference of doc id a over doc id b (ids below njr are retrieved, in rank
// order): fulfilled when a ranks above b (ful_ret) or only a is retrieved (ful_imp), possible
// when b ranks above a (poss_ret) or only b is retrieved (poss_imp), notoccur when neither is.
func (jg *jgCounts) count(a, b, njr int) {
	switch {
	case a < njr && b < njr && b < a:
		jg.possRet++
	case a < njr && b < njr:
		jg.fulRet++
	case a < njr:
		jg.fulImp++
	case b < njr:
		jg.possImp++
	default:
		jg.notoccur++
	}
}

// close makes poss_ret and poss_imp count their fulfilled preferences too.
func (jg *jgCounts) close() {
	jg.possRet += jg.fulRet
	jg.possImp += jg.fulImp
}

func docName(recs []prefRec, id int) string {
	for _, r := range recs {
		if r.id == id {
			return r.doc
		}
	}
	return ""
}

// arrayJG counts a group with several sub-groups: a preference array closed transitively.
func (pq *prefsQuery) arrayJG(jg *jgCounts, recs []prefRec) error {
	nj, njr := pq.nj, pq.njr
	jg.rel = make([]float64, nj)
	for i := range jg.rel {
		jg.rel[i] = -1
	}
	jg.pa = make([][]bool, nj)
	for i := range jg.pa {
		jg.pa[i] = make([]bool, nj)
	}
	for i, r := range recs {
		if (jg.rel[r.id] > 0 && r.level == 0) || (jg.rel[r.id] == 0 && r.level > 0) {
			return fmt.Errorf("doc %s has both 0 and non-0 levels in one judgment group", quoteString(r.doc))
		}
		jg.rel[r.id] = r.level
		j := i + 1
		for j < len(recs) && recs[j].jsg == r.jsg && recs[j].level == r.level {
			j++
		}
		for ; j < len(recs) && recs[j].jsg == r.jsg; j++ {
			jg.pa[r.id][recs[j].id] = true
		}
	}
	// Transitive closure (Warshall), then no doc is preferred to itself.
	for k := 0; k < nj; k++ {
		for i := 0; i < nj; i++ {
			if !jg.pa[i][k] {
				continue
			}
			rowK, rowI := jg.pa[k], jg.pa[i]
			for j := 0; j < nj; j++ {
				if rowK[j] {
					rowI[j] = true
				}
			}
		}
	}
	for i := 0; i < nj; i++ {
		jg.pa[i][i] = false
	}
	for i := 0; i < nj; i++ {
		for j := i + 1; j < nj; j++ {
			if jg.pa[i][j] && jg.pa[j][i] {
				return fmt.Errorf("preferences of one judgment group contradict each other (docs %s and %s)", quoteString(docName(recs, i)), quoteString(docName(recs, j)))
			}
		}
	}
	for i := 0; i < nj; i++ {
		switch {
		case jg.rel[i] > 0:
			jg.numRel++
			if i < njr {
				jg.numRelRet++
			}
		case jg.rel[i] == 0:
			jg.numNonrel++
			if i < njr {
				jg.numNonrelRet++
			}
		}
	}
	for i := 0; i < nj; i++ {
		for j := 0; j < nj; j++ {
			if !jg.pa[i][j] {
				continue
			}
			pq.ca[i*nj+j]++
			jg.count(i, j, njr)
		}
	}
	jg.close()
	return nil
}

// ratio is a/b, 0 when b is 0.
func ratio(a, b int) float64 {
	if b == 0 {
		return 0
	}
	return float64(a) / float64(b)
}

// value computes one preference measure.
func (pq *prefsQuery) value(name string) float64 {
	var ful, poss, fulRet, possRet, fulRetImp, possRetImp int
	for _, g := range pq.jgs {
		ful += g.fulRet + g.fulImp
		poss += g.possRet + g.possImp + g.notoccur
		fulRet += g.fulRet
		possRet += g.possRet
		possRetImp += g.possRet + g.possImp
	}
	fulRetImp = ful
	avg := func(f func(g jgCounts) (int, int)) float64 {
		sum := 0.0
		for _, g := range pq.jgs {
			if a, b := f(g); b != 0 {
				sum += float64(a) / float64(b)
			}
		}
		if sum > 0 {
			return sum / float64(len(pq.jgs))
		}
		return 0
	}
	switch name {
	case "prefs_num_prefs_poss":
		return float64(poss)
	case "prefs_num_prefs_ful":
		return float64(ful)
	case "prefs_num_prefs_ful_ret":
		return float64(fulRet)
	case "prefs_simp":
		return ratio(ful, poss)
	case "prefs_simp_ret":
		return ratio(fulRet, possRet)
	case "prefs_simp_imp":
		return ratio(fulRetImp, possRetImp)
	case "prefs_avgjg":
		return avg(func(g jgCounts) (int, int) { return g.fulRet + g.fulImp, g.possRet + g.possImp + g.notoccur })
	case "prefs_avgjg_ret":
		return avg(func(g jgCounts) (int, int) { return g.fulRet, g.possRet })
	case "prefs_avgjg_imp":
		return avg(func(g jgCounts) (int, int) { return g.fulRet + g.fulImp, g.possRet + g.possImp })
	case "prefs_pair":
		return pq.pair(true, true)
	case "prefs_pair_ret":
		return pq.pair(false, false)
	case "prefs_pair_imp":
		return pq.pair(true, false)
	case "prefs_avgjg_Rnonrel":
		return pq.rNonrel(false)
	case "prefs_avgjg_Rnonrel_ret":
		return pq.rNonrel(true)
	}
	panic("eval: unknown preference measure " + name)
}

// pair is prefs_pair (imp and notRet), prefs_pair_imp (imp) or prefs_pair_ret.
func (pq *prefsQuery) pair(imp, notRet bool) float64 {
	nj, njr := pq.nj, pq.njr
	sum, pairs := 0.0, 0
	term := func(i, j int) {
		a, b := pq.ca[i*nj+j], pq.ca[j*nj+i]
		if a != 0 || b != 0 {
			pairs++
			sum += float64(a) / float64(a+b)
		}
	}
	for i := 0; i < njr; i++ {
		for j := i + 1; j < njr; j++ {
			term(i, j)
		}
	}
	if imp {
		for i := 0; i < njr; i++ {
			for j := njr; j < nj; j++ {
				term(i, j)
			}
		}
	}
	if notRet {
		for i := njr; i < nj; i++ {
			for j := i + 1; j < nj; j++ {
				if pq.ca[i*nj+j] != 0 || pq.ca[j*nj+i] != 0 {
					pairs++
				}
			}
		}
	}
	if pairs == 0 {
		return 0
	}
	return sum / float64(pairs)
}

// rNonrel is prefs_avgjg_Rnonrel, or with ret prefs_avgjg_Rnonrel_ret (trec_eval's
// m_prefs_avgjg_Rnonrel*.c, its recalculation followed literally).
func (pq *prefsQuery) rNonrel(ret bool) float64 {
	sum := 0.0
	for i := range pq.jgs {
		g := &pq.jgs[i]
		R, N := g.numRel, g.numNonrel
		if ret {
			R, N = g.numRelRet, g.numNonrelRet
		}
		var ful, poss int
		if R >= N {
			if ret {
				ful, poss = g.fulRet, g.possRet
			} else {
				ful, poss = g.fulRet+g.fulImp, g.possRet+g.possImp+g.notoccur
			}
			ful += g.numRelRet * (R - N)
			poss += g.numRel * (R - N)
		} else {
			ful, poss = pq.recalculate(g, ret)
		}
		sum += float64(ful) / float64(poss) // 0/0 is NaN, which the test below rejects, as in C
	}
	if sum > 0 {
		return sum / float64(len(pq.jgs))
	}
	return 0
}

// recalculate counts a group's preferences keeping only its first R non-relevant docs.
func (pq *prefsQuery) recalculate(g *jgCounts, ret bool) (ful, poss int) {
	njr, nj := pq.njr, pq.nj
	if g.ecs != nil {
		keep := g.numRel
		if ret {
			keep = g.numRelRet
		}
		last := g.ecs[len(g.ecs)-1]
		nonrel := last[:min(keep, len(last))]
		count := func(a, b []int) {
			for _, d1 := range a {
				if ret && d1 >= njr {
					break
				}
				for _, d2 := range b {
					if ret && d2 >= njr {
						break
					}
					if d1 < d2 && (ret || d1 < njr) {
						ful++
					} else {
						poss++
					}
				}
			}
		}
		for e1 := range g.ecs {
			for e2 := e1 + 1; e2 < len(g.ecs)-1; e2++ {
				count(g.ecs[e1], g.ecs[e2])
			}
		}
		for e1 := range g.ecs {
			count(g.ecs[e1], nonrel)
		}
		return ful, poss + ful
	}
	limit := nj
	if ret {
		limit = njr
	}
	seen, first := 0, 0
	for first = 0; first < limit; first++ {
		if g.rel[first] == 0 {
			seen++
			if seen == g.numRel+1 {
				break
			}
		}
	}
	dropped := func(i int) bool { return i >= first && g.rel[i] == 0 }
	for i := 0; i < njr; i++ {
		if dropped(i) {
			continue
		}
		for j := 0; j < njr; j++ {
			if j == i || dropped(j) || !g.pa[i][j] {
				continue
			}
			if j < i {
				poss++
			} else {
				ful++
			}
		}
		if !ret {
			for j := njr; j < nj; j++ {
				if !dropped(j) && g.pa[i][j] {
					ful++
				}
			}
		}
	}
	if !ret {
		for i := njr; i < nj; i++ {
			if dropped(i) {
				continue
			}
			for j := 0; j < nj; j++ {
				if !dropped(j) && g.pa[i][j] {
					poss++
				}
			}
		}
	}
	return ful, poss + ful
}
