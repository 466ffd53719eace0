package main

import (
	"bufio"
	"encoding/json"

	"flag"
	"fmt"
	"io"
	"math"
	"os"
	"slices"
	"strconv"
	"strings"

	"github.com/ranklab/ranklab/embed"
	"github.com/ranklab/ranklab/eval"
	"github.com/ranklab/ranklab/internal/jsonx"
	"github.com/ranklab/ranklab/internal/scan"
	"github.com/ranklab/ranklab/retrieval"
)

func init() {
	commands["densejudge"] = command{summary: "an offline judge for autojudge: all-MiniLM-L6-v2's cosine, cut into grades 0-3 fitted on a human sample (weak)", run: runDenseJudge}
}

const denseJudgeUsage = `usage: ranklab densejudge --fit SAMPLE_QRELS --data DIR [--queries FILE] | --thresholds T1,T2,T3

A judge for ranklab autojudge (it speaks its protocol: pairs as JSON lines on standard input,
grades on standard output) that grades a pair by the cosine of the query's and the document's
all-MiniLM-L6-v2 vectors (the dense retriever's model and vector cache; texts as the retriever
embeds them, title + " " + text): grade = the number of thresholds T1 <= T2 <= T3 the cosine
reaches. With --fit the thresholds come from a small sample of human grades (qrels; every grade
>= 0 counts, grades above 3 count as 3), chosen so the judge gives each grade as often as the
people did on the sample (quantile matching: T_g is the cosine at the sample's share of grades
below g). A weak judge: a similarity, not a reading of the document (its κ against Cranfield's
people is in the README); use it to try the machinery, and as a baseline an LLM judge must beat.

Example: ranklab autojudge --pool pool.txt --data DIR --out dense.qrels \
           --judge 'ranklab densejudge --fit sample.qrels --data DIR'
`

func runDenseJudge(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("ranklab densejudge", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() { fmt.Fprint(stderr, denseJudgeUsage); fs.PrintDefaults() }
	fit := fs.String("fit", "", "human-judged sample `QRELS` to fit the thresholds on")
	data := fs.String("data", "", "BEIR collection `DIR` of the sample's texts")
	queries := fs.String("queries", "", "queries JSONL `FILE` (default: DIR/queries.jsonl)")
	given := fs.String("thresholds", "", "the cosines T1,T2,T3 of grades 1, 2 and 3 (instead of --fit)")
	if code, ok := parseArgs(fs, args); !ok {
		return code
	}
	fail := failer(stderr, "ranklab densejudge")
	if (*fit == "") == (*given == "") {
		return fail(2, "give --fit (with --data) or --thresholds")
	}
	m, err := embed.Open(embed.Options{})
	if err != nil {
		return fail(1, "%v", err)
	}
	defer m.Close()
	cache := &embed.Cache{Inner: m}
	var th [3]float64
	if *given != "" {
		f := strings.Split(*given, ",")
		if len(f) != 3 {
			return fail(2, "--thresholds %q: want 3 comma-separated cosines", *given)
		}
		for i, s := range f {
			if th[i], err = strconv.ParseFloat(strings.TrimSpace(s), 64); err != nil || math.IsNaN(th[i]) || (i > 0 && th[i] < th[i-1]) {
				return fail(2, "--thresholds %q: want 3 increasing numbers", *given)
			}
		}
	} else {
		if *data == "" {
			return fail(2, "--fit needs --data, the collection of the sample's texts")
		}
		if th, err = fitDenseJudge(cache, *fit, *data, *queries, stderr); err != nil {
			return fail(1, "%v", err)
		}
	}
	if err := serveDenseJudge(cache, th, os.Stdin, stdout); err != nil {
		return fail(1, "%v", err)
	}
	return 0
}

// fitDenseJudge embeds the texts of the sample's pairs and fits the thresholds (fitThresholds).
func fitDenseJudge(cache *embed.Cache, sample, dir, queriesFile string, stderr io.Writer) ([3]float64, error) {
	q, err := eval.ReadQrelsFile(sample)
	if err != nil {
		return [3]float64{}, err
	}
	docs, err := retrieval.ReadCorpusFile(dir)
	if err != nil {
		return [3]float64{}, err
	}
	var qs []retrieval.Query
	if queriesFile != "" {
		err = readFileWith(queriesFile, func(r io.Reader) (err error) { qs, err = retrieval.ReadQueries(r, queriesFile); return })
	} else {
		qs, err = retrieval.ReadQueriesFile(dir)
	}
	if err != nil {
		return [3]float64{}, err
	}
	docText := map[string]string{}
	for _, d := range docs {
		docText[d.ID] = d.DenseText()
	}
	queryText := map[string]string{}
	for _, x := range qs {
		queryText[x.ID] = x.Text
	}
	var pairs [][2]string
	var grades []int
	qids := make([]string, 0, len(q))
	for qid := range q {
		qids = append(qids, qid)
	}
	slices.Sort(qids)
	for _, qid := range qids {
		dids := make([]string, 0, len(q[qid]))
		for d := range q[qid] {
			dids = append(dids, d)
		}
		slices.Sort(dids)
		for _, d := range dids {
			g := q[qid][d]
			if g < 0 {
				continue
			}
			qt, ok1 := queryText[qid]
			dt, ok2 := docText[d]
			if !ok1 || !ok2 {
				return [3]float64{}, fmt.Errorf("%s: pair (%s, %s) has no text in %s", sample, qid, d, dir)
			}
			pairs = append(pairs, [2]string{qt, dt})
			grades = append(grades, min(g, 3))
		}
	}
	if len(pairs) == 0 {
		return [3]float64{}, fmt.Errorf("%s: no judged pair (grade >= 0) to fit on", sample)
	}
	cos, err := cosines(cache, pairs)
	if err != nil {
		return [3]float64{}, err
	}
	th := fitThresholds(cos, grades)
	fmt.Fprintf(stderr, "densejudge: thresholds %.4f %.4f %.4f fitted on %d pairs of %s\n", th[0], th[1], th[2], len(pairs), sample)
	return th, nil
}

// cosines embeds each pair's two texts and returns their cosines.
func cosines(cache *embed.Cache, pairs [][2]string) ([]float64, error) {
	texts := make([]string, 0, 2*len(pairs))
	for _, p := range pairs {
		texts = append(texts, p[0], p[1])
	}
	vecs, err := cache.Embed(texts)
	if err != nil {
		return nil, err
	}
	out := make([]float64, len(pairs))
	for i := range pairs {
		out[i] = embed.Dot(vecs[2*i], vecs[2*i+1])
	}
	return out, nil
}

// fitThresholds returns the cosines T1 <= T2 <= T3 at which the judge gives each grade as often
// as the sample's grades (0..3) do: with s the cosines sorted and F_g the share of grades below g,
// T_g = s[⌈F_g·m⌉] (+Inf when F_g = 1: no pair of the sample is graded g or more).
func fitThresholds(cos []float64, grades []int) [3]float64 {
	s := slices.Clone(cos)
	slices.Sort(s)
	m := len(s)
	var th [3]float64
	for g := 1; g <= 3; g++ {
		below := 0
		for _, x := range grades {
			if x < g {
				below++
			}
		}
		k := below // ⌈F_g·m⌉ with F_g = below/m
		if k >= m {
			th[g-1] = math.Inf(1)
		} else {
			th[g-1] = s[k]
		}
	}
	return th
}

// gradeOf is the number of thresholds the cosine reaches.
func gradeOf(cos float64, th [3]float64) int {
	g := 0
	for _, t := range th {
		if cos >= t {
			g++
		}
	}
	return g
}

// serveDenseJudge answers autojudge's protocol: one JSON line per pair in, one grade out, in order.
func serveDenseJudge(cache *embed.Cache, th [3]float64, in io.Reader, out io.Writer) error {
	w := bufio.NewWriter(out)
	lines := scan.NewLines(in)
	for lines.Next() {
		var p struct {
			QID   *string `json:"qid"`
			Query string  `json:"query"`
			DocID *string `json:"docid"`
			Title string  `json:"title"`
			Text  string  `json:"text"`
		}
		if len(strings.TrimSpace(string(lines.Bytes()))) == 0 {
			continue
		}
		if err := json.Unmarshal(lines.Bytes(), &p); err != nil || p.QID == nil || p.DocID == nil {
			return fmt.Errorf("stdin:%d: want a pair {\"qid\", \"query\", \"docid\", \"title\", \"text\"} (%v)", lines.Line(), err)
		}
		cos, err := cosines(cache, [][2]string{{p.Query, strings.TrimSpace(p.Title + " " + p.Text)}})
		if err != nil {
			return err
		}
		// The IDs go back as they came (raw), so bytes that are not UTF-8 round-trip.
		var raw struct {
			QID   json.RawMessage `json:"qid"`
			DocID json.RawMessage `json:"docid"`
		}
		json.Unmarshal(lines.Bytes(), &raw)
		g := gradeOf(cos[0], th)
		why, _ := jsonx.Marshal(fmt.Sprintf("cosine %.4f; thresholds %.4f %.4f %.4f", cos[0], th[0], th[1], th[2]))
		fmt.Fprintf(w, `{"qid":%s,"docid":%s,"grade":%d,"why":%s}`+"\n", raw.QID, raw.DocID, g, why)
		if err := w.Flush(); err != nil {
			return err
		}
	}
	if err := lines.Err(); err != nil {
		return fmt.Errorf("stdin:%d: %w", lines.Line()+1, err)
	}
	return nil
}

// readFileWith opens path and calls read with it.
func readFileWith(path string, read func(io.Reader) error) error {
	f, err := os.Open(path)
	if err != nil {
		return err
	}
	defer f.Close()
	if err := read(f); err != nil {
		return err
	}
	return nil
}
