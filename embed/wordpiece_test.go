package embed

import (
	"slices"
	"testing"
)

// toyVocab is a small BERT-style vocabulary: the special tokens at their IDs, then words.
func toyVocab() map[string]int32 {
	v := map[string]int32{"[PAD]": 0, "[UNK]": 100, "[CLS]": 101, "[SEP]": 102}
	for i, w := range []string{"naive", "un", "##aff", "##able", "a", "b", ",", ".", "$", "世", "界", "cafe", "##s", "σ"} {
		v[w] = int32(1000 + i)
	}
	return v
}

func TestWordPiece(t *testing.T) {
	w := WordPiece{Vocab: toyVocab(), MaxTokens: 256}
	id := func(s string) int32 { return w.Vocab[s] }
	cases := []struct {
		name, text string
		want       []int32
	}{
		{"empty", "", []int32{101, 102}},
		{"accent stripped and lower-cased", "Naïve", []int32{101, id("naive"), 102}},
		{"greedy longest match", "unaffable", []int32{101, id("un"), id("##aff"), id("##able"), 102}},
		{"unknown piece makes the whole word [UNK]", "unaffx a", []int32{101, 100, id("a"), 102}},
		{"punctuation split", "a,b.", []int32{101, id("a"), id(","), id("b"), id("."), 102}},
		{"ASCII symbol is punctuation", "a$b", []int32{101, id("a"), id("$"), id("b"), 102}},
		{"CJK ideographs are words", "世界", []int32{101, id("世"), id("界"), 102}},
		{"control and format characters dropped", "a\u200bb\x01", []int32{101, 100, 102}}, // "ab" is not in the vocabulary
		{"white space of every kind splits", "a\u00a0b\u3000a\tb", []int32{101, id("a"), id("b"), id("a"), id("b"), 102}},
		{"composed and decomposed accents agree", "CAFE\u0301S", []int32{101, id("cafe"), id("##s"), 102}},
		{"Greek capital lower-cased", "Σ", []int32{101, id("σ"), 102}},
		{"word over 100 characters is one [UNK]", string(slices.Repeat([]byte("a"), 101)), []int32{101, 100, 102}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if got := w.tokenize(c.text); !slices.Equal(got, c.want) {
				t.Errorf("tokenize(%q) = %v, want %v", c.text, got, c.want)
			}
		})
	}
}

func TestWordPieceTruncation(t *testing.T) {
	w := WordPiece{Vocab: toyVocab(), MaxTokens: 5}
	a, un := w.Vocab["a"], w.Vocab["un"]
	// 5 tokens = [CLS] + 3 pieces + [SEP]; a word cut in the middle keeps its first pieces.
	if got, want := w.tokenize("a a unaffable a"), []int32{101, a, a, un, 102}; !slices.Equal(got, want) {
		t.Errorf("got %v, want %v", got, want)
	}
	if got, want := w.tokenize("a un"), []int32{101, a, un, 102}; !slices.Equal(got, want) {
		t.Errorf("short text: got %v, want %v", got, want)
	}
	if got := (WordPiece{Vocab: toyVocab()}).tokenize(string(slices.Repeat([]byte("a "), 300))); len(got) != 302 {
		t.Errorf("MaxTokens 0: %d tokens, want 300 + 2", len(got))
	}
}

func FuzzNormalize(f *testing.F) {
	for _, s := range []string{"", "Naïve café", "a\u200bb", "世界", "\xff\xfe", "İstanbul ΣΑΣ"} {
		f.Add(s)
	}
	w := WordPiece{Vocab: toyVocab(), MaxTokens: 16}
	f.Fuzz(func(t *testing.T, s string) {
		ids := w.tokenize(s)
		if len(ids) < 2 || len(ids) > 16 || ids[0] != clsID || ids[len(ids)-1] != sepID {
			t.Fatalf("tokenize(%q) = %v: want [CLS] … [SEP], at most 16", s, ids)
		}
		if again := w.tokenize(normalize(s)); !slices.Equal(again, ids) {
			t.Fatalf("tokenize(normalize(%q)) = %v, tokenize = %v: normalising twice changed the tokens", s, again, ids)
		}
	})
}

// TestPiecesWrap: Pieces leaves out the special tokens and the limit, Wrap adds [CLS] (101) and
// [SEP] (102) around the first MaxTokens−2 pieces and leaves its window as it was.
func TestPiecesWrap(t *testing.T) {
	w := WordPiece{Vocab: toyVocab(), MaxTokens: 5}
	a, b, comma := w.Vocab["a"], w.Vocab["b"], w.Vocab[","]
	pieces := w.Pieces("a, b a b")
	if want := []int32{a, comma, b, a, b}; !slices.Equal(pieces, want) {
		t.Fatalf("Pieces = %v, want %v (no limit, no special tokens)", pieces, want)
	}
	if got, want := w.Wrap(pieces[1:3]), []int32{101, comma, b, 102}; !slices.Equal(got, want) {
		t.Errorf("Wrap of a window = %v, want %v", got, want)
	}
	if got, want := w.Wrap(pieces), []int32{101, a, comma, b, 102}; !slices.Equal(got, want) {
		t.Errorf("Wrap of 5 pieces, MaxTokens 5 = %v, want %v", got, want)
	}
	if !slices.Equal(pieces, []int32{a, comma, b, a, b}) {
		t.Errorf("Wrap changed its window: %v", pieces)
	}
	if got := (WordPiece{Vocab: toyVocab()}).Wrap(nil); !slices.Equal(got, []int32{101, 102}) {
		t.Errorf("Wrap(nil) = %v, want [101 102]", got)
	}
}
