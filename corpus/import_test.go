package corpus

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/ranklab/ranklab/internal/sharedtest"
	"github.com/ranklab/ranklab/retrieval"
)

func TestMarkdownSections(t *testing.T) {
	tests := []struct {
		name, src string
		want      []section
	}{
		{"no heading", "just text\n", []section{{text: "just text"}}},
		{"atx and setext", "intro\n\n# One {#one}\n\nfirst\n\nTwo *b*\n---\nsecond `x`\n",
			[]section{{text: "intro"}, {1, "One", "first"}, {2, "Two b", "second `x`"}}},
		{"hash in code", "# A\n\n```\n# not a heading\n```\n", []section{{}, {1, "A", "```\n# not a heading\n```"}}},
		{"empty heading stays text", "## \nx\n", []section{{text: "## \nx"}}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if got, _ := markdownSections(tc.src); !slices.Equal(got, tc.want) {
				t.Errorf("markdownSections(%q) = %+v, want %+v", tc.src, got, tc.want)
			}
		})
	}
}

// TestMarkdownFrontMatterAndComments: YAML front matter (Go's doc/godebug.md starts with one) was
// read as text and its closing "---" made its last line a setext heading; an HTML comment block
// was kept as text.
func TestMarkdownFrontMatterAndComments(t *testing.T) {
	tests := []struct {
		name, src, title string
		want             []section
	}{
		{"godebug.md's top", "---\ntitle: \"Go, Backwards Compatibility, and GODEBUG\"\nlayout: article\n---\n\n<!--\nkept in the Go repo\n-->\n\n## Introduction {#intro}\n\nGo's emphasis\n",
			"Go, Backwards Compatibility, and GODEBUG", []section{{}, {2, "Introduction", "Go's emphasis"}}},
		{"closed by ...", "---\ntags:\n  - a\n# a comment\n...\ntext\n", "", []section{{text: "text"}}},
		{"a comment inside a section", "# A\n\none\n\n<!-- note -->\n\ntwo\n", "", []section{{}, {1, "A", "one\n\n\ntwo"}}},
		{"thematic break, then prose: no front matter", "---\nHello there\n---\n", "", []section{{text: "---"}, {2, "Hello there", ""}}},
		{"never closed: no front matter", "---\ntitle: x\n", "", []section{{text: "---\ntitle: x"}}},
		{"inline comment stays", "a <!-- b --> c\n", "", []section{{text: "a <!-- b --> c"}}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got, title := markdownSections(tc.src)
			if !slices.Equal(got, tc.want) || title != tc.title {
				t.Errorf("markdownSections(%q) = %+v, %q; want %+v, %q", tc.src, got, title, tc.want, tc.title)
			}
		})
	}
}

func TestHTMLSections(t *testing.T) {
	tests := []struct {
		name, src, title string
		want             []section
	}{
		{"title only", "<html><head><title> A  page </title><script>x=1</script></head><body><p>Hello   <b>you</b></p><p>two</p></body></html>",
			"A page", []section{{text: "Hello you\ntwo"}}},
		{"headings", "<p>lead</p><h2 id=x>Sec <code>one</code></h2><p>a</p><style>p{}</style><h3>Sub</h3>b<pre>  x := 1\n  y</pre>",
			"", []section{{text: "lead"}, {2, "Sec one", "a"}, {3, "Sub", "b\n  x := 1\n  y"}}},
		{"entities", "<h1>A &amp; B</h1><p>&lt;tag&gt;</p>", "", []section{{}, {1, "A & B", "<tag>"}}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got, title, err := htmlSections(tc.src)
			if title != tc.title {
				t.Errorf("title %q, want %q", title, tc.title)
			}
			if err != nil || !slices.Equal(got, tc.want) {
				t.Errorf("htmlSections(%q) = %+v, %v; want %+v", tc.src, got, err, tc.want)
			}
		})
	}
}

func TestFileID(t *testing.T) {
	for in, want := range map[string]string{
		"guide/set up.md":    "guide/set_up.md",
		"a\u00a0b\u200bc.md": "a_b_c.md",
		"tab\there.txt":      "tab_here.txt",
		"bad\xffbyte.txt":    "bad_byte.txt",
		"día/ok.md":          "día/ok.md",
	} {
		if got := fileID(in); got != want {
			t.Errorf("fileID(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestSlug(t *testing.T) {
	for in, want := range map[string]string{
		"How do I close a channel?": "how-do-i-close-a-channel",
		"  Größe & Ölpreis  ":       "größe-ölpreis",
		"!!!":                       "",
		strings.Repeat("word ", 20): strings.Repeat("word-", 8) + "word", // 9 × 4 + 8 = 44 bytes; a tenth word makes 49 > 48
	} {
		if got := slugOf(in); got != want {
			t.Errorf("slugOf(%q) = %q, want %q", in, got, want)
		}
	}
}

// TestImport imports a folder of every kind, one document per file and per heading.
func TestImport(t *testing.T) {
	pdf, err := os.ReadFile(filepath.Join("testdata", "fix.pdf"))
	if err != nil {
		t.Fatal(err)
	}
	empty, err := os.ReadFile(filepath.Join("testdata", "empty.pdf"))
	if err != nil {
		t.Fatal(err)
	}
	dir := sharedtest.WriteTree(t, map[string]string{
		"guide/set up.md": "# Setup\r\n\r\nInstall Go.\r\n\r\n## Path\r\n\r\nSet PATH.\r\n\r\n## Path\r\n\r\nAgain.\r\n",
		"page.HTML":       "<title>Page</title><h1>Top</h1><p>body</p>",
		"notes.txt":       "plain \xfftext\n",
		"rows.csv":        "id,title,text\nr1,Row one,\"multi\nline\"\nr2,,two\n",
		"rows.jsonl":      `{"_id":"j1","text":"json row","extra":1}` + "\n\n",
		"image.png":       "x",
		".git/config":     "hidden",
		"doc.pdf":         string(pdf),
		"scan.pdf":        string(empty),
	})
	ids := func(docs []retrieval.Document) []string {
		var out []string
		for _, d := range docs {
			out = append(out, d.ID)
		}
		return out
	}
	im, err := Import([]string{dir}, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if want := []string{"doc.pdf", "guide/set_up.md", "notes.txt", "page.HTML", "r1", "r2", "j1", "scan.pdf"}; !slices.Equal(ids(im.Docs), want) {
		t.Errorf("IDs %q, want %q", ids(im.Docs), want)
	}
	byID := map[string]retrieval.Document{}
	for _, d := range im.Docs {
		byID[d.ID] = d
	}
	if d := byID["guide/set_up.md"]; d.Title != "Setup" || d.Text != "Install Go.\n\nPath\n\nSet PATH.\n\nPath\n\nAgain." {
		t.Errorf("markdown document %+v", d)
	}
	if d := byID["doc.pdf"]; d.Text != "Closing channels\nThe sender closes a channel, never the receiver: the first official rule of fine channel use." {
		t.Errorf("PDF text %q (ligatures read as letters?)", d.Text)
	}
	if d := byID["r1"]; d.Title != "Row one" || d.Text != "multi\nline" {
		t.Errorf("CSV row %+v", d)
	}
	if d := byID["notes.txt"]; d.Text != "plain \uFFFDtext" {
		t.Errorf("text %q", d.Text)
	}
	if !slices.Equal(im.Empty, []string{"scan.pdf"}) || !slices.Equal(im.Skipped, []string{"image.png"}) ||
		len(im.Replaced) != 1 || im.Files["pdf"] != 2 || im.Files["markdown"] != 1 {
		t.Errorf("Empty %q, Skipped %q, Replaced %q, Files %v", im.Empty, im.Skipped, im.Replaced, im.Files)
	}

	im, err = Import([]string{filepath.Join(dir, "guide"), filepath.Join(dir, "page.HTML")}, Options{SplitOn: "headings"})
	if err != nil {
		t.Fatal(err)
	}
	want := []retrieval.Document{
		{ID: "set_up.md:setup", Title: "Setup", Text: "Install Go."},
		{ID: "set_up.md:path", Title: "Path", Text: "Set PATH."},
		{ID: "set_up.md:path-2", Title: "Path", Text: "Again."},
		{ID: filepath.ToSlash(filepath.Join(dir, "page.HTML")) + ":top", Title: "Top", Text: "body"},
	}
	if !slices.Equal(im.Docs, want) {
		t.Errorf("by heading:\n got %q\nwant %q", im.Docs, want)
	}
	im, err = Import([]string{filepath.Join(dir, "guide")}, Options{SplitOn: "headings", Level: 1})
	if err != nil || len(im.Docs) != 1 || im.Docs[0].Text != "Install Go.\n\nPath\n\nSet PATH.\n\nPath\n\nAgain." {
		t.Errorf("level 1: %q, %v", im.Docs, err)
	}
}

func TestImportErrors(t *testing.T) {
	tests := []struct {
		name  string
		files map[string]string
		want  string
	}{
		{"collision", map[string]string{"a b.md": "x", "a_b.md": "y"}, `both give the document ID "a_b.md"`},
		{"csv without text", map[string]string{"r.csv": "id,body\n1,x\n"}, `r.csv:1: no field "text"`},
		{"csv bad id", map[string]string{"r.csv": "id,text\na b,x\n"}, `r.csv:2: ID "a b" holds U+0020`},
		{"csv id twice", map[string]string{"r.csv": "id,text\na,x\na,y\n"}, `r.csv:3: ID "a" twice (first on line 2)`},
		{"jsonl not object", map[string]string{"r.jsonl": "{\"_id\":\"a\",\"text\":\"x\"}\n[1]\n"}, "r.jsonl:2: not a JSON object"},
		{"jsonl zero width", map[string]string{"r.jsonl": "{\"_id\":\"a\u200b\",\"text\":\"x\"}\n"}, `r.jsonl:1: ID "a\u200b" holds U+200B`},
		{"bare CR", map[string]string{"a.txt": "one\rtwo\n"}, "a.txt:1: carriage return"},
		{"not a pdf", map[string]string{"a.pdf": "%PDF-1.4 nothing"}, "a.pdf: not a PDF this reader can read"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, err := Import([]string{sharedtest.WriteTree(t, tc.files)}, Options{})
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("err = %v, want it to contain %q", err, tc.want)
			}
		})
	}
	if _, err := Import(nil, Options{SplitOn: "pages"}); err == nil || !strings.Contains(err.Error(), `"pages"`) {
		t.Errorf("SplitOn pages: %v", err)
	}
}

func TestReadQuestions(t *testing.T) {
	qs, err := ReadQuestions(strings.NewReader("\ufeff# ours\nHow do I close a channel?\r\n\nq7\tWhat is a rune?\n"), "q.txt")
	want := []retrieval.Query{{ID: "how-do-i-close-a-channel", Text: "How do I close a channel?"}, {ID: "q7", Text: "What is a rune?"}}
	if err != nil || !slices.Equal(qs, want) {
		t.Errorf("ReadQuestions = %q, %v", qs, err)
	}
	for in, msg := range map[string]string{
		"How to close?\nhow to close\n": `q.txt:2: ID "how-to-close" is also the ID of line 1`,
		"???\n":                         "q.txt:1: a question with no letter or digit",
		"a b\tx\n":                      `q.txt:1: ID "a b" holds U+0020`,
		"# only a comment\n":            "q.txt: no question",
	} {
		if _, err := ReadQuestions(strings.NewReader(in), "q.txt"); err == nil || !strings.Contains(err.Error(), msg) {
			t.Errorf("ReadQuestions(%q): %v, want %q", in, err, msg)
		}
	}
}

// TestWriteReadBack writes a collection and reads it back with retrieval's readers.
func TestWriteReadBack(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "c")
	docs := []retrieval.Document{{ID: "a.md", Title: "A <b>", Text: "x & y"}, {ID: "b.txt", Text: ""}}
	qs := []retrieval.Query{{ID: "q", Text: "x?"}}
	if err := Write(dir, docs, qs); err != nil {
		t.Fatal(err)
	}
	c, err := retrieval.ReadCollection(dir, "test")
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(c.Docs, docs) || !slices.Equal(c.Queries, qs) || !slices.Equal(c.Unjudged, []string{"q"}) {
		t.Errorf("read back %+v", c)
	}
	b, _ := os.ReadFile(filepath.Join(dir, "corpus.jsonl"))
	if !strings.HasPrefix(string(b), `{"_id":"a.md","title":"A <b>","text":"x & y"}`+"\n") {
		t.Errorf("corpus.jsonl = %q", b)
	}
}

func FuzzMarkdownSections(f *testing.F) {
	f.Add("# A\n\ntext\n\nB\n=\n")
	f.Add("```\n# x\n```\n## {#id}\n")
	f.Fuzz(func(t *testing.T, src string) {
		secs, _ := markdownSections(src)
		if len(secs) == 0 || secs[0].level != 0 {
			t.Fatalf("sections %+v: the first is the text before any heading", secs)
		}
	})
}

func FuzzHTMLSections(f *testing.F) {
	f.Add("<h1>A</h1><p>b</p><pre>c\nd</pre>")
	f.Add("<title>t</title><script>x</script><h7>")
	f.Fuzz(func(t *testing.T, src string) {
		if _, _, err := htmlSections(src); err != nil {
			t.Fatal(err) // the tokenizer reads any bytes
		}
	})
}

func FuzzReadQuestions(f *testing.F) {
	f.Add("How?\nq1\tWhy?\n# c\n")
	f.Fuzz(func(t *testing.T, in string) {
		qs, err := ReadQuestions(strings.NewReader(in), "q")
		if err != nil {
			return
		}
		seen := map[string]bool{}
		for _, q := range qs {
			if checkID(q.ID) != nil || seen[q.ID] || q.Text == "" {
				t.Fatalf("question %+v", q)
			}
			seen[q.ID] = true
		}
	})
}

func FuzzPDFText(f *testing.F) {
	for _, name := range []string{"fix.pdf", "empty.pdf"} {
		b, err := os.ReadFile(filepath.Join("testdata", name))
		if err != nil {
			f.Fatal(err)
		}
		f.Add(b)
		f.Add(b[:len(b)/2])
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		pdfText(data, "f.pdf") // an error or text, never a panic
	})
}

func FuzzRows(f *testing.F) {
	f.Add("id,text\na,x\n", `{"_id":"a","text":"x"}`)
	f.Fuzz(func(t *testing.T, csvIn, jsonIn string) {
		dir := t.TempDir()
		for name, in := range map[string]string{"r.csv": csvIn, "r.jsonl": jsonIn} {
			path := filepath.Join(dir, name)
			if err := os.WriteFile(path, []byte(in), 0o644); err != nil {
				t.Fatal(err)
			}
			docs, err := readRows(path, strings.TrimPrefix(filepath.Ext(name), "."), Options{})
			if err != nil {
				continue
			}
			for _, d := range docs {
				if checkID(d.ID) != nil {
					t.Fatalf("%s: ID %q", name, d.ID)
				}
			}
		}
	})
}
