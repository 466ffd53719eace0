package panel

import (
	_ "embed"
	"time"
)

// commJS is connectComm, the page side of a panel's connection (see comm.js).
//
//go:embed comm.js
var commJS string

// Script is the <script> element of a panel: body, the panel's own page script, runs as
// function(cfg){...} with cfg, a JSON object (HTML-safe: no "<", ">" or "&" unescaped), and
// connectComm (comm.js) defined before it.
func Script(body, cfg string) string {
	return "<script>(function(cfg){" + commJS + "\n" + body + "})(" + cfg + ");</script>"
}

// Serve, while it has not heard from the page yet, asks GoNB to check its WebSocket to the page
// (and install it again when the page's side is gone, which connectComm follows) after PokeFirst,
// then at doubling intervals up to PokeMax (NextPoke). Each new installation adds GoNB's script as an
// output of the cell, so without a page (nbconvert in auto mode) the backoff keeps those few: 2
// in the 8 s headless probe.
const (
	PokeFirst = 2 * time.Second
	PokeMax   = 8 * time.Second
)

// NextPoke is the wait after a poke that waited d: 2d, at most PokeMax.
func NextPoke(d time.Duration) time.Duration { return min(2*d, PokeMax) }
