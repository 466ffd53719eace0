package main

import (
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"
	"text/tabwriter"

	"github.com/ranklab/ranklab/internal/numflag"

	"github.com/ranklab/ranklab/lab"
)

func init() {
	commands["lab"] = command{summary: "the lab: synthetic ranking, metrics at k, reranking, chunking footprint", run: runLab}
}

const labUsage = `usage: ranklab lab [--k N] [--rerank N] [--rerank_quality N] [--grade N] [--total N]
                  [--corpus N] [--chunk N] [--overlap N] [--seed N] [--n N] [--link STRING]
                  [-f text|json|csv]

Computes the lab for one state: the seeded synthetic ranking (a query, n candidates graded
0..3, the first stage reranked in its first --rerank positions by a reranker of quality
--rerank_quality percent: 0 = noise, 75 and above = orders by grade), precision, recall, MRR and nDCG
(gain 2^grade-1) at k, the chunking footprint, the two readings and the state's link. --link
restores a state (k=5&rerank=10&...); flags given with it override its fields. Defaults: the
lab's documented state (k=5, rerank=10, rerank_quality=50, grade=1, total=0 = the qrels' count,
corpus=10000, chunk=512, overlap=128, seed=2278, n=20).

  -f text   the ranking (* marks the items inside k), metrics (first stage -> reranked),
            footprint, readings and link (default)
  -f json   one object: precision, recall, mrr, ndcg, relevant_in_k, recall_denominator, stride,
            chunks, indexed_tokens, duplicated_tokens, duplication, link, state, query,
            first_stage, items, missed, reading, chunk_reading
  -f csv    the lab's CSV (package lab, WriteCSV)

An invalid value is reported with the field and its allowed range; exit status 1.
`

func runLab(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("ranklab lab", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() { io.WriteString(stderr, labUsage) }
	stateFlags := addLabStateFlags(fs)
	format := fs.String("f", "text", "output format: text, json or csv")
	if err := fs.Parse(args); err != nil {
		return flagStatus(err, 1)
	}
	fail := failer(stderr, "ranklab lab")
	if fs.NArg() > 0 {
		return fail(2, "unexpected argument %q\n%s", fs.Arg(0), synopsis(labUsage))
	}
	if *format != "text" && *format != "json" && *format != "csv" {
		return fail(1, "-f: %q must be text, json or csv", *format)
	}
	s, err := stateFlags.state(fs)
	if err != nil {
		return fail(1, "%v", err)
	}
	o, err := s.Outcome()
	if err != nil {
		return fail(1, "%v", err)
	}
	switch *format {
	case "json":
		err = writeLabJSON(stdout, o)
	case "csv":
		err = lab.WriteCSV(stdout, o)
	default:
		err = writeLabText(stdout, o)
	}
	if err != nil {
		return fail(1, "%v", err)
	}
	return 0
}

// labFlags holds the flags that set a lab state: one per state field, and --link.
type labFlags struct {
	vals map[string]*int64
	link *string
}

// addLabStateFlags defines the state flags (defaults: the lab's default state) and --link on fs;
// ranklab lab and ranklab render lab share them.
func addLabStateFlags(fs *flag.FlagSet) labFlags {
	lf := labFlags{vals: map[string]*int64{}}
	for _, f := range lab.Fields {
		lf.vals[f.Key] = numflag.NewInt64(fs, f.Key, f.Default, f.Help)
	}
	lf.link = fs.String("link", "", "restore the state of a lab link (k=5&rerank=10&...); other flags override it")
	return lf
}

// state returns the state the parsed flags describe: the link's state (or the default), with
// the flags given explicitly overriding its fields. It does not validate the state's ranges:
// the final state is validated (by its caller), not the link before the flags apply, so
// "--link chunk=64&overlap=100 --overlap 32" is the valid state chunk 64, overlap 32.
func (lf labFlags) state(fs *flag.FlagSet) (lab.State, error) {
	s := lab.DefaultState()
	if *lf.link != "" {
		var err error
		if s, err = s.WithLink(*lf.link); err != nil {
			return s, fmt.Errorf("--link: %w", err)
		}
	}
	// The link's key set is the flags' name set: the flags given explicitly form a link whose
	// fields override the state's.
	var overrides []string
	fs.Visit(func(f *flag.Flag) {
		if _, ok := lf.vals[f.Name]; ok {
			overrides = append(overrides, f.Name+"="+f.Value.String())
		}
	})
	return s.WithLink(strings.Join(overrides, "&"))
}

// writeLabText prints the ranking with the items inside k marked, the metrics, the footprint,
// both readings and the link.
func writeLabText(w io.Writer, o lab.Outcome) error {
	s, m, f := o.State, o.Metrics, o.FirstMetrics
	var b strings.Builder
	if o.Query != "" {
		fmt.Fprintf(&b, "Query: %s\n", o.Query)
	}
	fmt.Fprintf(&b, "Ranking: %d candidates, k = %d, rerank depth %d (reranker quality %d%%), relevant = grade >= %d  (* inside k)\n",
		len(o.Items), s.K, s.Rerank, s.RerankQuality, s.MinGrade)
	tw := tabwriter.NewWriter(&b, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "\trank\twas\tdoc\tgrade\trelevant\tfirst score\treranker score\t\t")
	for _, it := range o.Items {
		mark, rel := "", "-"
		if it.InsideK {
			mark = "*"
		}
		if it.Relevant {
			rel = "yes"
		}
		fmt.Fprintf(tw, "%s\t%d\t%d\t%s\t%d\t%s\t%g\t%g\t\t%s\n", mark, it.Rank, it.FirstRank, it.Doc, it.Grade, rel, it.FirstScore, it.RerankScore, it.Label)
	}
	tw.Flush()
	if len(o.Missed) > 0 {
		parts := make([]string, len(o.Missed))
		for i, c := range o.Missed {
			parts[i] = fmt.Sprintf("%s (grade %d, %s)", c.Doc, c.Grade, c.Label)
		}
		fmt.Fprintf(&b, "Judged but not retrieved: %s\n", strings.Join(parts, ", "))
	}
	fmt.Fprintf(&b, "\nMetrics at k = %d (first stage -> reranked at depth %d)\n", s.K, s.Rerank)
	tw = tabwriter.NewWriter(&b, 0, 0, 2, ' ', 0)
	fmt.Fprintf(tw, "  precision@%d\t%.4f -> %.4f\n", s.K, f.Precision, m.Precision)
	fmt.Fprintf(tw, "  recall@%d\t%.4f -> %.4f\t(denominator %d)\n", s.K, f.Recall, m.Recall, m.Denominator)
	fmt.Fprintf(tw, "  MRR@%d\t%.4f -> %.4f\n", s.K, f.MRR, m.MRR)
	fmt.Fprintf(tw, "  nDCG@%d\t%.4f -> %.4f\t(gain 2^grade-1)\n", s.K, f.NDCG, m.NDCG)
	fmt.Fprintf(tw, "  relevant in top %d\t%d -> %d\n", s.K, f.RelevantInK, m.RelevantInK)
	tw.Flush()
	fp := o.Footprint
	fmt.Fprintf(&b, "\nFootprint: corpus %d tokens, chunk %d, overlap %d\n", fp.Corpus, fp.Chunk, fp.Overlap)
	fmt.Fprintf(&b, "  stride %d, chunks %d, indexed %d tokens, duplicated %d tokens (%.1f%%)\n",
		fp.Stride, fp.Chunks, fp.Indexed, fp.Duplicated, 100*fp.Duplication)
	b.WriteString("\nReading:\n")
	for _, r := range o.Reading {
		fmt.Fprintf(&b, "  - %s\n", r)
	}
	b.WriteString("\nChunking reading:\n")
	for _, r := range o.ChunkReading {
		fmt.Fprintf(&b, "  - %s\n", r)
	}
	fmt.Fprintf(&b, "\nLink: %s\n", o.Link)
	_, err := io.WriteString(w, b.String())
	return err
}

type labMetricsJSON struct {
	K                 int     `json:"k"`
	Rerank            int     `json:"rerank"`
	Precision         float64 `json:"precision"`
	Recall            float64 `json:"recall"`
	MRR               float64 `json:"mrr"`
	NDCG              float64 `json:"ndcg"`
	RelevantInK       int     `json:"relevant_in_k"`
	RecallDenominator int     `json:"recall_denominator"`
}

type labItemJSON struct {
	Rank        int     `json:"rank,omitempty"`
	FirstRank   int     `json:"first_rank,omitempty"`
	Doc         string  `json:"doc"`
	Label       string  `json:"label"`
	Grade       int     `json:"grade"`
	FirstScore  float64 `json:"first_score"`
	RerankScore float64 `json:"rerank_score"`
	InsideK     bool    `json:"inside_k"`
	Relevant    bool    `json:"relevant"`
}

// labStateJSON is the state as one object, keys in lab.Fields order.
type labStateJSON lab.State

func (s labStateJSON) MarshalJSON() ([]byte, error) {
	b := []byte{'{'}
	for i, f := range lab.Fields {
		if i > 0 {
			b = append(b, ',')
		}
		b = strconv.AppendQuote(b, f.Key)
		b = append(b, ':')
		b = strconv.AppendInt(b, f.Get(lab.State(s)), 10)
	}
	return append(b, '}'), nil
}

// UnmarshalJSON reads the object MarshalJSON writes; an unknown key is an error.
func (s *labStateJSON) UnmarshalJSON(b []byte) error {
	var m map[string]int64
	if err := json.Unmarshal(b, &m); err != nil {
		return err
	}
	st := lab.State(*s)
	for k, v := range m {
		i := slices.IndexFunc(lab.Fields, func(f lab.Field) bool { return f.Key == k })
		if i < 0 {
			return fmt.Errorf("state: unknown key %q", k)
		}
		st = lab.Fields[i].Set(st, v)
	}
	*s = labStateJSON(st)
	return nil
}

type labJSON struct {
	labMetricsJSON
	Stride           int            `json:"stride"`
	Chunks           int            `json:"chunks"`
	IndexedTokens    int            `json:"indexed_tokens"`
	DuplicatedTokens int            `json:"duplicated_tokens"`
	Duplication      float64        `json:"duplication"`
	Link             string         `json:"link"`
	State            labStateJSON   `json:"state"`
	Query            string         `json:"query"`
	FirstStage       labMetricsJSON `json:"first_stage"`
	Items            []labItemJSON  `json:"items"`
	Missed           []labItemJSON  `json:"missed"`
	Reading          []string       `json:"reading"`
	ChunkReading     []string       `json:"chunk_reading"`
}

func labMetricsOut(m lab.Metrics) labMetricsJSON {
	return labMetricsJSON{K: m.K, Rerank: m.Rerank, Precision: m.Precision, Recall: m.Recall, MRR: m.MRR, NDCG: m.NDCG,
		RelevantInK: m.RelevantInK, RecallDenominator: m.Denominator}
}

// writeLabJSON prints the outcome as one JSON object.
func writeLabJSON(w io.Writer, o lab.Outcome) error {
	s, fp := o.State, o.Footprint
	out := labJSON{
		labMetricsJSON: labMetricsOut(o.Metrics),
		Stride:         fp.Stride, Chunks: fp.Chunks, IndexedTokens: fp.Indexed, DuplicatedTokens: fp.Duplicated, Duplication: fp.Duplication,
		Link:         o.Link,
		State:        labStateJSON(s),
		Query:        o.Query,
		FirstStage:   labMetricsOut(o.FirstMetrics),
		Items:        make([]labItemJSON, 0, len(o.Items)),
		Missed:       make([]labItemJSON, 0, len(o.Missed)),
		Reading:      o.Reading,
		ChunkReading: o.ChunkReading,
	}
	for _, it := range o.Items {
		out.Items = append(out.Items, labItemJSON{Rank: it.Rank, FirstRank: it.FirstRank, Doc: it.Doc, Label: it.Label, Grade: it.Grade,
			FirstScore: it.FirstScore, RerankScore: it.RerankScore, InsideK: it.InsideK, Relevant: it.Relevant})
	}
	for _, c := range o.Missed {
		out.Missed = append(out.Missed, labItemJSON{Doc: c.Doc, Label: c.Label, Grade: c.Grade, FirstScore: c.FirstScore,
			RerankScore: c.RerankScore, Relevant: c.Grade >= s.MinGrade})
	}
	return writeJSON(w, out)
}
