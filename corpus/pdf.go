package corpus

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/ledongthuc/pdf"
	"golang.org/x/text/unicode/norm"
)

// readPDF returns the text of a PDF file, page after page, through github.com/ledongthuc/pdf,
// NFKC-normalised (a ligature "ﬁ" reads "fi", as a reader types it). The library's panics on a
// malformed file become an error naming it.
func readPDF(path string) (text string, err error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return "", err
	}
	if len(data) > maxFile {
		return "", fmt.Errorf("%s: %d bytes: larger than the 64 MiB a document may hold", path, len(data))
	}
	return pdfText(data, path)
}

// pdfText returns the text of the PDF in data (name for errors).
func pdfText(data []byte, name string) (text string, err error) {
	defer func() {
		if p := recover(); p != nil {
			text, err = "", fmt.Errorf("%s: not a PDF this reader can read: %v", name, p)
		}
	}()
	r, err := pdf.NewReader(bytes.NewReader(data), int64(len(data)))
	if err != nil {
		return "", fmt.Errorf("%s: not a PDF this reader can read: %v", name, err)
	}
	plain, err := r.GetPlainText()
	if err != nil {
		return "", fmt.Errorf("%s: %v", name, err)
	}
	b, err := io.ReadAll(io.LimitReader(plain, maxFile+1))
	if err != nil {
		return "", fmt.Errorf("%s: %v", name, err)
	}
	if len(b) > maxFile {
		return "", fmt.Errorf("%s: its text is larger than the 64 MiB a document may hold", name)
	}
	return tidy(norm.NFKC.String(strings.ToValidUTF8(string(b), "\uFFFD"))), nil
}
