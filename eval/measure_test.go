package eval

import (
	"math"
	"testing"
)

const u = Unjudged

func TestCompute(t *testing.T) {
	lg := math.Log2
	// A ranking of 6 docs: grades 0, 2, unjudged, 1, -1, 3; judged adds an unretrieved 2 and a 0.
	ranked := []int{0, 2, u, 1, -1, 3}
	judged := []int{0, 2, 1, -1, 3, 2, 0}
	// R = 4 (grades 2, 1, 3, 2); relevant at ranks 2, 4, 6.
	idealLin := 3/lg(2) + 2/lg(3) + 2/lg(4) + 1/lg(5)
	idealExp := 7/lg(2) + 3/lg(3) + 3/lg(4) + 1/lg(5)
	const eps = 0.00001
	tests := []struct {
		name string
		m    Measure
		want float64
	}{
		{"P@1", P(1), 0.0 / 1},
		{"P@2", P(2), 1.0 / 2},
		{"P@6", P(6), 3.0 / 6},
		{"P@10 divides by k beyond the list", P(10), 3.0 / 10},
		{"P(rel=2)@6", P(6).WithRel(2), 2.0 / 6},
		{"R@2", Recall(2), 1.0 / 4},
		{"R@100", Recall(100), 3.0 / 4},
		{"R whole", Recall(0), 3.0 / 4},
		{"R(rel=3)@6", Recall(6).WithRel(3), 1.0 / 1},
		{"RR", RR(), 1.0 / 2},
		{"RR@1", RRAt(1), 0},
		{"RR@2", RRAt(2), 1.0 / 2},
		{"RR(rel=3)", RR().WithRel(3), 1.0 / 6},
		{"AP", AP(), (1.0/2 + 2.0/4 + 3.0/6) / 4},
		{"AP@4", APAt(4), (1.0/2 + 2.0/4) / 4},
		{"AP(rel=2)", AP().WithRel(2), (1.0/2 + 2.0/6) / 3},
		{"nDCG@3", NDCG(3), (2 / lg(3)) / (3/lg(2) + 2/lg(3) + 2/lg(4))},
		{"nDCG whole", NDCG(0), (2/lg(3) + 1/lg(5) + 3/lg(7)) / idealLin},
		{"nDCG@6", NDCG(6), (2/lg(3) + 1/lg(5) + 3/lg(7)) / idealLin},
		{"nDCG(dcg=exp-log2)@6", NDCGExp(6), (3/lg(3) + 1/lg(5) + 7/lg(7)) / idealExp},
		{"Rprec", Rprec(), 2.0 / 4},
		{"Rprec(rel=3)", Rprec().WithRel(3), 0.0 / 1},
		// judged non-relevant (0 <= g < 1): N = 2. Ranked: 0 (nonrel=1), 2 (term 1-1/2),
		// 1 (term 1-1/2), 3 (term 1-1/2); unjudged and -1 skipped.
		{"Bpref", Bpref(), 3 * (1 - 1.0/2) / 4},
		// rel=2: non-relevant are 0 <= g < 2: N = 3 (two 0s and the 1); ranked 0 then 2 (1-1/3),
		// 1 (nonrel 2), 3 (1-2/3).
		{"Bpref(rel=2)", Bpref().WithRel(2), ((1 - 1.0/3) + (1 - 2.0/3)) / 3},
		{"Success@1", Success(1), 0},
		{"Success@2", Success(2), 1},
		{"Judged@3", Judged(3), 2.0 / 3},
		// ir_measures divides by min(k, n) = 6 when the ranking is shorter than k.
		{"Judged@10", Judged(10), 5.0 / 6},
		// ERR: stop chances R(2) = 3/16, R(1) = 1/16, R(3) = 7/16 at ranks 2, 4, 6.
		{"ERR@1", ERR(1), 0},
		{"ERR@2", ERR(2), (3.0 / 16) / 2},
		{"ERR@6", ERR(6), (3.0/16)/2 + (1.0/16)/4*(13.0/16) + (7.0/16)/6*(13.0/16)*(15.0/16)},
		{"NumQ", Measure{Name: nameNumQ}, 1},
		{"NumRet", Measure{Name: nameNumRet}, 6},
		{"NumRel", Measure{Name: nameNumRel}, 4},
		{"NumRel(rel=2)", Measure{Name: nameNumRel}.WithRel(2), 3},
		{"NumRelRet", Measure{Name: nameNumRelRet}, 3},
		// trec_eval's other measures on the same ranking: codes 0, 2, NP, 1, UJ, 3.
		{"infAP", InfAP(), (1.0/2 + (1.0/2)*(1.0/1)*(eps/(1+2*eps)) +
			1.0/4 + (3.0/4)*(2.0/3)*((1+eps)/(2+2*eps)) +
			1.0/6 + (5.0/6)*(4.0/5)*((2+eps)/(3+2*eps))) / 4},
		{"binG", Measure{Name: nameBinG}, (1/lg(3) + 1/lg(4) + 1/lg(5)) / 4},
		{"yaap", Measure{Name: nameYAAP}, math.Log((1 + 1.5) / (1 + 4 - 1.5))},
		{"SetP", Measure{Name: nameSetP}, 3.0 / 6},
		{"SetP(relative=True)", Measure{Name: nameSetP, Param: "relative=True"}, 3.0 / 4},
		{"SetR", Measure{Name: nameSetR}, 3.0 / 4},
		{"SetAP", Measure{Name: nameSetAP}, 3.0 * 3 / (6 * 4)},
		{"SetF", Measure{Name: nameSetF}, 2 * 0.5 * 0.75 / (0.5 + 0.75)},
		{"SetF(beta=0.5)", Measure{Name: nameSetF, Param: "0.5"}, 1.5 * 0.5 * 0.75 / (0.5*0.5 + 0.75)},
		{"num_nonrel_judged_ret", Measure{Name: nameNumNonrelJudgedRet}, 6 - 1 - 1 - 3},
		{"unj@5", Measure{Name: nameUnj, Cutoff: 5}, 2.0 / 5},
		{"unj@10", Measure{Name: nameUnj, Cutoff: 10}, 2.0 / 10},
		{"relative_P@2", Measure{Name: nameRelativeP, Cutoff: 2}, 1.0 / 2},
		{"relative_P@10", Measure{Name: nameRelativeP, Cutoff: 10}, 3.0 / 4},
		{"utility", Measure{Name: nameUtility}, 1*3 - 1*(6-3)},
		{"utility.2,-1,0.5,1", Measure{Name: nameUtility, Param: "2,-1,0.5,1"}, 2*3 - 1*(6-3) + 0.5*(4-3) + 1*(0+3-6-4)},
		// Gains = grade / 3 (the largest judged grade), as trec_eval 10.0 normalises to [0, 1].
		{"rbp", Measure{Name: nameRBP}, 0.1 * (2.0/3*0.9 + 1.0/3*math.Pow(0.9, 3) + 1*math.Pow(0.9, 5))},
		{"RBP(rel=1)", Measure{Name: nameRBP, Param: "p=0.8"}.WithRel(1), 0.2 * (0.8 + math.Pow(0.8, 3) + math.Pow(0.8, 5))},
		{"rbp_resid", Measure{Name: nameRBPResid}, math.Pow(0.9, 6) + 0.1*(math.Pow(0.9, 2)+math.Pow(0.9, 4))},
		// K = round(x·R): x = 0.5 → 2, the largest precision at or below rank 4.
		{"IPrec@0.5", IPrec(0.5), math.Max(2.0/4, math.Max(2.0/5, 3.0/6))},
		{"IPrec@1", IPrec(1), 0}, // K = 4 > 3 relevant retrieved
		{"11pt_avg", ElevenPtAvg(""), 9 * 0.5 / 11},
		{"Rprec_mult.0.5", Measure{Name: nameRprecMult, Param: "0.5"}, 1.0 / 2}, // K = trunc(0.5·4+0.9) = 2
		{"Rprec_mult.2", Measure{Name: nameRprecMult, Param: "2"}, 3.0 / 8},     // K = 8 > n: RR_n / 8
		{"dcg", Measure{Name: nameDCG}, 2/lg(3) + 1/lg(5) + 3/lg(7)},
		{"ideal_dcg", Measure{Name: nameIdealDCG}, idealLin},
		{"ndcg.1=10", Measure{Name: nameNDCG, Param: "1=10"}, (2/lg(3) + 10/lg(5) + 3/lg(7)) / (10/lg(2) + 3/lg(3) + 2/lg(4) + 2/lg(5))},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if err := tc.m.Validate(); err != nil {
				t.Fatal(err)
			}
			got := tc.m.Compute(ranked, judged)
			if math.Abs(got-tc.want) > 1e-12 {
				t.Errorf("%+v = %v, want %v", tc.m, got, tc.want)
			}
		})
	}
}

func TestComputeEdges(t *testing.T) {
	all := []Measure{P(5), Recall(5), RR(), RRAt(3), AP(), APAt(3), NDCG(5), NDCG(0), NDCGExp(5),
		Rprec(), Bpref(), Success(5), Judged(5), ERR(5), Measure{Name: nameNumRel}, Measure{Name: nameNumRelRet}}
	t.Run("R=0 gives 0 everywhere", func(t *testing.T) {
		ranked := []int{0, u, -1, 0}
		judged := []int{0, -1, 0}
		for _, m := range all {
			if m.Name == nameJudged {
				continue // not a relevance measure: 3 of the 4 are judged
			}
			if got := m.Compute(ranked, judged); got != 0 {
				t.Errorf("%+v = %v, want 0", m, got)
			}
		}
	})
	t.Run("empty ranking", func(t *testing.T) {
		judged := []int{1, 2}
		for _, m := range all {
			want := 0.0
			if m.Name == nameNumRel {
				want = 2
			}
			if got := m.Compute(nil, judged); got != want {
				t.Errorf("%+v = %v, want %v", m, got, want)
			}
		}
	})
	t.Run("negative grades are never relevant and have no gain", func(t *testing.T) {
		ranked := []int{-3, 1}
		judged := []int{-3, 1}
		if got, want := P(2).Compute(ranked, judged), 1.0/2; got != want {
			t.Errorf("P@2 = %v, want %v", got, want)
		}
		if got, want := NDCG(2).Compute(ranked, judged), (1/math.Log2(3))/1; math.Abs(got-want) > 1e-15 {
			t.Errorf("nDCG@2 = %v, want %v", got, want)
		}
		if got, want := Bpref().Compute(ranked, judged), 1.0; got != want {
			t.Errorf("bpref = %v, want %v", got, want)
		}
	})
	t.Run("ERR's scale grows past grade 4", func(t *testing.T) {
		// The query's top grade 5 makes the scale 2^5: R(5) = 31/32, R(2) = 3/32.
		ranked := []int{2, 5}
		judged := []int{2, 5}
		if got, want := ERR(2).Compute(ranked, judged), 3.0/32+(31.0/32)/2*(29.0/32); math.Abs(got-want) > 1e-15 {
			t.Errorf("ERR@2 = %v, want %v", got, want)
		}
	})
	t.Run("relevant docs all unretrieved", func(t *testing.T) {
		ranked := []int{0, u}
		judged := []int{0, 1, 1}
		for _, m := range []Measure{P(5), Recall(5), RR(), AP(), NDCG(5), Rprec(), Bpref(), Success(5)} {
			if got := m.Compute(ranked, judged); got != 0 {
				t.Errorf("%+v = %v, want 0", m, got)
			}
		}
	})
	t.Run("inputs are not modified", func(t *testing.T) {
		ranked := []int{1, 3, 2}
		judged := []int{1, 3, 2, 4}
		for _, m := range all {
			m.Compute(ranked, judged)
		}
		if ranked[0] != 1 || ranked[1] != 3 || ranked[2] != 2 || judged[0] != 1 || judged[1] != 3 || judged[3] != 4 {
			t.Errorf("inputs changed: %v %v", ranked, judged)
		}
	})
}

func TestValidate(t *testing.T) {
	bad := []Measure{{Name: "P"}, {Name: "Success"}, {Name: "Rprec", Cutoff: 3}, {Name: "nope"},
		{Name: "AP", Cutoff: -1}, {Name: "P", Cutoff: 5, Exp: true}, {Name: "nDCG", Rel: 2}, {Name: "P", Cutoff: 1, Rel: -1}}
	for _, m := range bad {
		if m.Validate() == nil {
			t.Errorf("%+v: Validate accepted it", m)
		}
	}
}
