package lab

import (
	"errors"
	"github.com/ranklab/ranklab/chunking"
	"math"
	"math/rand/v2"
	"strings"
	"testing"
)

// randomState draws a valid state: every field within its range, including the edges.
func randomState(r *rand.Rand) State {
	pick := func(edges []int, lo, hi int) int {
		if r.IntN(4) == 0 {
			return edges[r.IntN(len(edges))]
		}
		return lo + r.IntN(hi-lo+1)
	}
	s := State{Seed: r.Int64() - math.MaxInt64/2}
	if r.IntN(5) == 0 {
		s.Seed = []int64{math.MinInt64, -1, 0, math.MaxInt64}[r.IntN(4)]
	}
	s.Size = pick([]int{1, maxSize}, 1, 40)
	s.K = pick([]int{1, maxK, s.Size, s.Size + 1}, 1, 50)
	s.Rerank = pick([]int{0, s.Size}, 0, s.Size)
	s.MinGrade = 1 + r.IntN(MaxGrade)
	s.Chunk = pick([]int{1, chunking.MaxChunk}, 1, 4096)
	s.Overlap = pick([]int{0, s.Chunk - 1}, 0, s.Chunk-1)
	s.Corpus = pick([]int{0, 1, chunking.MaxCorpus}, 0, 1_000_000)
	found, _ := relevantCounts(s.Synthetic(), s.MinGrade)
	if r.IntN(2) == 0 {
		s.Total = pick([]int{found, maxTotal}, found, found+10)
		if s.Total == 0 {
			s.Total = found + 1
		}
	}
	// Drawn from a generator of its own, so r's draws (the other fields) are those of the seeds the
	// tests were written with.
	q := rand.New(rand.NewPCG(uint64(s.Seed), 15))
	s.RerankQuality = []int{0, maxRerankQuality, q.IntN(maxRerankQuality + 1), q.IntN(maxRerankQuality + 1)}[q.IntN(4)]
	return s
}

// cappedStates returns DefaultState and n states drawn by randomState with at most size
// candidates (the rerank depth clamped to them).
func cappedStates(r *rand.Rand, n, size int) []State {
	states := []State{DefaultState()}
	for range n {
		s := randomState(r)
		s.Size = min(s.Size, size)
		s.Rerank = min(s.Rerank, s.Size)
		states = append(states, s)
	}
	return states
}

func TestLinkRoundTrip(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for i := 0; i < 500; i++ {
		s := randomState(r)
		if err := s.Validate(); err != nil {
			t.Fatalf("randomState drew an invalid state %+v: %v", s, err)
		}
		got, err := ParseLink(s.Link())
		if err != nil {
			t.Fatalf("ParseLink(%q): %v", s.Link(), err)
		}
		if got != s {
			t.Fatalf("ParseLink(%q) = %+v, want %+v", s.Link(), got, s)
		}
		if got, err := ParseLink("?" + s.Link()); err != nil || got != s {
			t.Fatalf("with '?': %+v, %v", got, err)
		}
	}
}

func TestLinkFormat(t *testing.T) {
	want := "k=5&rerank=10&rerank_quality=50&grade=1&total=0&corpus=10000&chunk=512&overlap=128&seed=2278&n=20"
	if got := DefaultState().Link(); got != want {
		t.Errorf("default link %q, want %q", got, want)
	}
}

func TestParseLinkPartial(t *testing.T) {
	cases := []struct {
		link string
		want func(*State)
	}{
		{"", func(*State) {}},
		{"?", func(*State) {}},
		{"k=3", func(s *State) { s.K = 3 }},
		{"n=30&rerank=25&k=12", func(s *State) { s.Size, s.Rerank, s.K = 30, 25, 12 }},
		{"seed=-9223372036854775808", func(s *State) { s.Seed = math.MinInt64 }},
		{"overlap=0&chunk=1", func(s *State) { s.Overlap, s.Chunk = 0, 1 }},
	}
	for _, c := range cases {
		t.Run(c.link, func(t *testing.T) {
			want := DefaultState()
			c.want(&want)
			got, err := ParseLink(c.link)
			if err != nil || got != want {
				t.Errorf("ParseLink(%q) = %+v, %v; want %+v", c.link, got, err, want)
			}
		})
	}
}

func TestParseLinkErrors(t *testing.T) {
	cases := []struct{ link, want string }{
		{"k=5&foo=1", `link: unknown key "foo" (keys: k, rerank, rerank_quality, grade, total, corpus, chunk, overlap, seed, n)`},
		{"K=5", `link: unknown key "K" (keys: k, rerank, rerank_quality, grade, total, corpus, chunk, overlap, seed, n)`},
		{"k=5&k=6", "k: given twice"},
		{"k", `link: part 1 "k" is not key=value`},
		{"k=5&&n=3", `link: part 2 "" is not key=value`},
		{"k=5&", `link: part 2 "" is not key=value`},
		{"k=abc", `k: "abc" is not an integer`},
		{"k=", `k: "" is not an integer`},
		{"k=1.5", `k: "1.5" is not an integer`},
		{"k=%35", `k: "%35" is not an integer`},
		{"seed=9223372036854775808", `seed: "9223372036854775808" is not an integer`},
		{"k=0", "k: 0 must be in 1..10000"},
		{"overlap=512", "overlap: 512 must be in 0..511 (below chunk size 512)"},
		{"rerank=21", "rerank: 21 must be in 0..20 (the list has 20 candidates)"},
		{"rerank_quality=101", "rerank_quality: 101 must be in 0..100 (percent: 0 = noise, 75 and above = orders by grade)"},
		{"rerank_quality=-1", "rerank_quality: -1 must be in 0..100 (percent: 0 = noise, 75 and above = orders by grade)"},
		{"grade=9", "grade: 9 must be in 1..3 (grades run 0..3; 0 is not relevant)"},
		{"total=2", "total: 2 must be 0 (the qrels' count, 8) or in 5..100000 (at least the 5 items with grade >= 1 in the ranking)"},
		{"n=0", "n: 0 must be in 1..1000 (candidates in the ranking)"},
		{"corpus=-1", "corpus: -1 must be in 0..1099511627776"},
	}
	for _, c := range cases {
		t.Run(c.link, func(t *testing.T) {
			s, err := ParseLink(c.link)
			if err == nil || err.Error() != c.want {
				t.Fatalf("ParseLink(%q) = %+v, %v; want error %q", c.link, s, err, c.want)
			}
			var fe *fieldError
			if !errors.As(err, &fe) || !strings.HasPrefix(c.want, fe.Field+": ") {
				t.Errorf("error %#v does not name its field", err)
			}
			if s != (State{}) {
				t.Errorf("a failed parse returned %+v", s)
			}
		})
	}
}

// FuzzParseLink: ParseLink either fails with a field error or returns a valid state whose link
// parses back to it.
func FuzzParseLink(f *testing.F) {
	for _, s := range []string{"", "?", DefaultState().Link(), "k=3", "k=5&foo=1", "k=5&k=6", "k=&n=",
		"overlap=511&chunk=512", "total=8&grade=2", "n=1000&rerank=1000&k=10000", "seed=-1", "k=+5", "k=0x10"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, link string) {
		s, err := ParseLink(link)
		if err != nil {
			var fe *fieldError
			if !errors.As(err, &fe) {
				t.Fatalf("ParseLink(%q): error %T %v is not a *FieldError", link, err, err)
			}
			return
		}
		if err := s.Validate(); err != nil {
			t.Fatalf("ParseLink(%q) returned an invalid state: %v", link, err)
		}
		back, err := ParseLink(s.Link())
		if err != nil || back != s {
			t.Fatalf("round trip of %q: %+v, %v", link, back, err)
		}
	})
}

func TestWithLink(t *testing.T) {
	base := DefaultState()
	base.K, base.Overlap = 3, 100
	got, err := base.WithLink("k=8&seed=9")
	if err != nil {
		t.Fatal(err)
	}
	want := base
	want.K, want.Seed = 8, 9
	if got != want {
		t.Errorf("WithLink = %+v, want %+v", got, want)
	}
	if _, err := base.WithLink("k=x"); err == nil || !strings.Contains(err.Error(), `k: "x" is not an integer`) {
		t.Errorf("bad value: err = %v", err)
	}
	if got, err := base.WithLink(""); err != nil || got != base {
		t.Errorf("empty link: %+v, %v; want the state unchanged", got, err)
	}
}
