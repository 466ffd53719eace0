package main
import (
"cmp"
"fmt"
"github.com/ranklab/ranklab/compare"
"github.com/ranklab/ranklab/embed"
"github.com/ranklab/ranklab/eval"
"github.com/ranklab/ranklab/nb"
"github.com/ranklab/ranklab/rag"
"github.com/ranklab/ranklab/retrieval"
"slices"
"time"
)

// collection reads ../shared/data/<name> with the qrels split.
func collection(name, split string) retrieval.Collection {
	return nb.Must(retrieval.ReadCollection(nb.Must(nb.Shared("data", name)), split))
}
// minilm is all-MiniLM-L6-v2 behind the on-disk vector cache.
func minilm() *embed.Cache { return &embed.Cache{Inner: nb.Must(embed.Open(embed.Options{}))} }
// buildDense embeds a collection cut by ch, saying what it does and how long it took: about
// 2.5 min for SciFact's 5,183 abstracts on two idle cores the first time, seconds once cached.
func buildDense(name string, c retrieval.Collection, ch retrieval.Chunking) *retrieval.DenseSearcher {
	what := "whole, cut at 256 tokens"
	if ch.Chunk > 0 {
		what = fmt.Sprintf("in chunks of %d tokens", ch.Chunk)
	}
	fmt.Printf("%s: embedding %d documents (%s) with all-MiniLM-L6-v2 …\n", name, len(c.Docs), what)
	t0, e := time.Now(), minilm()
	s := nb.Must(retrieval.BuildDense(c.Docs, e, ch, retrieval.MaxP))
	fmt.Printf("%s: %d texts embedded, %d from the disk cache, in %.0f s\n", name, e.Misses.Load(), e.Hits.Load(), time.Since(t0).Seconds())
	return s
}
// runs are a collection's BM25 and dense runs (1000 documents a query), once per kernel run.
type runs struct{ BM25, Dense eval.Run }

func runsOf(name, split string) runs {
	return nb.Cache("dense-runs-"+name+"-"+split, func() (runs, error) {
		c := collection(name, split)
		bm25, err := retrieval.BM25Run(c, 1000, "bm25")
		if err != nil {
			return runs{}, err
		}
		d, err := buildDense(name, c, retrieval.Whole).Run(c.Queries, retrieval.RunOptions{ChunkDepth: -1, Tag: "minilm"})
		return runs{bm25, d.Docs}, err
	})
}


// paired compares runs over every judged query (a query a run misses scores 0) with package
// compare's defaults: 95 % bootstrap interval, t-test, randomization test, 10,000 draws, seed 42.
var paired = compare.Options{Eval: eval.Options{AllQueries: true}}


// wholeDense is the whole-document dense searcher of a collection (its documents cut at 256 tokens).
func wholeDense(name string) *retrieval.DenseSearcher {
	return buildDense(name, collection(name, "test"), retrieval.Whole)
}


// chunked searches SciFact cut into windows of n WordPiece tokens and returns the document runs of
// the three aggregations and the chunk run with its map, once per kernel run.
type chunkedRuns struct {
	Docs   map[string]eval.Run
	Chunks eval.Run
	Map    rag.ChunkMap
}

func chunked(n int) chunkedRuns {
	return nb.Cache(fmt.Sprintf("dense-scifact-chunks-%d", n), func() (chunkedRuns, error) {
		c := collection("scifact", "test")
		s := buildDense("scifact", c, retrieval.Chunking{Chunk: n})
		out := chunkedRuns{Docs: map[string]eval.Run{}, Map: s.ChunkMap()}
		for _, agg := range []retrieval.Aggregation{retrieval.MaxP, rag.FirstP, rag.SumP} {
			s.Aggregation = agg
			r, err := s.Run(c.Queries, retrieval.RunOptions{Tag: agg.Label()})
			if err != nil {
				return chunkedRuns{}, err
			}
			out.Docs[agg.Label()], out.Chunks = r.Docs, r.Chunks
		}
		return out, nil
	})
}


// hybrid prints the study of one collection on nDCG@10 (inputs cut at 100 documents each).
func hybrid(name, split string) {
	c, r := collection(name, split), runsOf(name, split)
	st := nb.Must(retrieval.StudyHybrid(c.Qrels, r.BM25, r.Dense, eval.NDCG(10), 100))
	fmt.Printf("%s (%s), nDCG@10 on %d test queries: BM25 %.4f, MiniLM %.4f\n", name, split, len(st.TestQueries), st.LexicalTest, st.DenseTest)
	for _, row := range st.Rows {
		fmt.Printf("  %-20s tune %.4f test %.4f | vs BM25 %+.4f [%+.4f, %+.4f] p %.3g | vs MiniLM %+.4f [%+.4f, %+.4f] p %.3g\n",
			row.Hybrid, row.Tune, row.Test, row.VsLexical.Diff, row.VsLexical.CILow, row.VsLexical.CIHigh, row.VsLexical.PTHolm,
			row.VsDense.Diff, row.VsDense.CILow, row.VsDense.CIHigh, row.VsDense.PTHolm)
	}
}


func cell9() {

v := nb.Must(minilm().Embed([]string{
	"Vitamin D deficiency raises the risk of respiratory infections.",
	"Low serum 25-hydroxyvitamin D levels were associated with more colds and influenza.",
	"The wing's lift coefficient was measured in a supersonic wind tunnel.",
}))
fmt.Printf("%d dimensions; cosine claim–related %.3f, claim–unrelated %.3f\n", len(v[0]), embed.Dot(v[0], v[1]), embed.Dot(v[0], v[2]))
}

func cell11() {

ms := []eval.Measure{eval.NDCG(10), eval.Recall(100)}
for _, name := range []string{"scifact", "cranfield"} {
	c, r := collection(name, "test"), runsOf(name, "test")
	b := nb.Must(eval.Options{AllQueries: true}.Evaluate(c.Qrels, r.BM25, ms...))
	d := nb.Must(eval.Options{AllQueries: true}.Evaluate(c.Qrels, r.Dense, ms...))
	fmt.Printf("%-9s  BM25 nDCG@10 %.4f R@100 %.4f | MiniLM nDCG@10 %.4f R@100 %.4f\n",
		name, b.Mean(ms[0]), b.Mean(ms[1]), d.Mean(ms[0]), d.Mean(ms[1]))
}
}

func cell14() {

var reports []compare.Report
for _, name := range []string{"scifact", "cranfield"} {
	c, r := collection(name, "test"), runsOf(name, "test")
	reports = append(reports, nb.Must(paired.Runs(c.Qrels, []eval.Measure{eval.NDCG(10)}, r.BM25, r.Dense)))
}
for i, rep := range compare.Joint(reports...) {
	t := nb.Must(rep.Comparison("minilm", eval.NDCG(10)))
	fmt.Printf("%-9s Δ nDCG@10 %+.4f [%+.4f, %+.4f]  p(t,Holm) %.3g  p(rand,Holm) %.3g\n",
		[]string{"scifact", "cranfield"}[i], t.Diff, t.CILow, t.CIHigh, t.PTHolm, t.PPermHolm)
}
}

func cell16() {

c, r := collection("scifact", "test"), runsOf("scifact", "test")
rep := nb.Must(paired.Runs(c.Qrels, []eval.Measure{eval.NDCG(10)}, r.BM25, r.Dense))
t := nb.Must(rep.Comparison("minilm", eval.NDCG(10)))
d := nb.Must(rep.Column("minilm", eval.NDCG(10)))
b := nb.Must(rep.Column("bm25", eval.NDCG(10)))
text := map[string]string{}
for _, q := range c.Queries {
	text[q.ID] = q.Text
}
order := make([]int, len(rep.Queries))
for i := range order {
	order[i] = i
}
slices.SortFunc(order, func(x, y int) int { return cmp.Compare(t.Diffs[y], t.Diffs[x]) })
fmt.Printf("dense better on %d claims, BM25 on %d, tied on %d\n\n", t.Wins, t.Losses, t.Ties)
for _, i := range append(order[:3:3], order[len(order)-3:]...) {
	fmt.Printf("%-5s dense %.3f  BM25 %.3f  %.90s\n", rep.Queries[i], d[i], b[i], text[rep.Queries[i]])
}
}

func cell18() {

for _, name := range []string{"scifact", "cranfield"} {
	s := wholeDense(name)
	fmt.Printf("%-9s %d of %d documents are cut at 256 tokens; %d WordPiece tokens in all\n",
		name, s.Truncated, len(collection(name, "test").Docs), s.Tokens)
}
}

func cell21() {

c, ch := collection("scifact", "test"), chunked(128)
runs := []eval.Run{runsOf("scifact", "test").Dense, ch.Docs["MaxP"], ch.Docs["FirstP"], ch.Docs["SumP"]}
rep := nb.Must(paired.Runs(c.Qrels, []eval.Measure{eval.NDCG(10)}, runs...))
fmt.Printf("whole documents (cut at 256)  nDCG@10 %.4f\n", nb.Must(rep.Mean("minilm", eval.NDCG(10))).Mean)
for _, agg := range []string{"MaxP", "FirstP", "SumP"} {
	t := nb.Must(rep.Comparison(agg, eval.NDCG(10)))
	fmt.Printf("chunks of 128, %-6s         nDCG@10 %.4f  Δ %+.4f [%+.4f, %+.4f]  p(t,Holm) %.3g  p(rand,Holm) %.3g\n",
		agg, t.Mean, t.Diff, t.CILow, t.CIHigh, t.PTHolm, t.PPermHolm)
}
}

func cell23() {

c, ch := collection("scifact", "test"), chunked(128)
bm := nb.Must(retrieval.Build(c, retrieval.Chunking{Chunk: 128}, retrieval.Anserini, retrieval.MaxP))
bmRuns := bm.Run(c.Queries, retrieval.RunOptions{Tag: "bm25-128"})
for _, b := range []int{256, 512, 1024, 2048} {
	ms := []rag.BudgetMeasure{{Name: "R", Tokens: b}, rag.NDCGAt(b)}
	d := nb.Must(rag.EvaluateBudgets(c.Qrels, ch.Chunks, ch.Map, eval.Options{}, ms...))
	l := nb.Must(rag.EvaluateBudgets(c.Qrels, bmRuns.Chunks, bm.ChunkMap(), eval.Options{}, ms...))
	fmt.Printf("B = %4d  R: dense %.4f BM25 %.4f | nDCG: dense %.4f BM25 %.4f\n", b, d.Mean(ms[0]), l.Mean(ms[0]), d.Mean(ms[1]), l.Mean(ms[1]))
}
}

func cell25() {

hybrid("scifact", "test")
}

func cell26() {

hybrid("cranfield", "test.graded")
}

func main(){}

