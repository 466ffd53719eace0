package main

import (
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ranklab/ranklab/eval"
	"github.com/ranklab/ranklab/internal/sharedtest"
)

func TestFitThresholds(t *testing.T) {
	inf := math.Inf(1)
	for _, c := range []struct {
		name   string
		cos    []float64
		grades []int
		want   [3]float64
	}{
		// 10 pairs: 4 graded 0, 3 graded 1, 2 graded 2, 1 graded 3; F_1 = 4/10, F_2 = 7/10,
		// F_3 = 9/10: T_g = the cosines at sorted positions 4, 7 and 9.
		{"all grades", []float64{.9, .1, .8, .2, .7, .3, .6, .4, .5, .05},
			[]int{0, 0, 0, 0, 1, 1, 1, 2, 2, 3}, [3]float64{.4, .7, .9}},
		// No pair graded 3 (nor 2): T_2 = T_3 = +Inf, the judge never gives them.
		{"binary", []float64{.3, .2, .1, .4}, []int{0, 1, 0, 1}, [3]float64{.3, inf, inf}},
	} {
		t.Run(c.name, func(t *testing.T) {
			if got := fitThresholds(c.cos, c.grades); got != c.want {
				t.Errorf("fitThresholds = %v, want %v", got, c.want)
			}
			// On the sample, the judge gives each grade as often as the people did.
			count := func(gs []int) [4]int {
				var n [4]int
				for _, g := range gs {
					n[g]++
				}
				return n
			}
			th := fitThresholds(c.cos, c.grades)
			var judged []int
			for _, x := range c.cos {
				judged = append(judged, gradeOf(x, th))
			}
			if count(judged) != count(c.grades) {
				t.Errorf("grades given %v, people's %v", count(judged), count(c.grades))
			}
		})
	}
}

// TestDenseJudgeThroughAutojudge runs ranklab autojudge with ranklab densejudge as its judge
// process (the real model) on Cranfield: thresholds fitted on the pairs of 3 queries, then the
// same pairs judged: the judge gives each grade as often as Cranfield's people on them.
func TestDenseJudgeThroughAutojudge(t *testing.T) {
	needMiniLM(t)
	dir := sharedtest.Path(t, "data", "cranfield")
	qrels, err := eval.ReadQrelsFile(filepath.Join(dir, "qrels", "test.graded.tsv"))
	if err != nil {
		t.Fatal(err)
	}
	tmp := t.TempDir()
	var pool, sample strings.Builder
	people := [4]int{}
	for _, q := range []string{"1", "2", "3"} {
		// Each query's relevant documents and as many others.
		for d, g := range qrels[q] {
			fmt.Fprintf(&pool, "%s 0 %s -1\n", q, d)
			fmt.Fprintf(&sample, "%s 0 %s %d\n", q, d, min(g, 3))
			people[min(g, 3)]++
		}
		for i := 0; i < len(qrels[q]); i++ {
			d := fmt.Sprint(100 + 37*i + len(q))
			if _, ok := qrels[q][d]; !ok {
				fmt.Fprintf(&pool, "%s 0 %s -1\n", q, d)
				fmt.Fprintf(&sample, "%s 0 %s 0\n", q, d)
				people[0]++
			}
		}
	}
	poolFile := sharedtest.WriteFile(t, tmp, "pool.txt", pool.String())
	sampleFile := sharedtest.WriteFile(t, tmp, "sample.qrels", sample.String())
	out := filepath.Join(tmp, "dense.qrels")
	judgeCmd := fmt.Sprintf("%s=1 %s densejudge --fit %s --data %s", childEnv, os.Args[0], sampleFile, dir)
	if _, stderr, code := runCmd("autojudge", "--pool", poolFile, "--data", dir, "--judge", judgeCmd, "--out", out); code != 0 {
		t.Fatalf("autojudge: exit %d: %s", code, stderr)
	}
	got, err := eval.ReadQrelsFile(out)
	if err != nil {
		t.Fatal(err)
	}
	judged := [4]int{}
	for _, docs := range got {
		for _, g := range docs {
			judged[g]++
		}
	}
	if judged != people {
		t.Errorf("grades given %v, people's on the same pairs %v", judged, people)
	}
	why, _ := os.ReadFile(out + ".why.jsonl")
	if !strings.Contains(string(why), `"why":"cosine 0.`) {
		t.Errorf("why file: %.200s", why)
	}
}
