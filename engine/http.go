package engine

import (
	"bytes"
	"context"
	"crypto/tls"
	"crypto/x509"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"os"
	"strconv"
	"strings"
	"syscall"
	"time"
)

// The environment variables a Client reads its credentials and TLS trust from. They are read
// once, by Connect; no value of theirs is ever printed, logged or stamped.
const (
	envUser     = "RANKLAB_ENGINE_USER"     // HTTP basic authentication: the user ...
	envPassword = "RANKLAB_ENGINE_PASSWORD" // ... and the password
	envAPIKey   = "RANKLAB_ENGINE_API_KEY"  // or an API key, sent as "Authorization: ApiKey KEY"
	envCA       = "RANKLAB_ENGINE_CA"       // a PEM file of the CA certificates to trust for https
)

// Defaults of a Client's Timeout and Retries.
const (
	defaultTimeout = 60 * time.Second
	defaultRetries = 4
)

// transport is the HTTP side of a Client: the base URL (no credentials in it), the credentials
// from the environment, the http.Client (TLS trust from envCA), the per-request timeout and the
// retry rule.
type transport struct {
	base    string // scheme://host[:port][/path], no trailing slash
	auth    string // the Authorization header, "" for none
	http    *http.Client
	timeout time.Duration
	retries int           // retries after a 429, 502, 503 or 504 (so retries+1 attempts)
	backoff time.Duration // the first wait; doubled at each retry, at most maxBackoff
}

const maxBackoff = 8 * time.Second

// newTransport checks rawURL (http or https, no user or password in it, no query or fragment)
// and reads the credentials and the CA file from the environment.
func newTransport(rawURL string) (*transport, error) {
	u, err := url.Parse(strings.TrimSpace(rawURL))
	if err != nil {
		return nil, fmt.Errorf("engine URL %q: %v", redact(rawURL), err)
	}
	if u.Scheme != "http" && u.Scheme != "https" {
		return nil, fmt.Errorf("engine URL %q: want http:// or https://", redact(rawURL))
	}
	if u.User != nil {
		return nil, fmt.Errorf("engine URL %q: credentials in the URL are refused (they would land in shell history, logs and stamps): set %s and %s, or %s", redact(rawURL), envUser, envPassword, envAPIKey)
	}
	if u.Host == "" || u.RawQuery != "" || u.Fragment != "" {
		return nil, fmt.Errorf("engine URL %q: want scheme://host[:port][/path] with no query", redact(rawURL))
	}
	t := &transport{base: strings.TrimRight(u.String(), "/"), timeout: defaultTimeout, retries: defaultRetries, backoff: 250 * time.Millisecond}
	user, pass, key := os.Getenv(envUser), os.Getenv(envPassword), os.Getenv(envAPIKey)
	switch {
	case key != "" && (user != "" || pass != ""):
		return nil, fmt.Errorf("engine %s: both %s and %s/%s are set: choose one", t.base, envAPIKey, envUser, envPassword)
	case key != "":
		t.auth = "ApiKey " + key
	case user != "" || pass != "":
		if user == "" || pass == "" {
			return nil, fmt.Errorf("engine %s: set both %s and %s for basic authentication", t.base, envUser, envPassword)
		}
		req := http.Request{Header: http.Header{}}
		req.SetBasicAuth(user, pass)
		t.auth = req.Header.Get("Authorization")
	}
	tr := http.DefaultTransport.(*http.Transport).Clone()
	tr.Proxy = nil // the engine is addressed directly
	tr.MaxIdleConnsPerHost = 16
	// HTTP/1.1 only: over TLS Go's HTTP/2 client sends WINDOW_UPDATE frames at a rate Solr's Jetty
	// takes for a flood (GOAWAY ENHANCE_YOUR_CALM, "invalid_window_update_frame_rate") mid-run.
	tr.ForceAttemptHTTP2 = false
	tr.TLSNextProto = map[string]func(string, *tls.Conn) http.RoundTripper{}
	if ca := os.Getenv(envCA); ca != "" {
		pem, err := os.ReadFile(ca)
		if err != nil {
			return nil, fmt.Errorf("engine %s: %s: %v", t.base, envCA, err)
		}
		pool := x509.NewCertPool()
		if !pool.AppendCertsFromPEM(pem) {
			return nil, fmt.Errorf("engine %s: %s=%s: no PEM certificate in it", t.base, envCA, ca)
		}
		tr.TLSClientConfig = &tls.Config{RootCAs: pool, MinVersion: tls.VersionTLS12}
	}
	t.http = &http.Client{Transport: tr, CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	return t, nil
}

// redact returns a URL for an error message with any user and password removed.
func redact(raw string) string {
	u, err := url.Parse(raw)
	if err != nil || u.User == nil {
		if i := strings.Index(raw, "@"); i >= 0 && strings.Contains(raw[:i], "//") {
			return raw[:strings.Index(raw, "//")+2] + "…@" + raw[i+1:]
		}
		return raw
	}
	u.User = url.User("…")
	return u.String()
}

// StatusError is an engine's answer with an HTTP status other than 2xx: the URL asked (no
// credentials), the status and the start of the engine's own message.
type statusError struct {
	URL    string
	Status int
	Body   string
}

func (e *statusError) Error() string {
	msg := fmt.Sprintf("engine %s: HTTP %d %s", e.URL, e.Status, http.StatusText(e.Status))
	switch e.Status {
	case http.StatusUnauthorized:
		msg += fmt.Sprintf(" (set %s and %s, or %s)", envUser, envPassword, envAPIKey)
	case http.StatusForbidden:
		msg += " (the credentials are not allowed this request)"
	}
	if e.Body != "" {
		msg += ": " + e.Body
	}
	return msg
}

// retryable reports whether an answer with this status is worth asking again: the engine is
// overloaded or a node is briefly away.
func retryable(status int) bool {
	return status == http.StatusTooManyRequests || status == http.StatusBadGateway ||
		status == http.StatusServiceUnavailable || status == http.StatusGatewayTimeout
}

// do sends method path (relative to the base URL; may carry a query) with body of type ctype and
// decodes a JSON answer into out (nil: discarded). A 429, 502, 503 or 504 is retried up to
// t.retries times, waiting backoff, 2·backoff, … (at most maxBackoff; a Retry-After of at most
// maxBackoff seconds is honoured instead); any other failure returns at once. Every error names
// the URL; none holds a credential.
func (t *transport) do(ctx context.Context, method, path string, body []byte, ctype string, out any) error {
	target := t.base + path
	shown := t.base + strings.SplitN(path, "?", 2)[0]
	wait := t.backoff
	for attempt := 0; ; attempt++ {
		status, data, retryAfter, err := t.once(ctx, method, target, body, ctype)
		if err != nil {
			return &netErr{t.netError(ctx, shown, err)}
		}
		if status/100 == 2 {
			if out == nil {
				return nil
			}
			if err := json.Unmarshal(data, out); err != nil {
				return fmt.Errorf("engine %s: the answer is not the JSON expected: %v", shown, err)
			}
			return nil
		}
		if !retryable(status) || attempt >= t.retries {
			e := &statusError{URL: shown, Status: status, Body: excerpt(data)}
			if retryable(status) {
				return fmt.Errorf("%w (after %d attempts)", e, attempt+1)
			}
			return e
		}
		d := wait
		if retryAfter > 0 && retryAfter <= maxBackoff {
			d = retryAfter
		}
		select {
		case <-ctx.Done():
			return fmt.Errorf("engine %s: %w", shown, ctx.Err())
		case <-time.After(d):
		}
		wait = min(2*wait, maxBackoff)
	}
}

// once sends one request with the per-request timeout and returns the status, the body (at
// most 64 MiB) and the Retry-After delay (0 when absent).
func (t *transport) once(ctx context.Context, method, target string, body []byte, ctype string) (int, []byte, time.Duration, error) {
	ctx, cancel := context.WithTimeout(ctx, t.timeout)
	defer cancel()
	var r io.Reader
	if body != nil {
		r = bytes.NewReader(body)
	}
	req, err := http.NewRequestWithContext(ctx, method, target, r)
	if err != nil {
		return 0, nil, 0, err
	}
	if ctype != "" {
		req.Header.Set("Content-Type", ctype)
	}
	req.Header.Set("Accept", "application/json")
	if t.auth != "" {
		req.Header.Set("Authorization", t.auth)
	}
	resp, err := t.http.Do(req)
	if err != nil {
		return 0, nil, 0, err
	}
	defer resp.Body.Close()
	data, err := io.ReadAll(io.LimitReader(resp.Body, 64<<20))
	if err != nil {
		return 0, nil, 0, err
	}
	var after time.Duration
	if s, err := strconv.Atoi(resp.Header.Get("Retry-After")); err == nil && s >= 0 {
		after = time.Duration(s) * time.Second
	}
	return resp.StatusCode, data, after, nil
}

// netError explains a failure to get an answer at all.
func (t *transport) netError(ctx context.Context, shown string, err error) error {
	switch {
	case ctx.Err() != nil:
		return fmt.Errorf("engine %s: %w", shown, ctx.Err())
	case errors.Is(err, context.DeadlineExceeded) || isTimeout(err):
		return fmt.Errorf("engine %s: no answer within %v (the request timeout)", shown, t.timeout)
	case errors.Is(err, syscall.ECONNREFUSED):
		return fmt.Errorf("engine %s: connection refused: is the engine running there? (`ranklab engine start` starts a local one)", shown)
	case errors.Is(err, syscall.ECONNRESET) || errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF):
		return fmt.Errorf("engine %s: the connection was closed before an answer (did the engine stop?): %v", shown, err)
	}
	var dnsErr *net.DNSError
	if errors.As(err, &dnsErr) {
		return fmt.Errorf("engine %s: unknown host %q", shown, dnsErr.Name)
	}
	var certErr *tls.CertificateVerificationError
	if errors.As(err, &certErr) {
		return fmt.Errorf("engine %s: its TLS certificate is not trusted (%v): set %s to the PEM file of its CA", shown, certErr.Err, envCA)
	}
	return fmt.Errorf("engine %s: %v", shown, err)
}

// netErr is a failure to get an answer at all (down, refused, timed out, cut off).
type netErr struct{ err error }

func (e *netErr) Error() string { return e.err.Error() }
func (e *netErr) Unwrap() error { return e.err }

func isTimeout(err error) bool {
	var ne net.Error
	return errors.As(err, &ne) && ne.Timeout()
}

// excerpt returns the engine's error message from an answer: the "msg" of Solr's error, the
// "reason" of OpenSearch's, the "message" of Solr's answer for a path it does not serve (an
// index that does not exist), or else the first 300 bytes, on one line.
func excerpt(data []byte) string {
	var v struct {
		Error   json.RawMessage `json:"error"`
		Message string          `json:"message"`
	}
	if json.Unmarshal(data, &v) == nil && len(v.Error) == 0 && v.Message != "" {
		return oneLine(v.Message)
	}
	if json.Unmarshal(data, &v) == nil && len(v.Error) > 0 {
		var e struct {
			Msg       string `json:"msg"`
			Reason    string `json:"reason"`
			RootCause []struct {
				Reason string `json:"reason"`
			} `json:"root_cause"`
		}
		if json.Unmarshal(v.Error, &e) == nil {
			switch {
			case e.Msg != "":
				return oneLine(e.Msg)
			case len(e.RootCause) > 0 && e.RootCause[0].Reason != "":
				return oneLine(e.RootCause[0].Reason)
			case e.Reason != "":
				return oneLine(e.Reason)
			}
		}
	}
	return oneLine(string(data))
}

func oneLine(s string) string {
	s = strings.Join(strings.Fields(s), " ")
	if len(s) > 300 {
		s = s[:300] + "…"
	}
	return s
}

// getJSON and postJSON are do for the two usual cases.
func (t *transport) getJSON(ctx context.Context, path string, out any) error {
	return t.do(ctx, http.MethodGet, path, nil, "", out)
}

func (t *transport) postJSON(ctx context.Context, path string, in, out any) error {
	body, err := json.Marshal(in)
	if err != nil {
		return err
	}
	return t.do(ctx, http.MethodPost, path, body, "application/json", out)
}
