package retrieval

import (
	"slices"
	"strings"
	"testing"

	"github.com/ranklab/ranklab/internal/sharedtest"
)

func TestReadCorpus(t *testing.T) {
	in := `{"_id": "d1", "title": "T", "text": "one", "metadata": {}}

{"_id": "d2", "text": "two"}
`
	docs, err := ReadCorpus(strings.NewReader(in), "c.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	want := []Document{{ID: "d1", Title: "T", Text: "one"}, {ID: "d2", Text: "two"}}
	if !slices.Equal(docs, want) {
		t.Errorf("ReadCorpus = %+v, want %+v", docs, want)
	}
	if docs[0].Content() != "T\none" || docs[1].Content() != "two" {
		t.Errorf("Content = %q, %q", docs[0].Content(), docs[1].Content())
	}
}

func TestReadCorpusErrors(t *testing.T) {
	tests := []struct{ name, in, want string }{
		{"not json", `{"_id":"a","text":""}` + "\n{oops", "c.jsonl:2: not a JSON object"},
		{"array", `[1]`, "c.jsonl:1: not a JSON object"},
		{"null", `null`, "c.jsonl:1: not a JSON object: null"},
		{"missing id", `{"text":"x"}`, `c.jsonl:1: missing field "_id"`},
		{"numeric id", `{"_id": 7, "text":"x"}`, `c.jsonl:1: field "_id": want a string, got 7`},
		{"empty id", `{"_id": "", "text":"x"}`, `c.jsonl:1: document "_id" "" is empty`},
		// Defect 10 of issue 33: control characters went raw into the TREC run.
		{"NUL in id", `{"_id": "d\u00002", "text":"x"}`, `c.jsonl:1: document "_id" "d\x002" holds the control character U+0000`},
		{"tab in id", `{"_id": "d\t2", "text":"x"}`, `c.jsonl:1: document "_id" "d\t2" holds the control character U+0009`},
		{"space in id", `{"_id": "d 2", "text":"x"}`, `c.jsonl:1: document "_id" "d 2" holds the space character U+0020`},
		{"no-break space in id", `{"_id": "d\u00a02", "text":"x"}`, `c.jsonl:1: document "_id" "d\u00a02" holds the invisible or space character U+00A0`},
		{"zero width space in id", `{"_id": "d\u200b2", "text":"x"}`, `c.jsonl:1: document "_id" "d\u200b2" holds the invisible or space character U+200B`},
		{"invalid UTF-8 in an id", "{\"_id\": \"d\xff1\", \"text\":\"x\"}", `c.jsonl:1: not valid UTF-8`},
		{"BOM at the start of an id", `{"_id": "x", "text":"x"}` + "\n" + `{"_id": "\ufeffd", "text":"x"}`, `c.jsonl:2: document "_id" "\ufeffd" starts with U+FEFF`},
		{"missing text", `{"_id": "a"}`, `c.jsonl:1: missing field "text"`},
		{"bad title", `{"_id": "a", "title": null, "text": ""}`, `c.jsonl:1: field "title": want a string, got null`},
		{"duplicate", "{\"_id\":\"a\",\"text\":\"\"}\n\n{\"_id\":\"a\",\"text\":\"\"}", `c.jsonl:3: duplicate document "a" (first on line 1)`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, err := ReadCorpus(strings.NewReader(tc.in), "c.jsonl")
			if err == nil || !strings.HasPrefix(err.Error(), tc.want) {
				t.Errorf("err = %v, want prefix %q", err, tc.want)
			}
		})
	}
}

func TestReadQueries(t *testing.T) {
	qs, err := ReadQueries(strings.NewReader(`{"_id":"1","text":"q one","metadata":{"x":1}}`+"\n"+`{"text":"q two","_id":"2"}`), "q.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	if want := []Query{{"1", "q one"}, {"2", "q two"}}; !slices.Equal(qs, want) {
		t.Errorf("ReadQueries = %+v, want %+v", qs, want)
	}
	_, err = ReadQueries(strings.NewReader(`{"_id":"1","text":"a"}`+"\n"+`{"_id":"1","text":"b"}`), "q.jsonl")
	if err == nil || !strings.HasPrefix(err.Error(), `q.jsonl:2: duplicate query "1"`) {
		t.Errorf("duplicate query: err = %v", err)
	}
	_, err = ReadQueries(strings.NewReader(`{"_id":"q\u0001","text":"a"}`), "q.jsonl")
	if err == nil || !strings.HasPrefix(err.Error(), `q.jsonl:1: query "_id" "q\x01" holds the control character U+0001`) {
		t.Errorf("control character in a query ID: err = %v", err)
	}
}

func TestReadCollection(t *testing.T) {
	corpus := `{"_id":"d1","title":"Apples","text":"red apples"}` + "\n" + `{"_id":"d2","title":"","text":"green pears"}` + "\n"
	queries := `{"_id":"q2","text":"pears"}` + "\n" + `{"_id":"q1","text":"apples"}` + "\n" + `{"_id":"q3","text":"unjudged"}` + "\n"
	qrels := "query-id\tcorpus-id\tscore\nq1\td1\t1\nq2\td2\t2\n"
	dir := sharedtest.WriteTree(t, map[string]string{"corpus.jsonl": corpus, "queries.jsonl": queries, "qrels/test.tsv": qrels})
	c, err := ReadCollection(dir, "test")
	if err != nil {
		t.Fatal(err)
	}
	// q3 has no qrels: it is kept and named (issue 34: it was dropped without a word).
	if len(c.Docs) != 2 || !slices.Equal(c.Queries, []Query{{"q1", "apples"}, {"q2", "pears"}, {"q3", "unjudged"}}) ||
		c.Qrels["q2"]["d2"] != 2 || !slices.Equal(c.Unjudged, []string{"q3"}) || c.OtherSplit != nil {
		t.Errorf("ReadCollection = %+v", c)
	}

	t.Run("without qrels", func(t *testing.T) {
		// Issue 34's blocker: a team's own collection has no qrels yet.
		for name, files := range map[string]map[string]string{
			"no qrels folder": {"corpus.jsonl": corpus, "queries.jsonl": queries},
			"empty qrels":     {"corpus.jsonl": corpus, "queries.jsonl": queries, "qrels/test.tsv": ""},
			"header only":     {"corpus.jsonl": corpus, "queries.jsonl": queries, "qrels/test.tsv": "query-id\tcorpus-id\tscore\n"},
		} {
			t.Run(name, func(t *testing.T) {
				c, err := ReadCollection(sharedtest.WriteTree(t, files), "test")
				if err != nil {
					t.Fatal(err)
				}
				if len(c.Queries) != 3 || !slices.Equal(c.Unjudged, []string{"q1", "q2", "q3"}) || len(c.Qrels) != 0 {
					t.Errorf("ReadCollection = %+v", c)
				}
				if (name == "no qrels folder") != (c.QrelsFile == "" && c.Qrels == nil) {
					t.Errorf("QrelsFile %q, Qrels %v", c.QrelsFile, c.Qrels)
				}
			})
		}
	})

	t.Run("other split", func(t *testing.T) {
		// BEIR's queries.jsonl holds every split: a query only train judges is not a test query.
		train := "q3 0 d1 1\n" // TREC qrels, as pool and the judging panel write them
		c, err := ReadCollection(sharedtest.WriteTree(t, map[string]string{"corpus.jsonl": corpus, "queries.jsonl": queries,
			"qrels/test.tsv": "q1 0 d1 1\n", "qrels/train.tsv": train}), "test")
		if err != nil {
			t.Fatal(err)
		}
		if !slices.Equal(c.Queries, []Query{{"q1", "apples"}, {"q2", "pears"}}) || !slices.Equal(c.Unjudged, []string{"q2"}) ||
			!slices.Equal(c.OtherSplit, []string{"q3"}) || c.Qrels["q1"]["d1"] != 1 {
			t.Errorf("ReadCollection = %+v", c)
		}
	})

	t.Run("errors", func(t *testing.T) {
		tests := []struct {
			name  string
			files map[string]string
			split string
			want  string
		}{
			{"no corpus", map[string]string{"queries.jsonl": queries, "qrels/test.tsv": qrels}, "test", "neither it nor corpus.jsonl.gz exists"},
			{"no split", map[string]string{"corpus.jsonl": corpus, "queries.jsonl": queries, "qrels/test.tsv": qrels}, "dev", "holds the qrels of test)"},
			{"bad split", map[string]string{"corpus.jsonl": corpus, "queries.jsonl": queries}, "../x", `split "../x"`},
			{"unknown query", map[string]string{"corpus.jsonl": corpus, "queries.jsonl": queries, "qrels/test.tsv": qrels + "q9\td1\t1\n"}, "test", `query "q9" is not in queries.jsonl`},
			{"unknown doc", map[string]string{"corpus.jsonl": corpus, "queries.jsonl": queries, "qrels/test.tsv": qrels + "q1\td9\t1\n"}, "test", `judges document "d9"`},
			{"bad corpus line", map[string]string{"corpus.jsonl": corpus + "{\n", "queries.jsonl": queries, "qrels/test.tsv": qrels}, "test", "corpus.jsonl:3: not a JSON object"},
		}
		for _, tc := range tests {
			t.Run(tc.name, func(t *testing.T) {
				_, err := ReadCollection(sharedtest.WriteTree(t, tc.files), tc.split)
				if err == nil || !strings.Contains(err.Error(), tc.want) {
					t.Errorf("err = %v, want it to contain %q", err, tc.want)
				}
			})
		}
	})
}

func FuzzReadCorpus(f *testing.F) {
	f.Add(`{"_id":"d1","title":"T","text":"x"}` + "\n" + `{"_id":"d2","text":"y"}`)
	f.Add(`{"_id":"d1","text":1}`)
	f.Add("\n\n{}\n")
	f.Add(`{"_id":"a","text":"\u00e9"}` + "\r\n" + `{"_id":"a","text":""}`)
	f.Fuzz(func(t *testing.T, in string) {
		docs, err := ReadCorpus(strings.NewReader(in), "f")
		if err != nil {
			if !strings.HasPrefix(err.Error(), "f:") {
				t.Errorf("error without position: %v", err)
			}
			return
		}
		seen := map[string]bool{}
		for _, d := range docs {
			if d.ID == "" || seen[d.ID] {
				t.Errorf("accepted empty or duplicate ID %q", d.ID)
			}
			seen[d.ID] = true
		}
	})
}

func FuzzReadQueries(f *testing.F) {
	f.Add(`{"_id":"1","text":"q"}` + "\n" + `{"_id":"2","text":"r"}`)
	f.Add(`{"_id":"1"}`)
	f.Add(`{"_id":["1"],"text":"q"}`)
	f.Fuzz(func(t *testing.T, in string) {
		qs, err := ReadQueries(strings.NewReader(in), "f")
		if err != nil {
			if !strings.HasPrefix(err.Error(), "f:") {
				t.Errorf("error without position: %v", err)
			}
			return
		}
		seen := map[string]bool{}
		for _, q := range qs {
			if q.ID == "" || seen[q.ID] {
				t.Errorf("accepted empty or duplicate ID %q", q.ID)
			}
			seen[q.ID] = true
		}
	})
}

func TestDenseText(t *testing.T) {
	for _, c := range []struct {
		d    Document
		want string
	}{
		{Document{Title: "T", Text: "x y"}, "T x y"},
		{Document{Text: "x"}, "x"},
		{Document{Title: "T "}, "T"},
	} {
		if got := c.d.DenseText(); got != c.want {
			t.Errorf("%+v: %q, want %q", c.d, got, c.want)
		}
	}
}
