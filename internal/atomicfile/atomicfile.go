// Package atomicfile writes a file so that its path holds either the whole new content or what
// it held before, never a part: the content goes to a temporary file in the same folder (so the
// rename stays on one file system), which is synced and renamed over the path once every byte
// is written, flushed and closed (then the folder is synced, so the rename survives a power
// loss), and removed when anything fails (a full disk, a write error, a failing producer).
// Every file ranklab writes (each --out, pool files, the judging panel's qrels, rendered pages,
// the lab's CSV export, the extracted data sets) goes through it; TestOneWriter holds that.
//
// What the path is decides how it is written:
//
//   - absent: a new file, mode 0666 less the umask (as a shell's "> file" makes it);
//   - a regular file: replaced, keeping its permission bits;
//   - a symbolic link: the file it points to (resolved link by link) is written as above, and
//     the link stays a link;
//   - anything else (/dev/null, /dev/stdout, a named pipe, a terminal): written in place, since
//     it cannot be replaced and must not be (renaming over /dev/null would replace the device).
package atomicfile

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"sync/atomic"
	"syscall"
	"time"
)

// Write writes the file at path with write, atomically (see the package doc).
func Write(path string, write func(io.Writer) error) (err error) {
	real, err := RealPath(path)
	if err != nil {
		return err
	}
	st, err := os.Stat(real)
	switch {
	case err == nil && !st.Mode().IsRegular():
		return writeInPlace(path, write)
	case err != nil && !errors.Is(err, fs.ErrNotExist):
		return err
	}
	mode := os.FileMode(0o666) // less the umask, by the kernel
	if err == nil {
		mode = st.Mode().Perm()
	}
	dir := filepath.Dir(real)
	tmp, err := createTemp(dir, filepath.Base(real), mode)
	if err != nil {
		return err
	}
	defer func() {
		if err != nil {
			tmp.Close()
			os.Remove(tmp.Name())
		}
	}()
	bw := bufio.NewWriterSize(tmp, 1<<16)
	if err := write(bw); err != nil {
		return fmt.Errorf("%s: %w", path, err)
	}
	if err := bw.Flush(); err != nil {
		return fmt.Errorf("%s: %w", path, err)
	}
	if st != nil {
		// An existing file keeps its bits even where the umask would clear some.
		if err := tmp.Chmod(mode); err != nil {
			return fmt.Errorf("%s: %w", path, err)
		}
	}
	if err := tmp.Sync(); err != nil {
		return fmt.Errorf("%s: %w", path, err)
	}
	if err := tmp.Close(); err != nil {
		return fmt.Errorf("%s: %w", path, err)
	}
	if err := os.Rename(tmp.Name(), real); err != nil {
		return err
	}
	return SyncDir(dir)
}

// WriteFile writes data to the file at path atomically (Write).
func WriteFile(path string, data []byte) error {
	return Write(path, func(w io.Writer) error {
		_, err := w.Write(data)
		return err
	})
}

var tempCount atomic.Uint64

// createTemp creates a new file ".base.tmp-N" in dir with mode perm (less the umask), as
// os.CreateTemp does but without its fixed 0600.
func createTemp(dir, base string, perm os.FileMode) (*os.File, error) {
	seed := uint64(time.Now().UnixNano()) ^ uint64(os.Getpid())<<32
	for range 10000 {
		name := filepath.Join(dir, "."+base+".tmp-"+strconv.FormatUint(seed+tempCount.Add(1), 36))
		f, err := os.OpenFile(name, os.O_RDWR|os.O_CREATE|os.O_EXCL, perm)
		if errors.Is(err, fs.ErrExist) {
			continue
		}
		return f, err
	}
	return nil, fmt.Errorf("%s: cannot create a temporary file beside it", filepath.Join(dir, base))
}

// RealPath returns the path a write to path reaches: path with every symbolic link on the way
// resolved (the links in its folders, and path itself link by link, even when the last target
// does not exist yet). Two names of one file give one real path.
func RealPath(path string) (string, error) {
	p := filepath.Clean(path)
	for range 40 {
		st, err := os.Lstat(p)
		if errors.Is(err, fs.ErrNotExist) {
			break
		} else if err != nil {
			return "", err
		}
		if st.Mode()&fs.ModeSymlink == 0 {
			break
		}
		target, err := os.Readlink(p)
		if err != nil {
			return "", err
		}
		if !filepath.IsAbs(target) {
			target = filepath.Join(filepath.Dir(p), target)
		}
		p = filepath.Clean(target)
	}
	dir, err := filepath.EvalSymlinks(filepath.Dir(p))
	if err != nil {
		return "", err
	}
	if st, err := os.Lstat(p); err == nil && st.Mode()&fs.ModeSymlink != 0 {
		return "", fmt.Errorf("%s: too many levels of symbolic links", path)
	}
	abs, err := filepath.Abs(filepath.Join(dir, filepath.Base(p)))
	if err != nil {
		return "", err
	}
	return abs, nil
}

// SyncDir fsyncs a folder, making a rename or a new file in it durable.
func SyncDir(dir string) error {
	d, err := os.Open(dir)
	if err != nil {
		return err
	}
	defer d.Close()
	if err := d.Sync(); err != nil && !errors.Is(err, syscall.EINVAL) && !errors.Is(err, syscall.ENOTSUP) {
		// (a file system that cannot sync a folder says EINVAL or ENOTSUP: nothing more to do)
		return fmt.Errorf("%s: %w", dir, err)
	}
	return nil
}

// writeInPlace writes to a path that is not a regular file (a device, a named pipe).
func writeInPlace(path string, write func(io.Writer) error) error {
	f, err := os.OpenFile(path, os.O_WRONLY, 0)
	if err != nil {
		return err
	}
	bw := bufio.NewWriterSize(f, 1<<16)
	err = write(bw)
	if err == nil {
		err = bw.Flush()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return fmt.Errorf("%s: %w", path, err)
	}
	return nil
}
