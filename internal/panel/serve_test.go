package panel

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"
)

// fakeLink stands for GoNB: it records what Serve sends and when it pokes, and delivers the
// test's messages to the subscription as GoNB does, each on a goroutine of its own.
type fakeLink struct {
	mu       sync.Mutex
	receive  func(string)
	unsubbed bool
	sent     []string // "address value"
	pokes    []time.Time
	syncs    int
}

func (l *fakeLink) subscribe(address string, receive func(string)) func() {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.receive = receive
	return func() { l.mu.Lock(); l.unsubbed = true; l.mu.Unlock() }
}
func (l *fakeLink) send(address, value string) {
	l.mu.Lock()
	l.sent = append(l.sent, address+" "+value)
	l.mu.Unlock()
}
func (l *fakeLink) poke() { l.mu.Lock(); l.pokes = append(l.pokes, time.Now()); l.mu.Unlock() }
func (l *fakeLink) sync() { l.mu.Lock(); l.syncs++; l.mu.Unlock() }

// page sends msg from the page (on a goroutine, as GoNB delivers it) once Serve has subscribed.
func (l *fakeLink) page(msg string) {
	for {
		l.mu.Lock()
		r := l.receive
		l.mu.Unlock()
		if r != nil {
			go r(msg)
			return
		}
		time.Sleep(time.Millisecond)
	}
}

// fakeHandler answers "hello" (hello), "done" (done) and anything else with "re:" + the message.
type fakeHandler struct {
	mu        sync.Mutex
	shown     int
	handled   []string
	helloAt   time.Time
	final     string
	finalSent bool
	orphaned  bool
}

func (h *fakeHandler) Show() { h.mu.Lock(); h.shown++; h.mu.Unlock() }
func (h *fakeHandler) Handle(msgs []string) (replies []string, hello bool, end string) {
	h.mu.Lock()
	defer h.mu.Unlock()
	for _, m := range msgs {
		h.handled = append(h.handled, m)
		switch m {
		case "hello":
			hello = true
			h.helloAt = time.Now()
			replies = append(replies, "welcome")
		case "done":
			return replies, hello, Done
		default:
			replies = append(replies, "re:"+m)
		}
	}
	return replies, hello, ""
}
func (h *fakeHandler) Final(reason string, send func(string)) {
	h.final = reason
	if send != nil {
		h.finalSent = true
		send("closed: " + reason)
	}
}
func (h *fakeHandler) Orphaned() { h.orphaned = true }

// run serves h over l with opt (pokes from 20 ms) and returns the reason.
func run(ctx context.Context, h *fakeHandler, l *fakeLink, opt Options) string {
	return serve(ctx, "/in", "/out", h, opt, l, 20*time.Millisecond)
}

func TestServeEnds(t *testing.T) {
	long := time.Hour
	for _, tc := range []struct {
		name   string
		opt    Options
		page   []string // sent 10 ms apart
		cancel bool     // interrupt after the page's messages
		want   string
		sent   []string // the replies, then Final's
	}{
		{"no front-end", Options{Mode: Auto, Probe: 150 * time.Millisecond, Idle: long, Max: long}, nil, false, NoFrontend, nil},
		{"done", Options{Mode: Auto, Probe: long, Idle: long, Max: long}, []string{"hello", "k=1", "done"}, false, Done,
			[]string{"/out welcome", "/out re:k=1", "/out closed: done"}},
		{"idle", Options{Mode: Auto, Probe: long, Idle: 100 * time.Millisecond, Max: long}, []string{"hello"}, false, Idle,
			[]string{"/out welcome", "/out closed: idle"}},
		{"max", Options{Mode: Live, Probe: 10 * time.Millisecond, Idle: long, Max: 150 * time.Millisecond}, nil, false, MaxTime,
			[]string{"/out closed: max"}},
		{"interrupt", Options{Mode: Live, Probe: long, Idle: long, Max: long}, []string{"hello"}, true, Interrupt,
			[]string{"/out welcome", "/out closed: interrupt"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			h, l := &fakeHandler{}, &fakeLink{}
			go func() {
				for _, m := range tc.page {
					l.page(m)
					time.Sleep(10 * time.Millisecond) // one at a time, in order
				}
				if tc.cancel {
					time.Sleep(50 * time.Millisecond)
					cancel()
				}
			}()
			got := run(ctx, h, l, tc.opt)
			if got != tc.want || h.final != got {
				t.Errorf("ended %q, Final %q; want %q", got, h.final, tc.want)
			}
			if !slices.Equal(l.sent, tc.sent) {
				t.Errorf("sent %q, want %q", l.sent, tc.sent)
			}
			if h.finalSent != (got != NoFrontend) || h.shown != 1 || l.syncs != 2 || !l.unsubbed {
				t.Errorf("Final could send %v, shown %d, synced %d, unsubscribed %v; want send unless no front-end, 1, 2, true",
					h.finalSent, h.shown, l.syncs, l.unsubbed)
			}
		})
	}
}

// TestServePokes: until the page says hello, GoNB is poked after 20 ms, then at doubling
// intervals up to PokeMax (lower bounds only: a loaded machine fires timers late, never early);
// after hello, never again, and the probe no longer ends the loop.
func TestServePokes(t *testing.T) {
	h, l := &fakeHandler{}, &fakeLink{}
	go func() {
		time.Sleep(400 * time.Millisecond)
		l.page("hello")
		time.Sleep(600 * time.Millisecond) // past the probe and several poke intervals
		l.page("done")
	}()
	got := run(context.Background(), h, l, Options{Mode: Auto, Probe: 700 * time.Millisecond, Idle: time.Hour, Max: time.Hour})
	if got != Done {
		t.Fatalf("ended %q, want done (the probe ends nothing once the page said hello)", got)
	}
	if len(l.pokes) < 2 {
		t.Fatalf("%d pokes in the 400 ms before hello, want at least 2 (20 ms, then 40 ms later)", len(l.pokes))
	}
	for i, p := range l.pokes {
		if !p.Before(h.helloAt) {
			t.Errorf("poke %d came after the page's hello", i+1)
		}
		if i > 0 {
			want := min(20*time.Millisecond<<i, PokeMax)
			if gap := p.Sub(l.pokes[i-1]); gap < want-2*time.Millisecond {
				t.Errorf("poke %d came %s after the one before, want at least %s (doubling)", i+1, gap, want)
			}
		}
	}
}

// TestServeBatches: messages from many goroutines at once all reach Handle, none twice, in
// batches; each reply goes out in order.
func TestServeBatches(t *testing.T) {
	h, l := &fakeHandler{}, &fakeLink{}
	const n = 200
	go func() {
		l.page("hello")
		var wg sync.WaitGroup
		for i := range n {
			wg.Add(1)
			go func() { defer wg.Done(); l.page(fmt.Sprint("m", i)) }()
		}
		wg.Wait()
		for {
			h.mu.Lock()
			k := len(h.handled)
			h.mu.Unlock()
			if k == n+1 {
				break
			}
			time.Sleep(5 * time.Millisecond)
		}
		l.page("done")
	}()
	if got := run(context.Background(), h, l, Options{Mode: Auto, Probe: time.Hour, Idle: time.Hour, Max: time.Hour}); got != Done {
		t.Fatalf("ended %q", got)
	}
	seen := map[string]int{}
	for _, m := range h.handled {
		seen[m]++
	}
	for i := range n {
		if seen[fmt.Sprint("m", i)] != 1 {
			t.Fatalf("message m%d handled %d times", i, seen[fmt.Sprint("m", i)])
		}
	}
	// Each reply follows its message's place in the batches.
	var want []string
	for _, m := range h.handled {
		switch {
		case m == "hello":
			want = append(want, "/out welcome")
		case strings.HasPrefix(m, "m"):
			want = append(want, "/out re:"+m)
		}
	}
	want = append(want, "/out closed: done")
	if !slices.Equal(l.sent, want) {
		t.Errorf("replies out of order: %d sent, %d expected", len(l.sent), len(want))
	}
}
