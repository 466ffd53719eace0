// Package scan is the input layer of every ranklab reader (qrels, runs, prefs, z-scores, BEIR
// TSV and JSON Lines, chunk maps, passages, the lab's CSV) and the byte-level machinery behind
// the evaluator: one field splitter, the exact fast path for decimal scores, the block reader
// that cuts a run into pieces of whole queries, the ordered worker pipeline and the
// open-addressing table of a query's doc IDs. Package eval documents the contracts; nothing here
// decides a semantic question.
//
// The rules every reader shares, each in one place:
//
//   - opening (Open, OpenSource): "-" is standard input; gzip is recognised by its magic bytes
//     whatever the name and read as gzip -d reads it (concatenated members, zero padding after
//     the last; other trailing bytes are ErrTrailingGarbage, an early end ErrTruncated); bzip2,
//     xz and zstd are refused by name (ErrCompressed) (Decompress);
//   - lines (Lines, or LineCap for a parser that needs the bytes, encoding/csv): a leading
//     byte-order mark dropped, CRLF read, a carriage return inside a line ErrBareCR, a line
//     longer than MaxLine (64 MiB) ErrLineTooLong, read no further than the cap (/dev/zero ends);
//     the block reader of the streaming evaluator applies the same cap;
//   - fields: ASCII whitespace separates them (Fields), and TrimSpace drops only that, so an ID
//     keeps a U+00A0 in every format; a line whose first field starts with '#' is a comment
//     where the format has comments;
//   - pipes: Keep makes a non-seekable input readable more than once in a process (a command that
//     evaluates and preflights the same "-"), and OpenSource(path, true) keeps a copy for a
//     second pass: in memory up to MemSpool (64 MiB), then in $TMPDIR; the copy's failure
//     matters only when a second pass is needed, and SpoolError then says how many bytes of
//     $TMPDIR it needs.
//
// Errors are the callers' to position: each reader reports "file:line: msg" (the line of a
// Lines error is Line()+1).
package scan
