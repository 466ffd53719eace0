package embed_test

import (
	"slices"
	"strconv"
	"strings"
	"testing"
	"unicode"

	"github.com/ranklab/ranklab/embed"
	"github.com/ranklab/ranklab/internal/sharedtest"
)

// TestWordPieceMatchesReference tokenizes every SciFact and Cranfield text (documents and
// queries, 7,813 texts) with WordPiece and with Hugging Face's tokenizers reading the model's
// own tokenizer.json (truncation at 256, no padding), and wants the same IDs for every text.
func TestWordPieceMatchesReference(t *testing.T) {
	py := sharedtest.PeersPython(t, "the token IDs of Hugging Face's tokenizers")
	m := installed(t)
	vocab, err := embed.ReadVocab(m.VocabPath())
	if err != nil {
		t.Fatal(err)
	}
	w := embed.WordPiece{Vocab: vocab, MaxTokens: 256}
	for _, name := range []string{"scifact", "cranfield"} {
		t.Run(name, func(t *testing.T) {
			docs, queries := texts(t, name)
			all := append(docs, queries...)
			var want [][]int32
			sharedtest.RunPython(t, py, "testdata/ref_tokens.py",
				map[string]any{"tokenizer": m.TokenizerPath(), "max_length": 256, "texts": all}, &want)
			if len(want) != len(all) {
				t.Fatalf("reference gave %d token lists for %d texts", len(want), len(all))
			}
			differ, truncated := 0, 0
			for i, text := range all {
				got := w.Wrap(w.Pieces(text))
				if len(want[i]) == 256 {
					truncated++
				}
				if !slices.Equal(got, want[i]) {
					if differ++; differ <= 3 {
						t.Errorf("text %d (%.80q): %d tokens, reference %d\n got  %v\n want %v", i, text, len(got), len(want[i]), head(got), head(want[i]))
					}
				}
			}
			if differ > 0 {
				t.Errorf("%d of %d texts tokenized differently", differ, len(all))
			}
			t.Logf("%s: %d texts (%d documents), all token IDs equal to the reference; %d truncated at 256", name, len(all), len(docs), truncated)
		})
	}
}

func head(ids []int32) []int32 {
	if len(ids) > 40 {
		return ids[:40]
	}
	return ids
}

// TestWordPieceEveryCodePoint is issue 33 item 12: every code point (1,112,064: all but the
// surrogates), alone and between two letters ("a" c "a", which tells white space, dropped,
// punctuation, ideograph, mark and letter apart), tokenized with WordPiece and with Hugging
// Face's tokenizers reading the model's tokenizer.json, must give the same IDs. Before the
// reference's Unicode tables were followed (refTables), 826,169 code points differed: the
// unassigned ones were dropped instead of read as [UNK], U+2B820..U+2B91F were ideographs, and
// marks and punctuation added after Unicode 8.0 were stripped or split off.
func TestWordPieceEveryCodePoint(t *testing.T) {
	py := sharedtest.PeersPython(t, "the token IDs of Hugging Face's tokenizers")
	m := installed(t)
	vocab, err := embed.ReadVocab(m.VocabPath())
	if err != nil {
		t.Fatal(err)
	}
	w := embed.WordPiece{Vocab: vocab, MaxTokens: 256}
	contexts := []string{"%c", "a%ca"}
	var want string
	sharedtest.RunPython(t, py, "testdata/ref_tokens.py",
		map[string]any{"tokenizer": m.TokenizerPath(), "max_length": 256, "contexts": contexts}, &want)
	lines := strings.Split(want, "\n")
	differ, n, buf := 0, 0, []byte{}
	for c := rune(0); c <= unicode.MaxRune; c++ {
		if 0xD800 <= c && c <= 0xDFFF {
			continue
		}
		for _, ctx := range contexts {
			text := strings.Replace(ctx, "%c", string(c), 1)
			buf = buf[:0]
			for i, id := range w.Wrap(w.Pieces(text)) {
				if i > 0 {
					buf = append(buf, ' ')
				}
				buf = strconv.AppendInt(buf, int64(id), 10)
			}
			if n >= len(lines) {
				t.Fatalf("reference gave %d token lists, fewer than the texts", len(lines))
			}
			if string(buf) != lines[n] {
				if differ++; differ <= 10 {
					t.Errorf("U+%04X in %+q: got [%s], reference [%s]", c, text, buf, lines[n])
				}
			}
			n++
		}
	}
	if n != len(lines) {
		t.Fatalf("reference gave %d token lists for %d texts", len(lines), n)
	}
	if differ > 0 {
		t.Errorf("%d of %d texts (%d code points, alone and between two letters) tokenized differently", differ, n, n/len(contexts))
	}
}
