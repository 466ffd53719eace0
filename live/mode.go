package live

import (
	"fmt"
	"os"
	"strings"
	"time"
)

// mode chooses between the live panel and a static snapshot (Options.Mode: Auto or Static; the
// live mode is RANKLAB_LIVE=live).
type mode int

const (
	// Auto shows the live panel and falls back to a static snapshot when no front-end answers
	// within options.Probe.
	Auto mode = iota
	// modeLive (RANKLAB_LIVE=live) shows the live panel and waits for a front-end without a probe deadline (the loop
	// still ends on Done, Idle, Max or an interrupt).
	modeLive
	// Static shows a snapshot at once and never talks to the front-end.
	Static
)

// envMode is the environment variable that forces a mode: "static", "live" or "auto".
const envMode = "RANKLAB_LIVE"

// String returns "auto", "live" or "static".
func (m mode) String() string {
	switch m {
	case modeLive:
		return "live"
	case Static:
		return "static"
	}
	return "auto"
}

// parseMode reads "auto", "live" or "static" (case and surrounding spaces ignored); the empty
// string means Auto.
func parseMode(s string) (mode, error) {
	switch strings.ToLower(strings.TrimSpace(s)) {
	case "", "auto":
		return Auto, nil
	case "live":
		return modeLive, nil
	case "static":
		return Static, nil
	}
	return Auto, fmt.Errorf("%s=%q: want static, live or auto", envMode, s)
}

// Options tune showWith. The zero value of a duration means its default.
type Options struct {
	Mode  mode          // Auto (default), Static, or the live mode
	Probe time.Duration // modeAuto: how long to wait for the front-end's first message (default: serverProbe or headlessProbe)
	Idle  time.Duration // end the loop after this long without any input (default 10 min)
	Max   time.Duration // end the loop after this long in total (default 60 min)
	// CSVDir is where Export CSV writes ranklab-lab.csv; "" means the notebook's folder
	// (GoNB's GONB_DIR), or the working directory outside GoNB.
	CSVDir string
}

// Defaults of options. Auto mode waits serverProbe for the page when the kernel belongs to a
// Jupyter server's session (jupyter_server 2 sets JPY_SESSION_NAME for the kernels of JupyterLab
// and Notebook 7): a page may take long to connect on a busy machine, and a snapshot there
// would be a false "no front-end". Without a session (nbconvert, nbclient and papermill start
// kernels themselves, and so does the classic Notebook 6) it waits headlessProbe.
const (
	serverProbe   = 60 * time.Second
	headlessProbe = 8 * time.Second
	defaultIdle   = 10 * time.Minute
	defaultMax    = 60 * time.Minute
)

// Environment variables that override the defaults of Show (Go durations such as "90s").
const (
	envProbe = "RANKLAB_LIVE_PROBE"
	envIdle  = "RANKLAB_LIVE_IDLE"
	EnvMax   = "RANKLAB_LIVE_MAX"
	// envSession is set by jupyter_server for the kernels of its sessions (the notebook's path).
	envSession = "JPY_SESSION_NAME"
)

// OptionsFromEnv returns the options Show uses: the mode from RANKLAB_LIVE and the durations
// from RANKLAB_LIVE_PROBE, RANKLAB_LIVE_IDLE and RANKLAB_LIVE_MAX, each defaulted when unset.
// A malformed value is an error naming the variable.
func OptionsFromEnv(getenv func(string) string) (Options, error) {
	var o Options
	var err error
	if o.Mode, err = parseMode(getenv(envMode)); err != nil {
		return Options{}, err
	}
	for _, d := range []struct {
		name string
		dst  *time.Duration
	}{{envProbe, &o.Probe}, {envIdle, &o.Idle}, {EnvMax, &o.Max}} {
		v := strings.TrimSpace(getenv(d.name))
		if v == "" {
			continue
		}
		if *d.dst, err = time.ParseDuration(v); err != nil || *d.dst <= 0 {
			return Options{}, fmt.Errorf("%s=%q: want a positive Go duration such as 90s or 10m", d.name, v)
		}
	}
	if o.Probe <= 0 {
		o.Probe = defaultProbe(getenv)
	}
	return o.withDefaults(), nil
}

// defaultProbe is serverProbe inside a Jupyter server's session, headlessProbe outside.
func defaultProbe(getenv func(string) string) time.Duration {
	if strings.TrimSpace(getenv(envSession)) != "" {
		return serverProbe
	}
	return headlessProbe
}

// withDefaults fills the zero durations and CSVDir.
func (o Options) withDefaults() Options {
	if o.Probe <= 0 {
		o.Probe = defaultProbe(os.Getenv)
	}
	if o.Idle <= 0 {
		o.Idle = defaultIdle
	}
	if o.Max <= 0 {
		o.Max = defaultMax
	}
	if o.CSVDir == "" {
		o.CSVDir = os.Getenv("GONB_DIR")
	}
	return o
}
