package panel

import (
	"context"
	"os"
	"os/signal"
	"sync"
	"time"

	"github.com/janpfeifer/gonb/gonbui"
	"github.com/janpfeifer/gonb/gonbui/comms"
)

// The reasons a panel's loop ends (what Serve returns and a panel's final screen explains).
const (
	Done       = "done"        // the page asked to end (its Done button)
	Idle       = "idle"        // no message from the page for Options.Idle
	MaxTime    = "max"         // the loop ran for Options.Max
	Interrupt  = "interrupt"   // the cell was interrupted (SIGINT: Jupyter's interrupt)
	NoFrontend = "no-frontend" // Auto: no page said hello within Options.Probe
)

// A Handler is one panel's part of Serve: what the panel shows and how it answers its page. It
// parses, applies and renders; Serve owns the connection and the loop's life.
type Handler interface {
	// Show displays the panel with its page script. Serve calls it once it has subscribed to
	// the page's address (subscribing makes GoNB install gonb_comm in the page, which the
	// script waits for).
	Show()
	// Handle applies the page's messages that arrived since the last call, in arrival order
	// (GoNB delivers each on a goroutine of its own, so they may be out of the page's order).
	// It returns the replies to send to the page, in order, whether one of the messages was the
	// page's hello (the page is connected: the probe and the pokes stop), and end, the reason to
	// end the loop when the page asked to (Done, or the panel's own), "" to go on.
	Handle(msgs []string) (replies []string, hello bool, end string)
	// Final shows the end of the panel for reason (Idle, MaxTime, Interrupt, NoFrontend or
	// what Handle ended with). send sends a last reply to the page; it is nil when no page ever connected.
	Final(reason string, send func(reply string))
	// Orphaned is called when the kernel that started this cell program is gone, just before
	// the program exits (release what the panel holds: a lock, say).
	Orphaned()
}

// Serve runs a panel in the current cell: it subscribes to the page's address in, shows the
// panel (h.Show), and hands every message from the page to h.Handle, sending its replies to the
// address out, until the loop ends; then h.Final shows the end. It returns the reason:
//
//   - Done (or the panel's own reason) when h.Handle says so;
//   - NoFrontend in Auto mode when no hello came within opt.Probe (Live mode waits without a
//     probe);
//   - Idle after opt.Idle without a message, MaxTime after opt.Max in all;
//   - Interrupt on SIGINT (Jupyter's interrupt; the kernel kills the program 5 s later).
//
// Until the page says hello, Serve pokes GoNB after PokeFirst, then at doubling intervals up to
// PokeMax (NextPoke): each poke makes GoNB check its WebSocket to the page and install it again
// when the page's side is gone, which the page's connectComm follows. Throughout, the orphan
// watch (watchParentExit) ends the program, after h.Orphaned, once the kernel is gone: a restarted
// kernel or a stopped server leaves the cell program running otherwise.
func Serve(in, out string, h Handler, opt Options) string {
	// The watch lasts until Serve returns, past the loop: a kernel that shuts down may first
	// interrupt the cell (ending the loop), and the final screen's gonbui.Sync then waits for it
	// forever.
	watch, unwatch := context.WithCancel(context.Background())
	defer unwatch()
	watchParentExit(watch, h.Orphaned)
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	return serve(ctx, in, out, h, opt.WithDefaults(), gonbLink{}, PokeFirst)
}

// link is what Serve needs of GoNB: gonbLink in a notebook, a fake in the tests.
type link interface {
	subscribe(address string, receive func(value string)) (unsubscribe func())
	send(address, value string)
	poke() // check (heartbeat) or install again the WebSocket to the page
	sync() // wait until every output sent so far is shown
}

// gonbLink is GoNB's comms and display.
type gonbLink struct{}

func (gonbLink) subscribe(address string, receive func(string)) func() {
	sub := comms.Subscribe(address, func(_ string, v string) { receive(v) })
	return func() { comms.Unsubscribe(sub) }
}
func (gonbLink) send(address, value string) { comms.Send(address, value) }
func (gonbLink) poke()                      { comms.Start() }
func (gonbLink) sync()                      { gonbui.Sync() }

// serve is Serve's loop over l, ending at the latest when ctx does (Interrupt); pokeFirst is the
// first poke's wait.
func serve(ctx context.Context, in, out string, h Handler, opt Options, l link, pokeFirst time.Duration) string {
	q := newQueue()
	defer l.subscribe(in, q.put)()
	h.Show()
	l.sync()

	ctx, cancel := context.WithTimeout(ctx, opt.Max)
	defer cancel()
	var probe <-chan time.Time
	if opt.Mode == Auto {
		probe = time.After(opt.Probe)
	}
	pokeWait := pokeFirst
	poke := time.NewTimer(pokeWait)
	defer poke.Stop()
	idle := time.NewTimer(opt.Idle)
	defer idle.Stop()
	connected := false
	reason := ""
loop:
	for {
		select {
		case <-probe:
			if !connected {
				reason = NoFrontend
				break loop
			}
		case <-poke.C:
			if connected {
				continue
			}
			l.poke()
			pokeWait = NextPoke(pokeWait)
			poke.Reset(pokeWait)
		case <-ctx.Done():
			reason = MaxTime
			if ctx.Err() == context.Canceled {
				reason = Interrupt
			}
			break loop
		case <-idle.C:
			reason = Idle
			break loop
		case <-q.wake:
			msgs := q.take()
			if len(msgs) == 0 {
				continue
			}
			idle.Reset(opt.Idle)
			replies, hello, end := h.Handle(msgs)
			connected = connected || hello
			for _, r := range replies {
				l.send(out, r)
			}
			if end != "" {
				reason = end
				break loop
			}
		}
	}
	var send func(string)
	if reason != NoFrontend {
		send = func(r string) { l.send(out, r) }
	}
	h.Final(reason, send)
	l.sync()
	return reason
}

// queue holds the page's messages between GoNB's goroutines, which put them, and the loop, which
// takes them all at once (a burst of slider moves is one Handle).
type queue struct {
	mu   sync.Mutex
	msgs []string
	wake chan struct{}
}

func newQueue() *queue { return &queue{wake: make(chan struct{}, 1)} }

// put adds a message and wakes the loop.
func (q *queue) put(m string) {
	q.mu.Lock()
	q.msgs = append(q.msgs, m)
	q.mu.Unlock()
	select {
	case q.wake <- struct{}{}:
	default:
	}
}

// take returns the messages put since the last take, in arrival order.
func (q *queue) take() []string {
	q.mu.Lock()
	defer q.mu.Unlock()
	m := q.msgs
	q.msgs = nil
	return m
}
