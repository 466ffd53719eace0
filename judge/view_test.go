package judge

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ranklab/ranklab/pool"
	"github.com/ranklab/ranklab/retrieval"
)

func TestMarkerStemsAndEscapes(t *testing.T) {
	m, err := newMarker("the wing's slipstream")
	if err != nil {
		t.Fatal(err)
	}
	got := m.HTML(`Wings <b>in</b> the "slipstream" & wing`)
	want := `<mark>Wings</mark> &lt;b&gt;in&lt;/b&gt; the &#34;<mark>slipstream</mark>&#34; &amp; <mark>wing</mark>`
	if got != want {
		t.Fatalf("got  %s\nwant %s", got, want)
	}
}

// hostile is a document and query whose text is markup, quotes and ampersands.
const hostile = `<script>alert(1)</script><img src=x onerror="alert(2)"> 'single' & "double" </div>`

func hostileSession(t *testing.T) (*session, docTexts) {
	dir := t.TempDir()
	s := mustOpen(t, filepath.Join(dir, "j.qrels"))
	t.Cleanup(func() { s.Close() })
	p := pool.Pair{Query: `q"1`, Doc: `<d>&1`}
	ss := newSession([]pool.Pair{p}, s)
	tx := docTexts{
		Docs:    map[string]retrieval.Document{p.Doc: {ID: p.Doc, Title: hostile, Text: hostile + " alert"}},
		Queries: map[string]string{p.Query: "alert " + hostile},
	}
	return ss, tx
}

// No piece of data may become markup: after removing the panel's own tags, no "<" from the
// data remains, and the data's quotes cannot close an attribute.
func TestHostileTextEscaped(t *testing.T) {
	ss, tx := hostileSession(t)
	for name, h := range map[string]string{
		"card":   cardHTML(ss, tx).HTML,
		"static": staticHTML("id", ss, tx, "static", `<x>"`),
		"panel":  panelHTML("id", "/in", "/out", ss, tx),
	} {
		for _, bad := range []string{"<script>alert", "<img", `onerror="`, "</div>'", `"double"`, `q"1`, "<d>"} {
			if strings.Contains(h, bad) {
				t.Errorf("%s: contains %q unescaped", name, bad)
			}
		}
		plain := strings.NewReplacer("<mark>", "", "</mark>", "").Replace(h)
		if !strings.Contains(plain, "&lt;script&gt;alert(1)&lt;/script&gt;") {
			t.Errorf("%s: the escaped text is missing", name)
		}
		if name == "card" && strings.Count(h, "<mark>alert</mark>") != 5 {
			// title: alert(1), alert(2); text: the same and the last word; the query line: none
			t.Errorf("card: the query term alert should be marked 2 times in the title and 3 in the text, not in the query: %s", h)
		}
	}
}

func TestStaticShowsNextAndProgress(t *testing.T) {
	dir := t.TempDir()
	s := mustOpen(t, filepath.Join(dir, "j.qrels"))
	defer s.Close()
	pairs := []pool.Pair{pp("1", "184"), pp("1", "29"), pp("2", "12")}
	tx, err := loadTexts(pairs, cranfield(t), "")
	if err != nil {
		t.Fatal(err)
	}
	ss := newSession(pairs, s)
	ss.Grade(2, 3)
	h := staticHTML("id", ss, tx, "static", "RANKLAB_LIVE=static")
	for _, want := range []string{"data-judge-pair=\"1\t29\"", "1 of 3 judged, about 6 s left at your pace", `data-judge-doc="29"`, "2 / 12"} {
		if !strings.Contains(h, want) {
			t.Errorf("static view lacks %q", want)
		}
	}
}

func cranfield(t *testing.T) string {
	dir := filepath.Join("..", "..", "shared", "data", "cranfield")
	if _, err := os.Stat(dir); err != nil {
		dir = "/work/shared/data/cranfield"
	}
	if _, err := os.Stat(dir); err != nil {
		t.Skip("Cranfield not found")
	}
	return dir
}

func TestLoadTexts(t *testing.T) {
	pairs := []pool.Pair{pp("1", "184"), pp("1", "29")}
	tx, err := loadTexts(pairs, cranfield(t), "")
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(tx.Queries["1"], "what similarity laws") || tx.Docs["184"].ID != "184" || len(tx.Docs) != 2 {
		t.Fatalf("texts: %q %+v", tx.Queries["1"], len(tx.Docs))
	}
	// A JSONL corpus file with its queries file.
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "c.jsonl"), []byte(`{"_id":"d1","title":"T","text":"x & y"}`+"\n"), 0o644)
	os.WriteFile(filepath.Join(dir, "q.jsonl"), []byte(`{"_id":"q1","text":"x"}`+"\n"), 0o644)
	tx, err = loadTexts([]pool.Pair{pp("q1", "d1")}, filepath.Join(dir, "c.jsonl"), filepath.Join(dir, "q.jsonl"))
	if err != nil || tx.Docs["d1"].Text != "x & y" || tx.Queries["q1"] != "x" {
		t.Fatalf("%v %+v", err, tx)
	}
	if _, err := loadTexts([]pool.Pair{pp("q1", "zz")}, filepath.Join(dir, "c.jsonl"), filepath.Join(dir, "q.jsonl")); err == nil || !strings.Contains(err.Error(), `"zz"`) {
		t.Fatalf("a missing document: %v", err)
	}
}
