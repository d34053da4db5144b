package wire

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os/exec"
	"strings"
	"sync"

	"github.com/ssa-diff/ssa-diff/internal/unstructured"
)

// message is one line of the protocol, either way.
type message struct {
	Setup  *Setup  `json:"setup,omitempty"`
	Call   *Call   `json:"call,omitempty"`
	Answer *Answer `json:"answer,omitempty"`
	Diff   *Diff   `json:"diff,omitempty"`
	Diffed *string `json:"diffed,omitempty"`
	Ready  bool    `json:"ready,omitempty"`
	Error  string  `json:"error,omitempty"`
}

// process is a helper process answering calls, one at a time.
type process struct {
	mu     sync.Mutex
	cmd    *exec.Cmd
	in     io.WriteCloser
	out    *bufio.Reader
	stderr *bytes.Buffer
	path   string
	broken error
}

// Exec starts the helper program at path, sends it setup and waits until it is ready. The
// helper runs until Close, or until this process ends (its input closes).
func Exec(path string, setup Setup) (Library, error) {
	p, err := start(path)
	if err != nil {
		return nil, err
	}
	reply, err := p.roundTrip(message{Setup: &setup})
	if err == nil && !reply.Ready {
		err = errors.New("it did not say it was ready")
	}
	if err != nil {
		_ = p.Close()
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return p, nil
}

// start starts the helper program at path.
func start(path string) (*process, error) {
	cmd := exec.Command(path)
	in, err := cmd.StdinPipe()
	if err != nil {
		return nil, fmt.Errorf("starting %s: %w", path, err)
	}
	out, err := cmd.StdoutPipe()
	if err != nil {
		return nil, fmt.Errorf("starting %s: %w", path, err)
	}
	stderr := &bytes.Buffer{}
	cmd.Stderr = &limitedWriter{w: stderr, n: 64 << 10}
	if err := cmd.Start(); err != nil {
		return nil, fmt.Errorf("starting %s: %w", path, err)
	}
	return &process{cmd: cmd, in: in, out: newReader(out), stderr: stderr, path: path}, nil
}

// Call sends c and reads the answer.
func (p *process) Call(c Call) (Answer, error) {
	reply, err := p.ask(message{Call: &c})
	if err != nil {
		return Answer{}, err
	}
	if reply.Answer == nil {
		return Answer{}, fmt.Errorf("%s: no answer", p.path)
	}
	return *reply.Answer, nil
}

// diff sends d and reads the text.
func (p *process) diff(d Diff) (string, error) {
	reply, err := p.ask(message{Diff: &d})
	if err != nil {
		return "", err
	}
	if reply.Diffed == nil {
		return "", fmt.Errorf("%s: no diff", p.path)
	}
	return *reply.Diffed, nil
}

// ask sends m and reads the reply. A request the helper answers it could not do fails
// alone; a broken helper fails this and every later request.
func (p *process) ask(m message) (message, error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.broken != nil {
		return message{}, p.broken
	}
	reply, err := p.roundTrip(m)
	var answered *answerError
	if errors.As(err, &answered) {
		return message{}, fmt.Errorf("%s: %w", p.path, err) // the helper goes on
	}
	if err != nil {
		p.broken = fmt.Errorf("%s: %w", p.path, err)
		return message{}, p.broken
	}
	return reply, nil
}

// encodeLine is a message as one line.
func encodeLine(m message) ([]byte, error) {
	b, err := json.Marshal(m)
	if err != nil {
		return nil, err
	}
	return append(b, '\n'), nil
}

func (p *process) roundTrip(m message) (message, error) {
	b, err := encodeLine(m)
	if err != nil {
		return message{}, err
	}
	if _, err := p.in.Write(b); err != nil {
		return message{}, p.failed(err)
	}
	line, err := p.out.ReadBytes('\n')
	if err != nil {
		return message{}, p.failed(err)
	}
	reply, err := decode(line)
	if err != nil {
		return message{}, fmt.Errorf("unreadable answer: %w", err)
	}
	if reply.Error != "" {
		return message{}, &answerError{reply.Error}
	}
	return reply, nil
}

// answerError is the helper's answer that it could not do what was asked.
type answerError struct{ msg string }

func (e *answerError) Error() string { return e.msg }

func newReader(r io.Reader) *bufio.Reader { return bufio.NewReaderSize(r, 64<<10) }

// failed is a broken pipe explained by what the helper wrote to its standard error.
func (p *process) failed(err error) error {
	if p.stderr == nil {
		return err
	}
	if s := strings.TrimSpace(p.stderr.String()); s != "" {
		return fmt.Errorf("%w: %s", err, s)
	}
	return err
}

// Close ends the helper: its input closes and it exits.
func (p *process) Close() error {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.cmd == nil {
		return nil
	}
	_ = p.in.Close()
	err := p.cmd.Wait()
	p.cmd = nil
	if p.broken == nil {
		p.broken = errors.New("the admission helper was closed")
	}
	return err
}

// limitedWriter keeps the first n bytes written to it.
type limitedWriter struct {
	w io.Writer
	n int
}

func (l *limitedWriter) Write(b []byte) (int, error) {
	if l.n > 0 {
		k := min(len(b), l.n)
		_, _ = l.w.Write(b[:k])
		l.n -= k
	}
	return len(b), nil
}

// Serve is the helper's side: it reads the Setup, makes the library with newLibrary, says
// it is ready, then answers each Call until in ends. A call the library fails is answered
// with its error; the helper goes on. A Diff is answered by diff, before or after the
// setup (a Differ sends none).
func Serve(in io.Reader, out io.Writer, newLibrary func(Setup) (Library, error), diff func(Diff) (string, error)) error {
	r := bufio.NewReader(in)
	w := bufio.NewWriter(out)
	send := func(m message) error {
		b, err := encodeLine(m)
		if err != nil {
			return err
		}
		if _, err := w.Write(b); err != nil {
			return err
		}
		return w.Flush()
	}
	var lib Library
	defer func() {
		if lib != nil {
			_ = lib.Close()
		}
	}()
	for {
		line, err := r.ReadBytes('\n')
		if errors.Is(err, io.EOF) && len(bytes.TrimSpace(line)) == 0 {
			return nil
		}
		if err != nil && !errors.Is(err, io.EOF) {
			return err
		}
		m, err := decode(line)
		if err != nil {
			return fmt.Errorf("unreadable request: %w", err)
		}
		var reply message
		switch {
		case m.Setup != nil:
			if lib != nil {
				return send(message{Error: "a second setup"})
			}
			if lib, err = newLibrary(*m.Setup); err != nil {
				return send(message{Error: err.Error()})
			}
			reply = message{Ready: true}
		case m.Call != nil && lib != nil:
			a, err := lib.Call(*m.Call)
			reply = message{Answer: &a}
			if err != nil {
				reply = message{Error: err.Error()}
			}
		case m.Diff != nil && diff != nil:
			text, err := diff(*m.Diff)
			reply = message{Diffed: &text}
			if err != nil {
				reply = message{Error: err.Error()}
			}
		default:
			reply = message{Error: "a call before the setup, a diff this helper does not print, or an empty request"}
		}
		if err := send(reply); err != nil {
			return err
		}
	}
}

// decode reads one message, its objects' numbers as Kubernetes' JSON decoding makes them
// (integers int64, the rest float64): a policy's CEL tells an int from a double.
func decode(line []byte) (message, error) {
	var m message
	d := json.NewDecoder(bytes.NewReader(line))
	d.UseNumber()
	if err := d.Decode(&m); err != nil {
		return message{}, err
	}
	if m.Setup != nil {
		for i, o := range m.Setup.Objects {
			m.Setup.Objects[i] = unstructured.CopyAsDecoded(o)
		}
	}
	if m.Call != nil {
		m.Call.Object = unstructured.CopyAsDecoded(m.Call.Object)
		m.Call.OldObject = unstructured.CopyAsDecoded(m.Call.OldObject)
	}
	if m.Answer != nil {
		m.Answer.Object = unstructured.CopyAsDecoded(m.Answer.Object)
	}
	return m, nil
}
