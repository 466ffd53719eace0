// Package corpus turns a team's own files into a BEIR collection, the input of retrieval,
// pooling and judging (ranklab corpus import):
//
//	im, err := corpus.Import([]string{"docs"}, corpus.Options{SplitOn: "headings"})
//	qs, err := corpus.ReadQuestions(f, "questions.txt")
//	err = corpus.Write("collection", im.Docs, qs) // collection/corpus.jsonl, collection/queries.jsonl
//
// The corpus format (BEIR's corpus.jsonl): one JSON object a line, "_id" a non-empty string,
// unique, "title" an optional string, "text" a string (it may be empty); queries.jsonl the same
// with "_id" and "text".
//
// Decisions made once for the package:
//
//   - Files by extension (any case): .txt and .text are plain text, .md and .markdown Markdown
//     (headings found by goldmark, so a "#" inside a code block is no heading), .html and .htm
//     HTML (golang.org/x/net/html; script, style and the head but its title are left out), .pdf
//     PDF (github.com/ledongthuc/pdf; the text NFKC-normalised, so a ligature "ﬁ" reads "fi"),
//     .csv (a header row naming the fields, encoding/csv) and .jsonl or .ndjson (one object a
//     line) one document per row. Any other file is listed in Imported.Skipped, unread; files
//     and folders whose name starts with "." are passed over without a word (.git).
//   - A file's ID is its path relative to the folder named (the path as given for a file
//     named), with "/" between folders; each character a TREC file cannot carry in an ID (a
//     space, any Unicode white space, a control or format character such as U+200B, a byte
//     that is not UTF-8) becomes "_". Two files whose IDs then collide are an error naming both.
//     So an ID is stable as long as the file keeps its path.
//   - One document per file (SplitOn "" or "file"), titled by its first heading (Markdown, HTML:
//     h1–h6, else HTML's <title>), the heading left out of the text; or one per heading
//     (SplitOn "headings", Markdown and HTML; Level, 1–6, the deepest heading that starts one,
//     default 6): ID file:slug, the slug the heading's letters and digits in lower case joined
//     by "-" (at most 48 bytes; a repeat gets -2, -3 …), title the heading, text what follows it
//     up to the next such heading; a heading with no text before a deeper one (a chapter whose
//     text is its sections) is no document. Text before the first heading is the document file
//     itself.
//     Plain text and PDF have no headings: one document per file in either mode.
//   - Rows of CSV and JSON Lines take their ID, title and text from named fields (Options); the
//     ID is used as written, and an ID a TREC file cannot carry is an error naming file:line.
//   - Text is kept as read (Markdown as its source), with CRLF read as LF under the rules of
//     every ranklab reader (a BOM dropped; a bare CR is an error naming the file and line); a file
//     that is not UTF-8 has its invalid bytes replaced by U+FFFD and is listed in
//     Imported.Replaced. A file larger than 64 MiB is an error. A document with no text is kept
//     (it is in the team's folder) and listed in Imported.Empty (a PDF that is only scanned
//     images has no text).
//   - Questions (ReadQuestions): one a line, blank lines and lines starting with "#" skipped;
//     "ID<tab>question" gives the ID, else the ID is the question's slug (at most 48 bytes),
//     which stays the same when questions are added, removed or reordered, so the judgments of a
//     question never move to another one. Two questions with one ID are an error naming both lines.
package corpus
