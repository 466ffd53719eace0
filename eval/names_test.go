package eval

import (
	"slices"
	"strings"
	"testing"
)

func TestParseMeasure(t *testing.T) {
	tests := []struct {
		in, canon string
		want      Measure
	}{
		{"P@5", "P@5", P(5)},
		{"P(rel=2)@5", "P(rel=2)@5", P(5).WithRel(2)},
		{"R@100", "R@100", Recall(100)},
		{"RR", "RR", RR()},
		{"RR@10", "RR@10", RRAt(10)},
		{"AP", "AP", AP()},
		{"AP@100", "AP@100", APAt(100)},
		{"nDCG@10", "nDCG@10", NDCG(10)},
		{"nDCG(dcg=log2)@10", "nDCG@10", NDCG(10)},
		{"nDCG(dcg=exp-log2)@10", "nDCG(dcg=exp-log2)@10", NDCGExp(10)},
		{"nDCG", "nDCG", NDCG(0)},
		{"Rprec", "Rprec", Rprec()},
		{"Bpref", "Bpref", Bpref()},
		{"Success@10", "Success@10", Success(10)},
		{"Judged@10", "Judged@10", Judged(10)},
		{"NumQ", "NumQ", Measure{Name: nameNumQ}},
		{"NumRet", "NumRet", Measure{Name: nameNumRet}},
		{"NumRel", "NumRel", Measure{Name: nameNumRel}},
		{"NumRelRet", "NumRelRet", Measure{Name: nameNumRelRet}},
		{"NumRet(rel=1)", "NumRelRet(rel=1)", Measure{Name: nameNumRelRet}.WithRel(1)},
		{"AP(rel=3)@5", "AP(rel=3)@5", APAt(5).WithRel(3)},
	}
	for _, tc := range tests {
		t.Run(tc.in, func(t *testing.T) {
			got, err := ParseMeasure(tc.in)
			if err != nil {
				t.Fatal(err)
			}
			if got != tc.want {
				t.Errorf("got %+v, want %+v", got, tc.want)
			}
			if got.String() != tc.canon {
				t.Errorf("String() = %q, want %q", got.String(), tc.canon)
			}
			back, err := ParseMeasure(got.String())
			if err != nil || back != got {
				t.Errorf("round trip %q -> %+v, %v", got.String(), back, err)
			}
		})
	}
}

func TestParseMeasureErrors(t *testing.T) {
	for _, in := range []string{"", "P", "P@0", "P@-1", "P@x", "P@", "Rprec@5", "nDCG(rel=2)@5", "nDCG(dcg=exp)@5",
		"P(foo=1)@5", "P(rel=0)@5", "P(rel=1,rel=2)@5", "P(rel=1@5", "p@5", "Success", "AP()", "P@+5"} {
		if m, err := ParseMeasure(in); err == nil {
			t.Errorf("ParseMeasure(%q) = %+v, want an error", in, m)
		}
	}
	_, err := ParseMeasure("ndcg10")
	if err == nil || !strings.Contains(err.Error(), "accepted") || !strings.Contains(err.Error(), "nDCG@k") {
		t.Errorf("error %v does not list what is accepted", err)
	}
}

func TestParseTrecMeasures(t *testing.T) {
	def := []int{5, 10, 15, 20, 30, 100, 200, 500, 1000}
	cuts := func(f func(int) Measure, ks ...int) []Measure {
		var out []Measure
		for _, k := range ks {
			out = append(out, f(k))
		}
		return out
	}
	tests := []struct {
		in   []string
		want []Measure
	}{
		{[]string{"P.5,10"}, cuts(P, 5, 10)},
		{[]string{"P.10,5"}, cuts(P, 5, 10)},
		{[]string{"ndcg_cut.10,20,23.4"}, cuts(NDCG, 10, 20, 23)},
		{[]string{"P"}, cuts(P, def...)},
		{[]string{"recall.100"}, cuts(Recall, 100)},
		{[]string{"recall"}, cuts(Recall, def...)},
		{[]string{"recip_rank"}, []Measure{RR()}},
		{[]string{"ndcg_cut.10"}, cuts(NDCG, 10)},
		{[]string{"ndcg_cut"}, cuts(NDCG, def...)},
		{[]string{"ndcg"}, []Measure{NDCG(0)}},
		{[]string{"map"}, []Measure{AP()}},
		{[]string{"map_cut.100"}, cuts(APAt, 100)},
		{[]string{"Rprec", "bpref"}, []Measure{Rprec(), Bpref()}},
		{[]string{"success.1,5,10"}, cuts(Success, 1, 5, 10)},
		{[]string{"success"}, cuts(Success, 1, 5, 10)},
		{[]string{"num_q", "num_ret", "num_rel", "num_rel_ret"}, []Measure{Measure{Name: nameNumQ}, Measure{Name: nameNumRet}, Measure{Name: nameNumRel}, Measure{Name: nameNumRelRet}}},
		{[]string{"P_5", "ndcg_cut_10"}, []Measure{P(5), NDCG(10)}},
		{[]string{"P.5", "P@5", "nDCG@10", "ndcg_cut.10"}, []Measure{P(5), NDCG(10)}},
	}
	for _, tc := range tests {
		t.Run(strings.Join(tc.in, " "), func(t *testing.T) {
			got, err := ParseMeasures(tc.in...)
			if err != nil {
				t.Fatal(err)
			}
			if !slices.Equal(got, tc.want) {
				t.Errorf("got %v, want %v", got, tc.want)
			}
		})
	}
	for _, bad := range []string{"P.", "P.0", "P.a", "map.5", "ndcg_cut.5,x", "num_q.1", "mapp", "P.10,5,10", "P.1_000", "P.0x10", "P.-5"} {
		if m, err := ParseMeasures(bad); err == nil {
			t.Errorf("ParseMeasures(%q) = %v, want an error", bad, m)
		}
	}
}

func TestTrecNameAndOrder(t *testing.T) {
	ms, err := ParseMeasures("P.5,10", "recall.5,10", "recip_rank", "ndcg_cut.5,10", "map", "Rprec", "nDCG(dcg=exp-log2)@10",
		"num_q", "success.1", "bpref", "ndcg", "map_cut.5", "num_rel_ret", "RR@10")
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, m := range trecOrder(ms) {
		n, ok := m.TrecName()
		if !ok {
			n = "(" + m.String() + ")"
		}
		names = append(names, n)
	}
	want := []string{"num_q", "num_rel_ret", "map", "Rprec", "bpref", "recip_rank", "P_5", "P_10", "recall_5", "recall_10",
		"ndcg", "ndcg_cut_5", "ndcg_cut_10", "map_cut_5", "success_1", "(nDCG(dcg=exp-log2)@10)", "(RR@10)"}
	if !slices.Equal(names, want) {
		t.Errorf("order %v\nwant  %v", names, want)
	}
}

func FuzzParseMeasure(f *testing.F) {
	for _, s := range []string{"P@5", "P(rel=2)@5", "nDCG(dcg=exp-log2)@10", "RR", "NumRet(rel=1)", "P.5,10", "ndcg_cut_10", "(", "@", "P(rel=)@", "success", "ERR@10", "ERR"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, in string) {
		if m, err := ParseMeasure(in); err == nil {
			if m.Validate() != nil {
				t.Fatalf("ParseMeasure(%q) = invalid %+v", in, m)
			}
			back, err := ParseMeasure(m.String())
			if err != nil || back != m {
				t.Fatalf("round trip of %q: %q -> %+v, %v", in, m.String(), back, err)
			}
		}
		if ms, err := ParseMeasures(in); err == nil {
			for _, m := range ms {
				if m.Validate() != nil {
					t.Fatalf("ParseMeasures(%q) gave invalid %+v", in, m)
				}
			}
		}
	})
}
