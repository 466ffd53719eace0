package retrieval

import (
	"fmt"
	"sync"

	tiktoken "github.com/pkoukk/tiktoken-go"
	tiktokenloader "github.com/pkoukk/tiktoken-go-loader"
)

// encoding is the token vocabulary used to count and cut text: OpenAI's cl100k_base,
// loaded from the vocabulary embedded in tiktoken-go-loader, so no network is needed.
const encoding = "cl100k_base"

// Tokenizer counts and cuts text in cl100k_base tokens. The zero value is not usable;
// call NewTokenizer. A Tokenizer is safe for concurrent use.
type Tokenizer struct {
	enc *tiktoken.Tiktoken

	lenOnce  sync.Once
	tokenLen []int32 // bytes of each ordinary token ID
}

var (
	loaderOnce sync.Once
	sharedTok  *Tokenizer
	sharedErr  error
)

// NewTokenizer returns the cl100k_base tokenizer. The vocabulary is read once per process
// (about 100 ms) from the offline loader and shared by every later call.
func NewTokenizer() (*Tokenizer, error) {
	loaderOnce.Do(func() {
		tiktoken.SetBpeLoader(tiktokenloader.NewOfflineLoader())
		enc, err := tiktoken.GetEncoding(encoding)
		if err != nil {
			sharedErr = fmt.Errorf("retrieval: load %s: %w", encoding, err)
			return
		}
		sharedTok = &Tokenizer{enc: enc}
	})
	return sharedTok, sharedErr
}

// Encode returns the token IDs of text. Special-token strings such as "<|endoftext|>" are
// encoded as ordinary text, never as special tokens, so any document can be encoded.
func (t *Tokenizer) Encode(text string) []int {
	return t.enc.EncodeOrdinary(text)
}

// Count returns the number of tokens of text: len(Encode(text)).
func (t *Tokenizer) Count(text string) int {
	return len(t.enc.EncodeOrdinary(text))
}

// Decode returns the text of tokens. A slice of a document's tokens cut at any position
// decodes to the exact bytes those tokens cover; when the cut falls inside a multi-byte
// character the result holds the partial bytes of that character.
func (t *Tokenizer) Decode(tokens []int) string {
	return t.enc.Decode(tokens)
}

// byteLen returns the number of bytes token decodes to.
func (t *Tokenizer) byteLen(token int) int {
	t.lenOnce.Do(func() {
		for id := 0; ; id++ {
			b := t.enc.Decode([]int{id})
			if b == "" {
				break // past the last ordinary token (cl100k_base's IDs are dense)
			}
			t.tokenLen = append(t.tokenLen, int32(len(b)))
		}
	})
	if token < len(t.tokenLen) {
		return int(t.tokenLen[token])
	}
	return len(t.enc.Decode([]int{token}))
}
