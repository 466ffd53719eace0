// Package panel is the one driver of the notebook panels of packages live (the lab) and judge
// (the judging panel): Serve owns a panel's connection and the life of its loop (the
// subscription, the page script's connectComm, the probe and the pokes until the page says
// hello, the idle and maximum times, the interrupt, the orphan watch and the reasons it ends),
// and a panel supplies a Handler that shows, answers and ends. The mode (auto, live or static)
// and the time limits come from RANKLAB_LIVE and friends (OptionsFromEnv).
package panel

import (
	"context"
	"fmt"
	"os"
	"strings"
	"time"
)

// Mode chooses between the live panel and a static snapshot (Options.Mode).
type Mode int

const (
	// Auto shows the live panel and falls back to a static snapshot when no front-end answers
	// within Options.Probe.
	Auto Mode = iota
	// Live (RANKLAB_LIVE=live) shows the live panel and waits for a front-end without a probe
	// deadline (the loop still ends on Done, Idle, Max or an interrupt).
	Live
	// Static shows a snapshot at once and never talks to the front-end.
	Static
)

// EnvMode is the environment variable that forces a mode: "static", "live" or "auto".
const EnvMode = "RANKLAB_LIVE"

// String returns "auto", "live" or "static".
func (m Mode) String() string {
	switch m {
	case Live:
		return "live"
	case Static:
		return "static"
	}
	return "auto"
}

// parseMode reads "auto", "live" or "static" (case and surrounding spaces ignored); the empty
// string means Auto.
func parseMode(s string) (Mode, error) {
	switch strings.ToLower(strings.TrimSpace(s)) {
	case "", "auto":
		return Auto, nil
	case "live":
		return Live, nil
	case "static":
		return Static, nil
	}
	return Auto, fmt.Errorf("%s=%q: want static, live or auto", EnvMode, s)
}

// Options tune a panel. The zero value of a duration means its default.
type Options struct {
	Mode  Mode          // Auto (default), Static or Live
	Probe time.Duration // Auto: how long to wait for the front-end's first message (default: ServerProbe or HeadlessProbe)
	Idle  time.Duration // end the loop after this long without any input (default 10 min)
	Max   time.Duration // end the loop after this long in total (default 60 min)
	// CSVDir is where the lab's Export CSV writes ranklab-lab.csv; "" means the notebook's folder
	// (GoNB's GONB_DIR), or the working directory outside GoNB.
	CSVDir string
}

// Defaults of options. Auto mode waits ServerProbe for the page when the kernel belongs to a
// Jupyter server's session (jupyter_server 2 sets JPY_SESSION_NAME for the kernels of JupyterLab
// and Notebook 7): a page may take long to connect on a busy machine, and a snapshot there
// would be a false "no front-end". Without a session (nbconvert, nbclient and papermill start
// kernels themselves, and so does the classic Notebook 6) it waits HeadlessProbe.
const (
	ServerProbe   = 60 * time.Second
	HeadlessProbe = 8 * time.Second
	DefaultIdle   = 10 * time.Minute
	DefaultMax    = 60 * time.Minute
)

// Environment variables that override the defaults (Go durations such as "90s").
const (
	EnvProbe = "RANKLAB_LIVE_PROBE"
	EnvIdle  = "RANKLAB_LIVE_IDLE"
	EnvMax   = "RANKLAB_LIVE_MAX"
	// envSession is set by jupyter_server for the kernels of its sessions (the notebook's path).
	envSession = "JPY_SESSION_NAME"
)

// OptionsFromEnv returns the options a panel uses: the mode from RANKLAB_LIVE and the durations
// from RANKLAB_LIVE_PROBE, RANKLAB_LIVE_IDLE and RANKLAB_LIVE_MAX, each defaulted when unset.
// A malformed value is an error naming the variable.
func OptionsFromEnv(getenv func(string) string) (Options, error) {
	var o Options
	var err error
	if o.Mode, err = parseMode(getenv(EnvMode)); err != nil {
		return Options{}, err
	}
	for _, d := range []struct {
		name string
		dst  *time.Duration
	}{{EnvProbe, &o.Probe}, {EnvIdle, &o.Idle}, {EnvMax, &o.Max}} {
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
	return o.WithDefaults(), nil
}

// defaultProbe is ServerProbe inside a Jupyter server's session, HeadlessProbe outside.
func defaultProbe(getenv func(string) string) time.Duration {
	if strings.TrimSpace(getenv(envSession)) != "" {
		return ServerProbe
	}
	return HeadlessProbe
}

// WithDefaults fills the zero durations and CSVDir.
func (o Options) WithDefaults() Options {
	if o.Probe <= 0 {
		o.Probe = defaultProbe(os.Getenv)
	}
	if o.Idle <= 0 {
		o.Idle = DefaultIdle
	}
	if o.Max <= 0 {
		o.Max = DefaultMax
	}
	if o.CSVDir == "" {
		o.CSVDir = os.Getenv("GONB_DIR")
	}
	return o
}

// parentPoll is how often a panel checks that the process that started it (GoNB's kernel) is
// still there.
const parentPoll = 200 * time.Millisecond

// watchParent calls gone once parent, the process id os.Getppid returned when the panel started,
// is no longer this process's parent (the orphan is re-parented to PID 1 or to a subreaper);
// it returns without calling gone when ctx ends first.
//
// Why: GoNB runs each cell as a program of its own (gonb_<id>) and never kills it when the
// kernel goes away. Restarting the kernel or stopping the Jupyter server ends the kernel; a live
// panel waiting for input would then keep running for up to its maximum duration, re-parented to
// PID 1, with nobody left to talk to. (An interrupt is different: GoNB forwards SIGINT, and the
// panel ends with a snapshot.) Polling the parent's id works on every Unix; Linux's
// prctl(PR_SET_PDEATHSIG) is not used because it fires when the parent's *thread* that started
// the program exits, which in a Go parent is not the end of the process.
func watchParent(ctx context.Context, parent int, every time.Duration, gone func()) {
	t := time.NewTicker(every)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
			if os.Getppid() != parent {
				gone()
				return
			}
		}
	}
}

// exitOrphaned ends the cell program of a panel whose kernel is gone. Nothing can show output
// any more (the kernel's pipes are closed, and waiting on them would block), so it exits at once.
func exitOrphaned() {
	os.Exit(3)
}

// watchParentExit is the orphan watch of a panel: once the kernel that started this cell program is
// gone, it calls cleanup (when not nil: release a lock, say) and exits the program. It returns at
// once; the watch ends with ctx.
func watchParentExit(ctx context.Context, cleanup func()) {
	go watchParent(ctx, os.Getppid(), parentPoll, func() {
		if cleanup != nil {
			cleanup()
		}
		exitOrphaned()
	})
}
