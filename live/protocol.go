package live

import (
	"encoding/json"
	"fmt"
)

// Messages between the page and the kernel travel as JSON strings over GoNB's comms (a
// WebSocket from the page to the Jupyter server, ZeroMQ to GoNB, named pipes to the cell
// program).
//
// Page -> kernel, one address: every message carries a sequence number (incremented by the page
// on each send), the event and the values of ALL controls as the page shows them:
//
//	{"seq":12,"event":"input","values":{"k":7,"rerank":10,...}}
//
// Events: "hello" (the panel's script is connected), "input" and "change" (a control moved),
// "settle" (re-sent ~150 ms after the last input event), and the buttons "reset", "copy",
// "csv", "done". GoNB delivers each message on its own goroutine, so they may arrive out of
// order: the kernel keeps the values of the highest sequence number only, and always carries
// out button events. Because each message holds the whole panel, the newest one alone decides
// the state, and the settle message makes a burst of moves end on the value the slider shows.
//
// Kernel -> page, another address: the sequence number the state reflects, the normalised
// control values (the page applies them only if it sent nothing newer), slider minima and
// maxima and the positions that stand for 0 (sliderSpan), the link, an exported CSV's name and
// content, a status line, and Closed when the loop has ended. Values are the state's: the page
// shows a slider at its zero position when the value is 0, and sends 0 from that position.
type inMsg struct {
	Seq    int            `json:"seq"`
	Event  string         `json:"event"`
	Values map[string]int `json:"values"`
}

type outMsg struct {
	Seq     int               `json:"seq"`
	Values  map[string]int    `json:"values"`
	Min     map[string]int    `json:"min"`
	Max     map[string]int    `json:"max"`
	Zero    map[string]int    `json:"zero"`
	Link    string            `json:"link"`
	Notes   map[string]string `json:"notes"`              // notes under the controls (zeroNote)
	CSV     string            `json:"csv,omitempty"`      // the exported file's name (beside the notebook)
	CSVData string            `json:"csv_data,omitempty"` // its content, which the page offers as a download
	Status  string            `json:"status"`
	Error   string            `json:"error,omitempty"`
	Closed  bool              `json:"closed,omitempty"`
}

// buttons are the events that are actions, carried out even when their values are stale.
var buttons = map[string]bool{"reset": true, "copy": true, "csv": true, "done": true}

// parseIn decodes one page message; a malformed one is an error (never guessed at).
func parseIn(s string) (inMsg, error) {
	var m inMsg
	if err := json.Unmarshal([]byte(s), &m); err != nil {
		return inMsg{}, fmt.Errorf("live: bad message from the page %q: %v", s, err)
	}
	switch m.Event {
	case "hello", "input", "change", "settle", "reset", "copy", "csv", "done":
	default:
		return inMsg{}, fmt.Errorf("live: bad message from the page %q: unknown event %q", s, m.Event)
	}
	return m, nil
}

// inbox keeps what the page sent since the last take: the values of the newest message (by
// sequence number) and every button event in arrival order. GoNB delivers each message on its
// own goroutine, so a message may arrive after a newer one: its values are then ignored, its
// button still carried out.
type inbox struct {
	seq     int // highest sequence number seen
	values  map[string]int
	fresh   bool     // values newer than the last take
	actions []string // button events not yet taken
	hello   bool
}

func newInbox() inbox { return inbox{seq: -1} }

// put records m.
func (b *inbox) put(m inMsg) {
	if m.Seq > b.seq {
		b.seq, b.values, b.fresh = m.Seq, m.Values, true
	}
	if buttons[m.Event] {
		b.actions = append(b.actions, m.Event)
	}
	if m.Event == "hello" {
		b.hello = true
	}
}

// take returns what arrived since the last take: the newest values (nil when none are newer),
// their sequence number, the button events, and whether the page ever said hello.
func (b *inbox) take() (values map[string]int, seq int, actions []string, hello bool) {
	if b.fresh {
		values = b.values
		b.fresh = false
	}
	actions, b.actions = b.actions, nil
	return values, b.seq, actions, b.hello
}
