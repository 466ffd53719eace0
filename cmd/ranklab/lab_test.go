package main

import (
	"encoding/json"
	"reflect"
	"strings"
	"testing"

	"github.com/ranklab/ranklab/lab"
)

func TestLabText(t *testing.T) {
	out, errOut, rc := runCmd("lab")
	if rc != 0 {
		t.Fatalf("rc %d: %s", rc, errOut)
	}
	o, err := lab.DefaultState().Outcome()
	if err != nil {
		t.Fatal(err)
	}
	marked := 0
	for _, line := range strings.Split(out, "\n") {
		if strings.HasPrefix(strings.TrimSpace(line), "* ") {
			marked++
		}
	}
	if marked != 5 {
		t.Errorf("%d rows marked inside k, want 5:\n%s", marked, out)
	}
	for _, want := range append([]string{
		"precision@5        0.4000 -> 0.6000",
		"recall@5           0.2500 -> 0.3750  (denominator 8)",
		"MRR@5              0.5000 -> 1.0000",
		"nDCG@5             0.3685 -> 0.7152",
		"relevant in top 5  2 -> 3",
		"stride 384, chunks 26, indexed 13200 tokens, duplicated 3200 tokens (32.0%)",
		"Judged but not retrieved: d21 (grade 2",
		"Link: k=5&rerank=10&rerank_quality=50&grade=1&total=0&corpus=10000&chunk=512&overlap=128&seed=2278&n=20",
		"Query: how do I make retrieval robust to real user queries?\n",
		"rerank depth 10 (reranker quality 50%)",
	}, append(o.Reading, o.ChunkReading...)...) {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
}

func TestLabJSON(t *testing.T) {
	out, errOut, rc := runCmd("lab", "-f", "json", "--k", "3", "--rerank", "0", "--grade", "2")
	if rc != 0 {
		t.Fatalf("rc %d: %s", rc, errOut)
	}
	var got map[string]any
	if err := json.Unmarshal([]byte(out), &got); err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	for _, key := range []string{"precision", "recall", "mrr", "ndcg", "relevant_in_k", "stride", "chunks", "indexed_tokens",
		"duplicated_tokens", "duplication", "link", "items", "missed", "reading", "chunk_reading", "state", "query", "first_stage"} {
		if _, ok := got[key]; !ok {
			t.Errorf("JSON lacks %q", key)
		}
	}
	s := lab.DefaultState()
	s.K, s.Rerank, s.MinGrade = 3, 0, 2
	o, err := s.Outcome()
	if err != nil {
		t.Fatal(err)
	}
	var typed labJSON
	if err := json.Unmarshal([]byte(out), &typed); err != nil {
		t.Fatal(err)
	}
	want := map[string]float64{"precision": o.Metrics.Precision, "recall": o.Metrics.Recall, "mrr": o.Metrics.MRR, "ndcg": o.Metrics.NDCG,
		"relevant_in_k": float64(o.Metrics.RelevantInK), "stride": 384, "chunks": 26, "indexed_tokens": 13200, "duplicated_tokens": 3200,
		"duplication": 3200.0 / 10000}
	for k, v := range want {
		if got[k] != v {
			t.Errorf("%s = %v, want %v", k, got[k], v)
		}
	}
	if typed.Query != o.Query || typed.State.RerankQuality != 50 || typed.Link != s.Link() || len(typed.Items) != 20 || typed.Items[0].Doc != o.Items[0].Doc || !typed.Items[2].InsideK || typed.Items[3].InsideK {
		t.Errorf("link %q, items %+v", typed.Link, typed.Items)
	}
	// The first stage, grade >= 2: d01 d02 d03 hold grades 0, 1, 3, so P@3 = 1/3 and MRR@3 = 1/3.
	if typed.Precision != 1.0/3 || typed.MRR != 1.0/3 || !reflect.DeepEqual(typed.Reading, o.Reading) {
		t.Errorf("precision %v mrr %v reading %v", typed.Precision, typed.MRR, typed.Reading)
	}
}

func TestLabCSV(t *testing.T) {
	out, errOut, rc := runCmd("lab", "-f", "csv", "--link", "k=7&rerank=3&total=9", "--corpus", "0")
	if rc != 0 {
		t.Fatalf("rc %d: %s", rc, errOut)
	}
	got, err := lab.ReadCSV(strings.NewReader(out))
	if err != nil {
		t.Fatal(err)
	}
	s, _ := lab.ParseLink("k=7&rerank=3&total=9&corpus=0")
	want, err := s.Outcome()
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("CSV outcome %+v\nwant %+v", got, want)
	}
}

func TestLabLinkAndFlags(t *testing.T) {
	// --link restores the state; a flag overrides the link's field.
	out, _, rc := runCmd("lab", "-f", "json", "--link", "k=3&n=12&rerank=12&seed=5", "--k", "4")
	if rc != 0 {
		t.Fatal(rc)
	}
	var got labJSON
	if err := json.Unmarshal([]byte(out), &got); err != nil {
		t.Fatal(err)
	}
	if got.Link != "k=4&rerank=12&rerank_quality=50&grade=1&total=0&corpus=10000&chunk=512&overlap=128&seed=5&n=12" || got.State.K != 4 || got.State.Size != 12 {
		t.Errorf("link %q state %+v", got.Link, got.State)
	}
}

// TestLabLinkThenFlagValidatesFinalState: a link whose state is invalid alone (overlap 100 >=
// chunk 64) is fine when a flag fixes it, and a valid link made invalid by a flag is refused.
func TestLabLinkThenFlagValidatesFinalState(t *testing.T) {
	out, errOut, rc := runCmd("lab", "-f", "json", "--link", "chunk=64&overlap=100", "--overlap", "32")
	if rc != 0 {
		t.Fatalf("rc %d: %s", rc, errOut)
	}
	var got labJSON
	if err := json.Unmarshal([]byte(out), &got); err != nil {
		t.Fatal(err)
	}
	if got.State.Chunk != 64 || got.State.Overlap != 32 {
		t.Errorf("state %+v, want chunk 64 and overlap 32", got.State)
	}
	_, errOut, rc = runCmd("lab", "--link", "chunk=64&overlap=32", "--overlap", "64")
	if rc != 1 || !strings.Contains(errOut, "overlap: 64 must be in 0..63") {
		t.Errorf("rc %d, stderr %q; want the final state refused", rc, errOut)
	}
}

func TestLabErrors(t *testing.T) {
	cases := []struct {
		args []string
		rc   int
		want string
	}{
		{[]string{"--overlap", "512"}, 1, "ranklab lab: overlap: 512 must be in 0..511 (below chunk size 512)"},
		{[]string{"--k", "0"}, 1, "ranklab lab: k: 0 must be in 1..10000"},
		{[]string{"--rerank", "30"}, 1, "ranklab lab: rerank: 30 must be in 0..20 (the list has 20 candidates)"},
		{[]string{"--grade", "0"}, 1, "ranklab lab: grade: 0 must be in 1..3"},
		{[]string{"--rerank_quality", "101"}, 1, "ranklab lab: rerank_quality: 101 must be in 0..100"},
		{[]string{"--total", "3"}, 1, "ranklab lab: total: 3 must be 0 (the qrels' count, 8) or in 5..100000"},
		{[]string{"--n", "0"}, 1, "ranklab lab: n: 0 must be in 1..1000"},
		{[]string{"--chunk", "0"}, 1, "ranklab lab: chunk: 0 must be in 1..1048576"},
		{[]string{"--corpus", "-3"}, 1, "ranklab lab: corpus: -3 must be in 0..1099511627776"},
		{[]string{"--k", "abc"}, 1, `invalid value "abc" for flag -k`},
		{[]string{"--link", "k=5&foo=1"}, 1, `ranklab lab: --link: link: unknown key "foo"`},
		{[]string{"--link", "k=x"}, 1, `ranklab lab: --link: k: "x" is not an integer`},
		{[]string{"-f", "xml"}, 1, `ranklab lab: -f: "xml" must be text, json or csv`},
		{[]string{"--nope"}, 1, "flag provided but not defined: -nope"},
		{[]string{"extra"}, 2, `ranklab lab: unexpected argument "extra"`},
	}
	for _, c := range cases {
		t.Run(strings.Join(c.args, " "), func(t *testing.T) {
			out, errOut, rc := runCmd(append([]string{"lab"}, c.args...)...)
			if rc != c.rc || !strings.Contains(errOut, c.want) || out != "" {
				t.Errorf("rc %d, stderr %q, stdout %q; want rc %d and %q", rc, errOut, out, c.rc, c.want)
			}
		})
	}
	_, errOut, rc := runCmd("lab", "-h")
	if rc != 0 || !strings.Contains(errOut, "usage: ranklab lab") {
		t.Errorf("-h: rc %d, %q", rc, errOut)
	}
}
