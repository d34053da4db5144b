package clustertest

import (
	"net"
	"sync"
	"testing"
)

// Silent listens on a free port of 127.0.0.1, accepts every connection and never sends a
// byte — a server that hangs, or a load balancer holding connections to a backend that is
// gone — until the test ends. It returns the address (host:port) and a channel that
// receives once per connection accepted.
func Silent(t testing.TB) (addr string, accepted <-chan struct{}) {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	acc := make(chan struct{}, 1024)
	var mu sync.Mutex
	var conns []net.Conn
	done := make(chan struct{})
	go func() {
		defer close(done)
		for {
			c, err := l.Accept()
			if err != nil {
				return
			}
			mu.Lock()
			conns = append(conns, c)
			mu.Unlock()
			select {
			case acc <- struct{}{}:
			default:
			}
		}
	}()
	t.Cleanup(func() {
		l.Close()
		<-done
		mu.Lock()
		defer mu.Unlock()
		for _, c := range conns {
			c.Close()
		}
	})
	return l.Addr().String(), acc
}
