package clustertest

import (
	"context"
	"crypto/rand"
	"crypto/rsa"
	"crypto/tls"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/pem"
	"fmt"
	"math/big"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"syscall"
	"testing"
	"time"
)

// APIServer is a real kube-apiserver with its etcd, started for a test from binaries
// (kube-apiserver and etcd in one folder), on free ports of 127.0.0.1, with RBAC: the
// admin token is in system:masters, every other identity has what RBAC grants it.
type APIServer struct {
	URL string
	// CA is the PEM of the certificate authority of the server's certificate.
	CA []byte
	// AdminToken authenticates as oracle-admin (system:masters).
	AdminToken string
	dir        string
	procs      map[string]*os.Process
}

// StartAPIServer starts etcd and kube-apiserver from binDir and stops them when the test
// ends. It fails the test when they do not start.
func StartAPIServer(t testing.TB, binDir string) *APIServer {
	t.Helper()
	return startAPIServer(t, binDir, "--disable-admission-plugins=ServiceAccount")
}

// StartAPIServerWithAdmission is StartAPIServer with the whole default admission chain,
// the ServiceAccount plugin included (StartAPIServer disables it: no controller makes the
// accounts it needs; a test that creates Pods makes them).
func StartAPIServerWithAdmission(t testing.TB, binDir string) *APIServer {
	t.Helper()
	return startAPIServer(t, binDir, "--disable-admission-plugins=")
}

func startAPIServer(t testing.TB, binDir, admission string) *APIServer {
	t.Helper()
	for _, b := range []string{"kube-apiserver", "etcd"} {
		if _, err := os.Stat(filepath.Join(binDir, b)); err != nil {
			t.Fatalf("no %s in %s: %v", b, binDir, err)
		}
	}
	dir := t.TempDir()
	s := &APIServer{dir: dir, AdminToken: "e2e-admin-token", procs: map[string]*os.Process{}}
	caPEM, certPEM, keyPEM := servingCert(t)
	s.CA = caPEM
	saKey, saPub := keyPair(t)
	write := func(name string, data []byte) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, data, 0o600); err != nil {
			t.Fatal(err)
		}
		return p
	}
	write("ca.crt", caPEM)
	write("apiserver.crt", certPEM)
	write("apiserver.key", keyPEM)
	write("sa.key", saKey)
	write("sa.pub", saPub)
	write("token.csv", []byte(s.AdminToken+`,oracle-admin,oracle-admin-uid,"system:masters"`+"\n"))
	etcdPort, peerPort, apiPort := freePort(t), freePort(t), freePort(t)
	s.URL = fmt.Sprintf("https://127.0.0.1:%d", apiPort)

	start := func(name string, args ...string) {
		logf, err := os.Create(filepath.Join(dir, name+".log"))
		if err != nil {
			t.Fatal(err)
		}
		cmd := exec.Command(filepath.Join(binDir, name), args...)
		cmd.Stdout, cmd.Stderr = logf, logf
		cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
		if err := cmd.Start(); err != nil {
			t.Fatalf("starting %s: %v", name, err)
		}
		s.procs[name] = cmd.Process
		t.Cleanup(func() {
			_ = cmd.Process.Signal(syscall.SIGCONT) // if a test stopped it
			_ = cmd.Process.Signal(syscall.SIGTERM)
			done := make(chan struct{})
			go func() { _ = cmd.Wait(); close(done) }()
			select {
			case <-done:
			case <-time.After(20 * time.Second):
				_ = cmd.Process.Kill()
				<-done
			}
			logf.Close()
		})
	}
	etcdURL := fmt.Sprintf("http://127.0.0.1:%d", etcdPort)
	peerURL := fmt.Sprintf("http://127.0.0.1:%d", peerPort)
	start("etcd", "--name", "e2e", "--data-dir", filepath.Join(dir, "etcd-data"),
		"--listen-client-urls", etcdURL, "--advertise-client-urls", etcdURL,
		"--listen-peer-urls", peerURL, "--initial-advertise-peer-urls", peerURL,
		"--initial-cluster", "e2e="+peerURL, "--initial-cluster-state", "new", "--log-level", "warn")
	s.wait(t, etcdURL+"/health", "", "etcd", 60*time.Second)
	start("kube-apiserver",
		"--etcd-servers="+etcdURL, "--bind-address=127.0.0.1", "--advertise-address=127.0.0.1",
		fmt.Sprintf("--secure-port=%d", apiPort),
		"--tls-cert-file="+filepath.Join(dir, "apiserver.crt"), "--tls-private-key-file="+filepath.Join(dir, "apiserver.key"),
		"--cert-dir="+filepath.Join(dir, "certs"),
		"--authorization-mode=RBAC", "--token-auth-file="+filepath.Join(dir, "token.csv"),
		"--service-account-key-file="+filepath.Join(dir, "sa.pub"), "--service-account-signing-key-file="+filepath.Join(dir, "sa.key"),
		"--service-account-issuer=https://kubernetes.default.svc.cluster.local",
		"--service-cluster-ip-range=10.0.0.0/24", "--endpoint-reconciler-type=none",
		admission, "--profiling=false", "--v=1")
	s.wait(t, s.URL+"/readyz", s.AdminToken, "kube-apiserver", 180*time.Second)
	return s
}

// Kubeconfig writes a kubeconfig for the server with a bearer token and a namespace, into
// a new file of the test's folder.
func (s *APIServer) Kubeconfig(t testing.TB, name, token, namespace string) string {
	t.Helper()
	cfg := fmt.Sprintf(`apiVersion: v1
kind: Config
clusters:
- name: e2e
  cluster: {server: %q, certificate-authority: %q}
users:
- name: %s
  user: {token: %q}
contexts:
- name: %s
  context: {cluster: e2e, user: %s, namespace: %q}
current-context: %s
`, s.URL, filepath.Join(s.dir, "ca.crt"), name, token, name, name, namespace, name)
	p := filepath.Join(s.dir, "kubeconfig-"+name)
	if err := os.WriteFile(p, []byte(cfg), 0o600); err != nil {
		t.Fatal(err)
	}
	return p
}

// Signal sends sig to "kube-apiserver" or "etcd": SIGKILL makes a server that dies,
// SIGSTOP one that hangs (sent SIGCONT when the test ends).
func (s *APIServer) Signal(name string, sig os.Signal) error {
	p, ok := s.procs[name]
	if !ok {
		return fmt.Errorf("no process %s", name)
	}
	return p.Signal(sig)
}

// Log is the tail of a server's log (etcd or kube-apiserver), for failures.
func (s *APIServer) Log(name string) string {
	data, _ := os.ReadFile(filepath.Join(s.dir, name+".log"))
	if len(data) > 4000 {
		data = data[len(data)-4000:]
	}
	return string(data)
}

func (s *APIServer) wait(t testing.TB, url, token, name string, limit time.Duration) {
	t.Helper()
	pool := x509.NewCertPool()
	pool.AppendCertsFromPEM(s.CA)
	client := &http.Client{Timeout: 5 * time.Second, Transport: &http.Transport{TLSClientConfig: &tls.Config{RootCAs: pool}}}
	deadline := time.Now().Add(limit)
	for {
		req, _ := http.NewRequestWithContext(context.Background(), http.MethodGet, url, nil)
		if token != "" {
			req.Header.Set("Authorization", "Bearer "+token)
		}
		resp, err := client.Do(req)
		if err == nil {
			resp.Body.Close()
			if resp.StatusCode == http.StatusOK {
				return
			}
		}
		if time.Now().After(deadline) {
			t.Fatalf("%s not ready after %v (%v); its log ends:\n%s", name, limit, err, s.Log(name))
		}
		time.Sleep(300 * time.Millisecond)
	}
}

func freePort(t testing.TB) int {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	return l.Addr().(*net.TCPAddr).Port
}

// servingCert makes a certificate authority and a serving certificate for 127.0.0.1.
func servingCert(t testing.TB) (caPEM, certPEM, keyPEM []byte) {
	t.Helper()
	caKey, err := rsa.GenerateKey(rand.Reader, 2048)
	if err != nil {
		t.Fatal(err)
	}
	now := time.Now()
	caTmpl := &x509.Certificate{SerialNumber: big.NewInt(1), Subject: pkix.Name{CommonName: "ssa-diff-e2e-ca"},
		NotBefore: now.Add(-time.Hour), NotAfter: now.Add(24 * time.Hour), IsCA: true, BasicConstraintsValid: true,
		KeyUsage: x509.KeyUsageCertSign | x509.KeyUsageDigitalSignature}
	caDER, err := x509.CreateCertificate(rand.Reader, caTmpl, caTmpl, &caKey.PublicKey, caKey)
	if err != nil {
		t.Fatal(err)
	}
	ca, _ := x509.ParseCertificate(caDER)
	key, err := rsa.GenerateKey(rand.Reader, 2048)
	if err != nil {
		t.Fatal(err)
	}
	tmpl := &x509.Certificate{SerialNumber: big.NewInt(2), Subject: pkix.Name{CommonName: "kube-apiserver"},
		NotBefore: now.Add(-time.Hour), NotAfter: now.Add(24 * time.Hour),
		IPAddresses: []net.IP{net.ParseIP("127.0.0.1")}, DNSNames: []string{"localhost", "kubernetes", "kubernetes.default"},
		KeyUsage: x509.KeyUsageDigitalSignature | x509.KeyUsageKeyEncipherment, ExtKeyUsage: []x509.ExtKeyUsage{x509.ExtKeyUsageServerAuth}}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, ca, &key.PublicKey, caKey)
	if err != nil {
		t.Fatal(err)
	}
	return pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: caDER}),
		pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: der}),
		pem.EncodeToMemory(&pem.Block{Type: "RSA PRIVATE KEY", Bytes: x509.MarshalPKCS1PrivateKey(key)})
}

// keyPair makes the service account signing key and its public half.
func keyPair(t testing.TB) (private, public []byte) {
	t.Helper()
	key, err := rsa.GenerateKey(rand.Reader, 2048)
	if err != nil {
		t.Fatal(err)
	}
	pub, err := x509.MarshalPKIXPublicKey(&key.PublicKey)
	if err != nil {
		t.Fatal(err)
	}
	return pem.EncodeToMemory(&pem.Block{Type: "RSA PRIVATE KEY", Bytes: x509.MarshalPKCS1PrivateKey(key)}),
		pem.EncodeToMemory(&pem.Block{Type: "PUBLIC KEY", Bytes: pub})
}

// BinDir is where the kube-apiserver and etcd binaries are: $SSA_DIFF_KUBE_BIN, else the
// cache `make e2e` builds them into.
func BinDir() string {
	if d := os.Getenv("SSA_DIFF_KUBE_BIN"); d != "" {
		return d
	}
	home, _ := os.UserHomeDir()
	return filepath.Join(home, ".cache", "kube-apiserver-1.37.2", "bin")
}
