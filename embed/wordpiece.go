package embed

import (
	"bufio"
	"fmt"
	"os"
	"strings"
	"unicode"
	"unicode/utf8"

	"golang.org/x/text/unicode/norm"
	"golang.org/x/text/unicode/rangetable"
)

// Special token IDs of the BERT uncased vocabulary (vocab.txt lines 0, 100, 101, 102).
const (
	padID = 0
	unkID = 100
	clsID = 101
	sepID = 102
)

// maxWordChars is WordPiece's max_input_chars_per_word: a longer word becomes one [UNK].
const maxWordChars = 100

// WordPiece is BERT's uncased tokenizer as the model's tokenizer.json declares it (Hugging Face
// tokenizers: BertNormalizer, BertPreTokenizer, WordPiece, the [CLS] A [SEP] template):
//
//  1. clean: drop U+0000, U+FFFD and every "other" character (Unicode Cc, Cf and Co) except
//     tab, newline and carriage return; every white-space character becomes a space;
//  2. put spaces around CJK ideographs (the reference's ranges: refTables);
//  3. strip accents: NFD, then drop non-spacing marks (Mn), so "naïve" → "naive" (the normaliser's
//     strip_accents is unset and so follows lowercase = true);
//  4. lower-case each character;
//  5. split on white space, and make every punctuation character (ASCII punctuation or Unicode P*)
//     a word of its own;
//  6. WordPiece: each word becomes the longest vocabulary prefix, then the longest "##"
//     continuation, and so on; a word with a piece not in the vocabulary, or longer than 100
//     characters, becomes one [UNK];
//  7. keep the first MaxTokens-2 pieces and wrap them in [CLS] … [SEP].
//
// Pieces does steps 1 to 6 and Wrap step 7: BERT's input format (the special tokens and their
// IDs) lives here alone, so a chunker cuts Pieces into windows and hands Wrap(window) to the
// model.
type WordPiece struct {
	Vocab     map[string]int32
	MaxTokens int // including [CLS] and [SEP]; all-MiniLM-L6-v2's max_seq_length is 256
}

// readVocab reads a vocab.txt: one token per line, the token's ID being its 0-based line number.
func readVocab(path string) (map[string]int32, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	vocab := make(map[string]int32, 32000)
	sc := bufio.NewScanner(f)
	n := 0
	for sc.Scan() {
		n++
		tok := strings.TrimRight(sc.Text(), "\r")
		if tok == "" {
			return nil, fmt.Errorf("%s:%d: empty token", path, n)
		}
		if _, dup := vocab[tok]; dup {
			return nil, fmt.Errorf("%s:%d: token %q appears twice", path, n, tok)
		}
		vocab[tok] = int32(n - 1)
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("%s:%d: %w", path, n+1, err)
	}
	for tok, id := range map[string]int32{"[PAD]": padID, "[UNK]": unkID, "[CLS]": clsID, "[SEP]": sepID} {
		if vocab[tok] != id {
			return nil, fmt.Errorf("%s: %s is not on line %d: not a BERT uncased vocabulary", path, tok, id+1)
		}
	}
	return vocab, nil
}

// Pieces returns text's word pieces (steps 1 to 6): its IDs without [CLS] and [SEP] and with no
// limit (MaxTokens is not applied), what a chunker cuts into windows.
func (w WordPiece) Pieces(text string) []int32 {
	var ids []int32
	for _, word := range preTokenize(normalize(text)) {
		ids = w.appendWord(ids, word)
	}
	return ids
}

// Wrap returns a window of word pieces as the model reads it (step 7): [CLS], the window's first
// MaxTokens − 2 pieces (all of them when MaxTokens <= 0), [SEP]. Wrap(Pieces(text)) is the
// text's tokens; the window itself is not changed.
func (w WordPiece) Wrap(window []int32) []int32 {
	if w.MaxTokens > 0 && len(window) > w.MaxTokens-2 {
		window = window[:max(w.MaxTokens-2, 0)]
	}
	ids := make([]int32, 0, len(window)+2)
	ids = append(ids, clsID)
	ids = append(ids, window...)
	return append(ids, sepID)
}

// tokenize is Wrap(Pieces(text)): the token IDs the model reads.
func (w WordPiece) tokenize(text string) []int32 { return w.Wrap(w.Pieces(text)) }

// appendWord appends word's WordPiece IDs (greedy longest match first).
func (w WordPiece) appendWord(ids []int32, word string) []int32 {
	if utf8.RuneCountInString(word) > maxWordChars {
		return append(ids, unkID)
	}
	start := len(ids)
	for i := 0; i < len(word); {
		found := false
		for j := len(word); j > i; {
			piece := word[i:j]
			if i > 0 {
				piece = "##" + piece
			}
			if id, ok := w.Vocab[piece]; ok {
				ids = append(ids, id)
				i, found = j, true
				break
			}
			_, size := utf8.DecodeLastRuneInString(word[i:j])
			j -= size
		}
		if !found {
			return append(ids[:start], unkID)
		}
	}
	return ids
}

// normalize applies steps 1 to 4 of WordPiece: clean, space out CJK ideographs, strip accents,
// lower-case.
func normalize(text string) string {
	var b strings.Builder
	b.Grow(len(text))
	for _, c := range text {
		switch {
		case c == 0 || c == utf8.RuneError || isOther(c):
		case isSpace(c):
			b.WriteByte(' ')
		case isCJK(c):
			b.WriteByte(' ')
			b.WriteRune(c)
			b.WriteByte(' ')
		default:
			b.WriteRune(c)
		}
	}
	s := norm.NFD.String(b.String())
	b.Reset()
	for _, c := range s {
		if isMark(c) {
			continue
		}
		b.WriteRune(unicode.ToLower(c))
	}
	return b.String()
}

// preTokenize splits normalised text on white space and isolates punctuation (step 5).
func preTokenize(s string) []string {
	var words []string
	start := -1
	for i, c := range s {
		switch {
		case isSpace(c):
			if start >= 0 {
				words = append(words, s[start:i])
			}
			start = -1
		case isPunct(c):
			if start >= 0 {
				words = append(words, s[start:i])
			}
			words = append(words, s[i:i+utf8.RuneLen(c)])
			start = -1
		default:
			if start < 0 {
				start = i
			}
		}
	}
	if start >= 0 {
		words = append(words, s[start:])
	}
	return words
}

// isSpace is Unicode White_Space (Go's unicode.IsSpace; tab, newline and carriage return included),
// as Rust's char::is_whitespace, which the reference uses.
func isSpace(c rune) bool { return unicode.IsSpace(c) }

// refTables: the reference tokenizer (Hugging Face tokenizers 0.23.3, the package the model's
// tokenizer.json is written for) takes the categories of its normaliser and pre-tokenizer
// (is_other: Cc, Cf, Co; is_punctuation: P*; is_mark_nonspacing: Mn) from the Rust crate
// unicode_categories 0.1.1, whose tables are Unicode 8.0.0's, while Go's unicode package is
// Unicode 15.0.0. So a category test here is Go's test restricted to the code points assigned in
// Unicode 8.0.0 (golang.org/x/text/unicode/rangetable), with the six code points whose category
// changed after 8.0 given theirs of 8.0. Everything else the reference does (white space, lower
// case, NFD) follows current Unicode in both, and its CJK ranges are written in its code
// (isCJK). The full code-point test found exactly these differences.
var unicode8 = rangetable.Assigned("8.0.0")

// Code points whose general category changed after Unicode 8.0.0, with their 8.0 category.
const (
	chiSign    = 0x166D  // CANADIAN SYLLABICS CHI SIGN: Po in 8.0 (So now)
	pamudpod   = 0x1734  // HANUNOO SIGN PAMUDPOD: Mn in 8.0 (Mc now)
	aliGali5   = 0x1885  // MONGOLIAN LETTER ALI GALI BALUDA: Lo in 8.0 (Mn now)
	aliGali6   = 0x1886  // MONGOLIAN LETTER ALI GALI THREE BALUDA: Lo in 8.0 (Mn now)
	keret      = 0xA9BD  // JAVANESE CONSONANT SIGN KERET: Mc in 8.0 (Mn now)
	sandhiMark = 0x111C9 // SHARADA SANDHI MARK: Po in 8.0 (Mn now)
)

// isOther is the normaliser's "control" test: Unicode Cc, Cf or Co in the reference's tables;
// tab, newline and carriage return excepted (they are white space).
func isOther(c rune) bool {
	if c == '\t' || c == '\n' || c == '\r' {
		return false
	}
	return unicode.In(c, unicode.Cc, unicode.Cf, unicode.Co) && unicode.Is(unicode8, c)
}

// isMark is Mn in the reference's tables: what stripping accents drops after NFD.
func isMark(c rune) bool {
	switch c {
	case pamudpod:
		return true
	case aliGali5, aliGali6, keret, sandhiMark:
		return false
	}
	return unicode.Is(unicode.Mn, c) && unicode.Is(unicode8, c)
}

// isPunct is ASCII punctuation (which includes $ + < = > ^ ` | ~) or Unicode P* in the
// reference's tables.
func isPunct(c rune) bool {
	if c < 128 {
		return c > ' ' && c < 127 && !('0' <= c && c <= '9' || 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z')
	}
	if c == chiSign || c == sandhiMark {
		return true
	}
	return unicode.IsPunct(c) && unicode.Is(unicode8, c)
}

// isCJK is the reference's "Chinese character" test: the CJK Unified Ideographs blocks, their
// extensions A to E and the compatibility ideographs, with the ranges as its code writes them
// (BERT's original starts the last extension at U+2B820; tokenizers at U+2B920, so
// U+2B820..U+2B91F are letters there, not ideographs).
func isCJK(c rune) bool {
	return 0x4E00 <= c && c <= 0x9FFF || 0x3400 <= c && c <= 0x4DBF || 0x20000 <= c && c <= 0x2A6DF ||
		0x2A700 <= c && c <= 0x2B73F || 0x2B740 <= c && c <= 0x2B81F || 0x2B920 <= c && c <= 0x2CEAF ||
		0xF900 <= c && c <= 0xFAFF || 0x2F800 <= c && c <= 0x2FA1F
}
