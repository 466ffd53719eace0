package retrieval

import (
	"slices"
	"testing"
)

func mustTokenizer(t testing.TB) *Tokenizer {
	t.Helper()
	tok, err := NewTokenizer()
	if err != nil {
		t.Fatal(err)
	}
	return tok
}

func TestTokenizer(t *testing.T) {
	tok := mustTokenizer(t)
	// cl100k_base: "hello" = 15339, " world" = 1917 (OpenAI's tiktoken README example).
	if got := tok.Encode("hello world"); !slices.Equal(got, []int{15339, 1917}) {
		t.Errorf("Encode(hello world) = %v, want [15339 1917]", got)
	}
	for _, text := range []string{"", "Résumé of naïve café — 東京 🙂", "<|endoftext|> is text here"} {
		toks := tok.Encode(text)
		if got := tok.Decode(toks); got != text {
			t.Errorf("Decode(Encode(%q)) = %q", text, got)
		}
		if tok.Count(text) != len(toks) {
			t.Errorf("Count(%q) = %d, want %d", text, tok.Count(text), len(toks))
		}
		if slices.Contains(toks, 100257) { // <|endoftext|> as a special token
			t.Errorf("Encode(%q) produced the special token 100257", text)
		}
	}
}
