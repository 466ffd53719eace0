package embed_test

import (
	"slices"
	"testing"

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
				got := w.Tokenize(text)
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
