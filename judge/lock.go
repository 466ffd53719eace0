package judge

import (
	"errors"
	"fmt"
	"os"
	"strconv"
	"strings"
	"syscall"
)

// errLocked is returned (wrapped) by Open when another panel holds the judgments file.
var errLocked = errors.New("judgments file is in use by another panel")

// lock is an exclusive lock on path+".lock": the file holds the owner's process id, and an
// flock(2) on it (LOCK_EX|LOCK_NB) makes the claim. The kernel drops an flock when its process
// dies, so a lock file left by a killed panel (kernel restart, kill -9, power loss) is stale:
// the next Open takes it over and reports the dead owner's PID in Lock.Stale.
type lock struct {
	path  string
	f     *os.File
	Stale int // PID a stale lock file named (0 if none)
}

// acquire takes the lock or returns an error wrapping ErrLocked that names the owner's PID.
func acquire(path string) (*lock, error) {
	for tries := 0; tries < 5; tries++ {
		f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE, 0o644)
		if err != nil {
			return nil, err
		}
		if err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB); err != nil {
			owner := readPID(f)
			f.Close()
			if errors.Is(err, syscall.EWOULDBLOCK) {
				return nil, fmt.Errorf("%s: %w (process %d); close that panel (Done, or interrupt its cell) first", path, errLocked, owner)
			}
			return nil, fmt.Errorf("%s: %v", path, err)
		}
		// The holder may have removed the file between our open and our flock: then we hold a
		// lock on a file nobody else sees. Retry until the locked file is the one at path.
		st, err1 := f.Stat()
		cur, err2 := os.Stat(path)
		if err1 != nil || err2 != nil || !os.SameFile(st, cur) {
			f.Close()
			continue
		}
		l := &lock{path: path, f: f}
		if pid := readPID(f); pid != 0 && pid != os.Getpid() {
			l.Stale = pid
		}
		if err := f.Truncate(0); err != nil {
			l.release()
			return nil, err
		}
		if _, err := f.WriteAt([]byte(strconv.Itoa(os.Getpid())+"\n"), 0); err != nil {
			l.release()
			return nil, err
		}
		return l, nil
	}
	return nil, fmt.Errorf("%s: the lock file keeps changing", path)
}

// readPID returns the process id written in the lock file (0 if none).
func readPID(f *os.File) int {
	b := make([]byte, 32)
	n, _ := f.ReadAt(b, 0)
	pid, _ := strconv.Atoi(strings.TrimSpace(string(b[:n])))
	return pid
}

// release removes the lock file and drops the lock (in that order, so a waiting opener that
// gets the flock on the removed file sees it is gone and retries).
func (l *lock) release() {
	if l == nil || l.f == nil {
		return
	}
	os.Remove(l.path)
	l.f.Close()
	l.f = nil
}
