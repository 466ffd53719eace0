package live

import (
	"context"
	"os"
	"time"
)

// parentPoll is how often a live panel checks that the process that started it (GoNB's kernel)
// is still there.
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

// WatchParent is the orphan watch for other panels of this kind (package judge): once the
// kernel that started this cell program is gone, it calls cleanup (when not nil: release a
// lock, say) and exits the program, as the live panel does. It returns at once; the watch ends
// with ctx.
func WatchParent(ctx context.Context, cleanup func()) {
	go watchParent(ctx, os.Getppid(), parentPoll, func() {
		if cleanup != nil {
			cleanup()
		}
		exitOrphaned()
	})
}
