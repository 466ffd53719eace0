package retrieval

import (
	"archive/zip"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"net"
	"net/http"
	"os"
	"path"
	"path/filepath"
	"strings"
	"time"

	"github.com/ranklab/ranklab/internal/atomicfile"
	"github.com/ranklab/ranklab/internal/shareddir"
)

// Archive is a BEIR collection by its folder name, and where it is published: a zip file at URL
// holding one folder Name with corpus.jsonl, queries.jsonl and qrels/*.tsv ("" when it is not
// published as one, as Cranfield). Load is the one way the notebooks read a collection.
type Archive struct {
	Name         string
	URL          string
	CorpusSHA256 string // hex SHA-256 of the unpacked corpus.jsonl
}

// Cranfield is Cranfield 1400 in BEIR layout (1,400 aeronautics abstracts, 225 queries; qrels
// splits "test", binary, and "test.graded", grades 1–4), as ../shared/data/cranfield holds it;
// no archive is published, so Load finds it there or in the cache folder (Ensure's default) only.
var Cranfield = Archive{Name: "cranfield"}

// Load reads the collection with the qrels split (ReadCollection): from the shared folder beside
// the repository (../shared/data/<Name>, found from the notebook's folder or the working
// directory) when it is there, else from the cache folder (Ensure with dir ""), downloading the archive there first when
// it is published (Ensure, progress to progress; nil: none). The error of a collection found
// nowhere names the places looked.
//
//	c, err := retrieval.SciFact.Load("test", os.Stdout)
//	c, err := retrieval.Cranfield.Load("test.graded", nil)
func (a Archive) Load(split string, progress io.Writer) (Collection, error) {
	dir, sharedErr := shareddir.Find("retrieval", "data", a.Name)
	if sharedErr != nil || !hasCorpus(dir) {
		if a.URL == "" && !hasCorpus(filepath.Join(defaultDataDir(), a.Name)) {
			return Collection{}, fmt.Errorf("retrieval: no %s collection: it is not published as an archive, and neither the shared folder nor %s holds it (%v)",
				a.Name, filepath.Join(defaultDataDir(), a.Name), sharedErr)
		}
		if progress == nil {
			progress = io.Discard
		}
		var err error
		if dir, err = a.Ensure(context.Background(), nil, defaultDataDir(), progress); err != nil {
			return Collection{}, err
		}
	}
	return ReadCollection(dir, split)
}

// SciFact is BEIR's public SciFact archive (about 2.7 MB) and the SHA-256 of its
// corpus.jsonl.
var SciFact = Archive{
	Name:         "scifact",
	URL:          "https://public.ukp.informatik.tu-darmstadt.de/thakur/BEIR/datasets/scifact.zip",
	CorpusSHA256: "dec31c8182f3d744c7d2c09423756fd1d17cbef75808db13ba01cc0aab4d1ac6",
}

// defaultDataDir is where downloaded collections are kept: ranklab/beir under the user's
// cache directory (os.UserCacheDir), or under the temporary directory when there is none.
func defaultDataDir() string {
	base, err := os.UserCacheDir()
	if err != nil {
		base = os.TempDir()
	}
	return filepath.Join(base, "ranklab", "beir")
}

// hasCorpus reports whether dir holds corpus.jsonl or corpus.jsonl.gz.
func hasCorpus(dir string) bool {
	for _, name := range []string{"corpus.jsonl", "corpus.jsonl.gz"} {
		if _, err := os.Stat(filepath.Join(dir, name)); err == nil {
			return true
		}
	}
	return false
}

// Ensure returns the collection's directory, dir/<Name>, downloading it first (Download)
// when it holds no corpus. A collection already there is used as it is. dir "" is ranklab/beir
// under the user's cache directory (os.UserCacheDir; the temporary directory when there is none),
// where Load downloads too.
func (a Archive) Ensure(ctx context.Context, client *http.Client, dir string, progress io.Writer) (string, error) {
	if dir == "" {
		dir = defaultDataDir()
	}
	target := filepath.Join(dir, a.Name)
	if hasCorpus(target) {
		return target, nil
	}
	if a.URL == "" {
		return "", fmt.Errorf("retrieval: %s has no corpus and %s is not published as an archive to download", target, a.Name)
	}
	return a.download(ctx, client, dir, progress)
}

// Download times: connecting (and the TLS handshake, and the response headers) may take up to
// connectTimeout; the body may stall, no byte arriving, for up to stallTimeout.
var (
	connectTimeout = 30 * time.Second
	stallTimeout   = 60 * time.Second
)

// errStalled ends a download whose body stops arriving.
var errStalled = errors.New("no data received")

// downloadClient is the client of Download: timeouts on connecting, none on the whole body
// (which the stall timeout watches instead).
var downloadClient = &http.Client{Transport: &http.Transport{
	Proxy:                 http.ProxyFromEnvironment,
	DialContext:           (&net.Dialer{Timeout: connectTimeout}).DialContext,
	TLSHandshakeTimeout:   connectTimeout,
	ResponseHeaderTimeout: connectTimeout,
}}

// download fetches the archive from a.URL (client nil: a client that gives up after 30 s
// without a connection or response headers), cancelling the transfer when no byte arrives for
// 60 s or ctx is done (Ctrl-C in the command line), showing the
// bytes received on progress (nil: nothing) at most every 200 ms and once at the end,
// unpacks it into a fresh folder beside dir/<Name>, checks the SHA-256 of corpus.jsonl and
// only then moves the folder to dir/<Name>, which it returns. Without network the error
// says so and names the folder where the files can be put by hand. A failed download
// leaves nothing behind.
func (a Archive) download(ctx context.Context, client *http.Client, dir string, progress io.Writer) (string, error) {
	if client == nil {
		client = downloadClient
	}
	ctx, cancel := context.WithCancelCause(ctx)
	defer cancel(nil)
	watchdog := time.AfterFunc(stallTimeout, func() { cancel(errStalled) })
	defer watchdog.Stop()
	target := filepath.Join(dir, a.Name)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return "", err
	}
	zipFile, err := os.CreateTemp(dir, a.Name+"-*.zip")
	if err != nil {
		return "", err
	}
	defer os.Remove(zipFile.Name())
	defer zipFile.Close()

	req, err := http.NewRequestWithContext(ctx, http.MethodGet, a.URL, nil)
	if err != nil {
		return "", fmt.Errorf("download %s: %w", a.Name, err)
	}
	resp, err := client.Do(req)
	if err != nil && context.Cause(ctx) == errStalled {
		err = fmt.Errorf("%w for %s", errStalled, stallTimeout)
	}
	if err != nil {
		return "", fmt.Errorf("download %s from %s: %w\n(no network? put the BEIR files of %s (corpus.jsonl, queries.jsonl, qrels/) in %s, or pass --data DIR)",
			a.Name, a.URL, err, a.Name, target)
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return "", fmt.Errorf("download %s from %s: HTTP %s", a.Name, a.URL, resp.Status)
	}
	p := &progressWriter{w: progress, name: path.Base(a.URL), total: resp.ContentLength}
	n, err := io.Copy(zipFile, io.TeeReader(stallReader{resp.Body, watchdog}, p))
	p.finish()
	if err != nil && context.Cause(ctx) == errStalled {
		err = fmt.Errorf("%w for %s", errStalled, stallTimeout)
	}
	if err != nil {
		return "", fmt.Errorf("download %s from %s: after %d bytes: %w", a.Name, a.URL, n, err)
	}
	if resp.ContentLength >= 0 && n != resp.ContentLength {
		return "", fmt.Errorf("download %s from %s: got %d of %d bytes", a.Name, a.URL, n, resp.ContentLength)
	}

	partial, err := os.MkdirTemp(dir, a.Name+"-partial-*")
	if err != nil {
		return "", err
	}
	defer os.RemoveAll(partial)
	if err := unzip(zipFile, n, a.Name, partial); err != nil {
		return "", fmt.Errorf("unpack %s: %w", a.URL, err)
	}
	if err := checkSHA256(filepath.Join(partial, "corpus.jsonl"), a.CorpusSHA256); err != nil {
		return "", fmt.Errorf("%s from %s: %w", a.Name, a.URL, err)
	}
	if err := os.RemoveAll(target); err != nil {
		return "", err
	}
	if err := os.Rename(partial, target); err != nil {
		return "", err
	}
	return target, nil
}

// stallReader restarts the stall watchdog whenever bytes arrive.
type stallReader struct {
	r        io.Reader
	watchdog *time.Timer
}

func (s stallReader) Read(p []byte) (int, error) {
	n, err := s.r.Read(p)
	if n > 0 {
		s.watchdog.Reset(stallTimeout)
	}
	return n, err
}

// unzip writes the files of the zip under the folder name/ (or at the top when the zip
// has no such folder) into dst, refusing paths that would leave dst.
func unzip(r io.ReaderAt, size int64, name, dst string) error {
	zr, err := zip.NewReader(r, size)
	if err != nil {
		return err
	}
	prefix := ""
	for _, f := range zr.File {
		if strings.HasPrefix(f.Name, name+"/") {
			prefix = name + "/"
			break
		}
	}
	for _, f := range zr.File {
		rel, ok := strings.CutPrefix(f.Name, prefix)
		if !ok || rel == "" || strings.HasSuffix(rel, "/") {
			continue // other folders (e.g. __MACOSX) and directory entries
		}
		if !fs.ValidPath(rel) {
			return fmt.Errorf("%s: unsafe path in archive", f.Name)
		}
		out := filepath.Join(dst, filepath.FromSlash(rel))
		if err := os.MkdirAll(filepath.Dir(out), 0o755); err != nil {
			return err
		}
		if err := extract(f, out); err != nil {
			return fmt.Errorf("%s: %w", f.Name, err)
		}
	}
	return nil
}

func extract(f *zip.File, out string) error {
	rc, err := f.Open()
	if err != nil {
		return err
	}
	defer rc.Close()
	return atomicfile.Write(out, func(w io.Writer) error {
		_, err := io.Copy(w, rc)
		return err
	})
}

// checkSHA256 compares the SHA-256 of the file with want (hex).
func checkSHA256(file, want string) error {
	f, err := os.Open(file)
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return fmt.Errorf("the archive holds no %s", filepath.Base(file))
		}
		return err
	}
	defer f.Close()
	h := sha256.New()
	if _, err := io.Copy(h, f); err != nil {
		return err
	}
	if got := hex.EncodeToString(h.Sum(nil)); got != want {
		return fmt.Errorf("%s: SHA-256 %s, want %s (corrupt or changed download)", filepath.Base(file), got, want)
	}
	return nil
}

// progressWriter counts bytes and prints "\rNAME: X.X of Y.Y MB (P%)" at most every 200 ms.
type progressWriter struct {
	w     io.Writer
	name  string
	total int64
	n     int64
	last  time.Time
}

func (p *progressWriter) Write(b []byte) (int, error) {
	p.n += int64(len(b))
	if p.w != nil && time.Since(p.last) >= 200*time.Millisecond {
		p.last = time.Now()
		p.print("")
	}
	return len(b), nil
}

func (p *progressWriter) print(end string) {
	const mb = 1 << 20
	if p.total > 0 {
		fmt.Fprintf(p.w, "\r%s: %.1f of %.1f MB (%d%%)%s", p.name, float64(p.n)/mb, float64(p.total)/mb, p.n*100/p.total, end)
	} else {
		fmt.Fprintf(p.w, "\r%s: %.1f MB%s", p.name, float64(p.n)/mb, end)
	}
}

func (p *progressWriter) finish() {
	if p.w != nil {
		p.print("\n")
	}
}
