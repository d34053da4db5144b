// Package browser drives a headless Chromium for tests, through the DevTools protocol on
// a pipe (--remote-debugging-pipe: requests on the browser's file descriptor 3, answers
// and events on 4, each message JSON ended by a NUL byte). It knows the few commands the
// report's tests need: open a page at a size, evaluate JavaScript, capture a screenshot,
// and collect what the page logs as errors.
//
// Chromium is Debian's chromium package (`chromium` on the PATH, or $SSA_DIFF_CHROMIUM);
// where it is absent, Start skips the test. It runs as root in containers, so it is
// started with --no-sandbox, and with a fresh profile and nothing that talks to the
// network on its own.
package browser

import (
	"bufio"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"strings"
	"sync"
	"testing"
	"time"
)

// answerWait bounds the wait for one answer of the browser: a hung browser fails the
// test with a message instead of holding it until go test's own deadline.
const answerWait = 3 * time.Minute

// Browser is a running headless Chromium.
type Browser struct {
	cmd    *exec.Cmd
	toB    io.WriteCloser
	mu     sync.Mutex
	nextID int
	wait   map[int]chan message
	// events receives every event, for the pages to pick theirs.
	subs   map[string][]chan message // by session
	done   chan struct{}
	err    error
	stderr strings.Builder
}

type message struct {
	ID        int             `json:"id,omitempty"`
	Method    string          `json:"method,omitempty"`
	Params    json.RawMessage `json:"params,omitempty"`
	Result    json.RawMessage `json:"result,omitempty"`
	Error     *protocolError  `json:"error,omitempty"`
	SessionID string          `json:"sessionId,omitempty"`
}

type protocolError struct {
	Code    int    `json:"code"`
	Message string `json:"message"`
}

// Path is the Chromium to run: $SSA_DIFF_CHROMIUM, else chromium on the PATH; "" when there
// is none.
func Path() string {
	if p := os.Getenv("SSA_DIFF_CHROMIUM"); p != "" {
		return p
	}
	for _, name := range []string{"chromium", "chromium-browser"} {
		if p, err := exec.LookPath(name); err == nil {
			return p
		}
	}
	return ""
}

// Start starts Chromium for the test and stops it when the test ends; without Chromium
// the test is skipped.
func Start(t testing.TB) *Browser {
	t.Helper()
	bin := Path()
	if bin == "" {
		t.Skip("no chromium on the PATH (Debian: apt-get install chromium; or set SSA_DIFF_CHROMIUM)")
	}
	b, err := start(bin, t.TempDir())
	if err != nil {
		t.Fatalf("starting %s: %v", bin, err)
	}
	t.Cleanup(func() {
		if err := b.Close(); err != nil {
			t.Errorf("stopping chromium: %v", err)
		}
	})
	return b
}

func start(bin, profile string) (*Browser, error) {
	// Descriptor 3 of the browser reads what we write; descriptor 4 writes what we read.
	inR, inW, err := os.Pipe()
	if err != nil {
		return nil, err
	}
	outR, outW, err := os.Pipe()
	if err != nil {
		return nil, err
	}
	cmd := exec.Command(bin, "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
		"--disable-background-networking", "--disable-component-update", "--disable-sync", "--disable-extensions",
		"--disable-default-apps", "--mute-audio", "--hide-scrollbars", "--no-default-browser-check",
		"--user-data-dir="+profile, "--remote-debugging-pipe", "about:blank")
	cmd.ExtraFiles = []*os.File{inR, outW}
	b := &Browser{cmd: cmd, toB: inW, wait: map[int]chan message{}, subs: map[string][]chan message{}, done: make(chan struct{})}
	cmd.Stdout, cmd.Stderr = &b.stderr, &b.stderr
	if err := cmd.Start(); err != nil {
		return nil, err
	}
	inR.Close()
	outW.Close()
	go b.read(outR)
	return b, nil
}

// read dispatches the browser's messages until the pipe closes.
func (b *Browser) read(r io.ReadCloser) {
	defer close(b.done)
	defer r.Close()
	br := bufio.NewReaderSize(r, 1<<20)
	for {
		raw, err := br.ReadBytes(0)
		if err != nil {
			b.mu.Lock()
			if b.err == nil && !errors.Is(err, io.EOF) {
				b.err = err
			}
			b.mu.Unlock()
			return
		}
		var m message
		if err := json.Unmarshal(raw[:len(raw)-1], &m); err != nil {
			continue
		}
		b.mu.Lock()
		if m.ID != 0 {
			if ch, ok := b.wait[m.ID]; ok {
				delete(b.wait, m.ID)
				ch <- m
			}
		} else {
			for _, ch := range b.subs[m.SessionID] {
				select {
				case ch <- m:
				default: // a page that does not listen loses events, never blocks the reader
				}
			}
		}
		b.mu.Unlock()
	}
}

// call sends a command (to a page's session, or to the browser with session "") and
// decodes its result into out.
func (b *Browser) call(session, method string, params, out any) error {
	b.mu.Lock()
	b.nextID++
	id := b.nextID
	ch := make(chan message, 1)
	b.wait[id] = ch
	b.mu.Unlock()
	req := map[string]any{"id": id, "method": method}
	if params != nil {
		req["params"] = params
	}
	if session != "" {
		req["sessionId"] = session
	}
	data, err := json.Marshal(req)
	if err != nil {
		return err
	}
	if _, err := b.toB.Write(append(data, 0)); err != nil {
		return fmt.Errorf("%s: %w", method, err)
	}
	select {
	case m := <-ch:
		if m.Error != nil {
			return fmt.Errorf("%s: %s (%d)", method, m.Error.Message, m.Error.Code)
		}
		if out != nil {
			return json.Unmarshal(m.Result, out)
		}
		return nil
	case <-b.done:
		return fmt.Errorf("%s: chromium stopped: %v\n%s", method, b.err, b.stderr.String())
	case <-time.After(answerWait):
		return fmt.Errorf("%s: no answer from chromium in %v", method, answerWait)
	}
}

// Close stops the browser.
func (b *Browser) Close() error {
	_ = b.call("", "Browser.close", nil, nil)
	b.toB.Close()
	err := b.cmd.Wait()
	var ee *exec.ExitError
	if errors.As(err, &ee) {
		err = nil // it was told to stop
	}
	return err
}

// Page is one tab.
type Page struct {
	b       *Browser
	target  string
	session string
	events  chan message
	mu      sync.Mutex
	errors  []string
	loaded  chan struct{}
}

// Open opens url in a new tab of width × height CSS pixels and waits for its load event.
// The page's console errors, uncaught exceptions and error log entries (a refused
// resource, a Content-Security-Policy violation) are collected from the start.
func (b *Browser) Open(url string, width, height int) (*Page, error) {
	var target struct {
		TargetID string `json:"targetId"`
	}
	if err := b.call("", "Target.createTarget", map[string]any{"url": "about:blank"}, &target); err != nil {
		return nil, err
	}
	var att struct {
		SessionID string `json:"sessionId"`
	}
	if err := b.call("", "Target.attachToTarget", map[string]any{"targetId": target.TargetID, "flatten": true}, &att); err != nil {
		return nil, err
	}
	p := &Page{b: b, target: target.TargetID, session: att.SessionID, events: make(chan message, 4096), loaded: make(chan struct{}, 1)}
	b.mu.Lock()
	b.subs[p.session] = append(b.subs[p.session], p.events)
	b.mu.Unlock()
	go p.listen()
	for _, m := range []string{"Page.enable", "Runtime.enable", "Log.enable"} {
		if err := p.call(m, nil, nil); err != nil {
			return nil, err
		}
	}
	if err := p.call("Emulation.setDeviceMetricsOverride", map[string]any{"width": width, "height": height, "deviceScaleFactor": 1, "mobile": false}, nil); err != nil {
		return nil, err
	}
	if err := p.Navigate(url); err != nil {
		return nil, err
	}
	return p, nil
}

// Emulate sets what the page's media queries see: "dark" or "light" for
// prefers-color-scheme; scripts false turns JavaScript off. It applies to what loads next.
func (p *Page) Emulate(colorScheme string, scripts bool) error {
	if err := p.call("Emulation.setEmulatedMedia", map[string]any{"features": []map[string]string{{"name": "prefers-color-scheme", "value": colorScheme}}}, nil); err != nil {
		return err
	}
	return p.call("Emulation.setScriptExecutionDisabled", map[string]any{"value": !scripts}, nil)
}

// Navigate loads url and waits for its load event.
func (p *Page) Navigate(url string) error {
	for len(p.loaded) > 0 {
		<-p.loaded
	}
	var nav struct {
		ErrorText string `json:"errorText"`
	}
	if err := p.call("Page.navigate", map[string]any{"url": url}, &nav); err != nil {
		return err
	}
	if nav.ErrorText != "" {
		return fmt.Errorf("loading %s: %s", url, nav.ErrorText)
	}
	select {
	case <-p.loaded:
		return nil
	case <-time.After(answerWait):
		return fmt.Errorf("loading %s: no load event in %v", url, answerWait)
	}
}

func (p *Page) listen() {
	for m := range p.events {
		switch m.Method {
		case "Page.loadEventFired":
			select {
			case p.loaded <- struct{}{}:
			default:
			}
		case "Runtime.consoleAPICalled":
			var e struct {
				Type string `json:"type"`
				Args []struct {
					Value       any    `json:"value"`
					Description string `json:"description"`
				} `json:"args"`
			}
			if json.Unmarshal(m.Params, &e) == nil && (e.Type == "error" || e.Type == "assert") {
				var parts []string
				for _, a := range e.Args {
					if a.Description != "" {
						parts = append(parts, a.Description)
					} else {
						parts = append(parts, fmt.Sprint(a.Value))
					}
				}
				p.addError("console." + e.Type + ": " + strings.Join(parts, " "))
			}
		case "Runtime.exceptionThrown":
			var e struct {
				Details struct {
					Text      string `json:"text"`
					Exception struct {
						Description string `json:"description"`
					} `json:"exception"`
				} `json:"exceptionDetails"`
			}
			if json.Unmarshal(m.Params, &e) == nil {
				p.addError("exception: " + e.Details.Text + " " + e.Details.Exception.Description)
			}
		case "Log.entryAdded":
			var e struct {
				Entry struct {
					Level, Source, Text, URL string
				} `json:"entry"`
			}
			if json.Unmarshal(m.Params, &e) == nil && e.Entry.Level == "error" {
				p.addError("log (" + e.Entry.Source + "): " + e.Entry.Text + " " + e.Entry.URL)
			}
		}
	}
}

func (p *Page) addError(s string) {
	p.mu.Lock()
	p.errors = append(p.errors, s)
	p.mu.Unlock()
}

// Errors are the errors the page logged so far.
func (p *Page) Errors() []string {
	p.mu.Lock()
	defer p.mu.Unlock()
	return append([]string(nil), p.errors...)
}

func (p *Page) call(method string, params, out any) error {
	return p.b.call(p.session, method, params, out)
}

// Eval evaluates a JavaScript expression in the page and decodes its value (returned by
// value: JSON-able) into out; an exception is an error.
func (p *Page) Eval(expr string, out any) error {
	var r struct {
		Result struct {
			Value json.RawMessage `json:"value"`
		} `json:"result"`
		Exception *struct {
			Text      string `json:"text"`
			Exception struct {
				Description string `json:"description"`
			} `json:"exception"`
		} `json:"exceptionDetails"`
	}
	if err := p.call("Runtime.evaluate", map[string]any{"expression": expr, "returnByValue": true, "awaitPromise": true}, &r); err != nil {
		return err
	}
	if r.Exception != nil {
		return fmt.Errorf("evaluating %q: %s %s", expr, r.Exception.Text, r.Exception.Exception.Description)
	}
	if out == nil || len(r.Result.Value) == 0 {
		return nil
	}
	return json.Unmarshal(r.Result.Value, out)
}

// Screenshot captures the page as PNG: its top maxHeight CSS pixels at the viewport's
// width (the whole page when it is shorter).
func (p *Page) Screenshot(maxHeight int) ([]byte, error) {
	var metrics struct {
		ContentSize struct {
			Width, Height float64
		} `json:"cssContentSize"`
		Viewport struct {
			ClientWidth float64 `json:"clientWidth"`
		} `json:"cssLayoutViewport"`
	}
	if err := p.call("Page.getLayoutMetrics", nil, &metrics); err != nil {
		return nil, err
	}
	h := metrics.ContentSize.Height
	if h > float64(maxHeight) {
		h = float64(maxHeight)
	}
	var shot struct {
		Data []byte `json:"data"`
	}
	clip := map[string]any{"x": 0, "y": 0, "width": metrics.Viewport.ClientWidth, "height": h, "scale": 1}
	if err := p.call("Page.captureScreenshot", map[string]any{"format": "png", "captureBeyondViewport": true, "clip": clip}, &shot); err != nil {
		return nil, err
	}
	return shot.Data, nil
}

// Close closes the tab.
func (p *Page) Close() error {
	err := p.b.call("", "Target.closeTarget", map[string]any{"targetId": p.target}, nil)
	p.b.mu.Lock()
	delete(p.b.subs, p.session)
	p.b.mu.Unlock()
	close(p.events)
	return err
}
