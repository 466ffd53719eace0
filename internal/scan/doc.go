// Package scan is the byte-level machinery behind the evaluator's readers: one field splitter,
// the exact fast path for decimal scores, input opening (gzip detected by its magic bytes), the
// block reader that cuts a run into pieces of whole queries, the ordered worker pipeline and the
// open-addressing table of a query's doc IDs. Package eval documents the contracts; nothing here
// decides a semantic question.
package scan
