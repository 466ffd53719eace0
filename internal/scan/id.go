package scan

import (
	"fmt"
	"strings"
	"unicode"
	"unicode/utf8"
)

// IDProblem is the one rule for the characters of an ID (a query, a document, a corpus "_id"),
// shared by the readers of corpora, the writers of runs, pools and qrels, and the checks. It
// returns why id is unfit, or "" when it fits, and whether a TREC file can carry it at all:
//
//   - cannot carry (carried false): an empty ID; an ASCII space or control character (tab,
//     newline, carriage return, NUL, DEL) or a C1 control (U+0080–U+009F): they split or end the
//     line, or trec_eval and ranklab's check refuse them; a leading U+FEFF, which every reader
//     drops as a byte-order mark when it starts a file (the ID would read back as another);
//   - carried but not what it looks like (carried true): invalid UTF-8, a Unicode space
//     (U+00A0, U+2000–U+200A, U+3000, ...) or an invisible character (U+200B–U+200D, U+2060,
//     U+FEFF): two IDs that print alike would be two IDs.
//
// Writers refuse the first kind; check reports both as errors; a corpus's reader refuses both.
func IDProblem(id string) (why string, carried bool) {
	if id == "" {
		return "is empty", false
	}
	for i := 0; i < len(id); i++ {
		if c := id[i]; c == ' ' {
			return "holds the space character U+0020", false
		} else if c < ' ' || c == 0x7f {
			return fmt.Sprintf("holds the control character %U", rune(c)), false
		} else if c == 0xc2 && i+1 < len(id) && id[i+1] >= 0x80 && id[i+1] <= 0x9f {
			return fmt.Sprintf("holds the control character %U", rune(id[i+1])), false
		}
	}
	if strings.HasPrefix(id, "\ufeff") {
		return "starts with U+FEFF, which every reader drops as a byte order mark at the start of a file", false
	}
	if !utf8.ValidString(id) {
		return "is not valid UTF-8", true
	}
	for _, c := range id {
		if invisible(c) {
			return fmt.Sprintf("holds the invisible or space character %U: it looks like %q", c, strings.Map(Visible, id)), true
		}
	}
	return "", true
}

// invisible reports a Unicode space or a character that prints as nothing.
func invisible(c rune) bool {
	return unicode.IsSpace(c) || c == '\u200b' || c == '\u200c' || c == '\u200d' || c == '\u2060' || c == '\ufeff'
}

// Visible drops invisible and space characters (strings.Map(Visible, id) is what an ID looks
// like).
func Visible(c rune) rune {
	if invisible(c) {
		return -1
	}
	return c
}

// IDError is IDProblem as an error for a writer: nil when a TREC file can carry id, else
// "kind ID %q why".
func IDError(kind, id string) error {
	if why, carried := IDProblem(id); !carried {
		return fmt.Errorf("%s ID %q %s", kind, id, why)
	}
	return nil
}
