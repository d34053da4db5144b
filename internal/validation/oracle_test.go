package validation_test

import (
	"bytes"
	"crypto/tls"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"os"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"
)

// The scenario tables hold the server's answers. SSA_DIFF_ORACLE names a running
// kube-apiserver 1.37.2 (its URL; SSA_DIFF_ORACLE_TOKEN its token) to check them against:
// each case's stored object is created there, and its write sent with dryRun=All.
//
//	SSA_DIFF_ORACLE=https://127.0.0.1:16458 SSA_DIFF_ORACLE_TOKEN=oracle-admin-token \
//	  go test -run Oracle ./internal/validation/
func TestWorkloadCasesAgainstOracle(t *testing.T) {
	url := os.Getenv("SSA_DIFF_ORACLE")
	if url == "" {
		t.Skip("SSA_DIFF_ORACLE is not set")
	}
	o := &oracle{url: url, token: os.Getenv("SSA_DIFF_ORACLE_TOKEN"), client: &http.Client{Transport: &http.Transport{
		TLSClientConfig: &tls.Config{InsecureSkipVerify: true}}}}
	run := time.Now().Unix() % 100000
	for _, table := range []struct {
		name  string
		cases []workloadCase
	}{{"Deployment", deploymentCases(t)}, {"StatefulSet", statefulSetCases(t)}, {"Job", jobCases(t)},
		{"CronJob", cronJobCases(t)}, {"Other", otherWorkloadCases(t)}} {
		for i, c := range table.cases {
			if c.subresource == "scale" {
				continue
			}
			t.Run(table.name+"/"+c.name, func(t *testing.T) {
				got, warnings, skip := o.answer(t, &c, fmt.Sprintf("oracle-%d-%s-%d", run, strings.ToLower(table.name), i))
				if skip != "" {
					t.Skip(skip)
				}
				if got != c.want {
					t.Errorf("server %s\ntable  %s", got, c.want)
				}
				if !slices.Equal(warnings, c.warnings) {
					t.Errorf("server warnings %q\ntable           %q", warnings, c.warnings)
				}
			})
		}
	}
}

type oracle struct {
	url, token string
	client     *http.Client
}

func (o *oracle) do(t *testing.T, method, path string, body any) (int, map[string]any) {
	t.Helper()
	code, out, _ := o.request(t, method, path, body)
	return code, out
}

// request is do with the warnings of the answer (its Warning headers' texts).
func (o *oracle) request(t *testing.T, method, path string, body any) (int, map[string]any, []string) {
	t.Helper()
	var r io.Reader
	if body != nil {
		b, _ := json.Marshal(body)
		r = bytes.NewReader(b)
	}
	req, err := http.NewRequest(method, o.url+path, r)
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Authorization", "Bearer "+o.token)
	req.Header.Set("Content-Type", "application/json")
	resp, err := o.client.Do(req)
	if err != nil {
		if strings.Contains(err.Error(), "INTERNAL_ERROR") || errors.Is(err, io.EOF) {
			// The handler panicked: the server resets the stream, with no status.
			return 0, map[string]any{"message": serverAborts}, nil
		}
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var out map[string]any
	_ = json.NewDecoder(resp.Body).Decode(&out)
	var warnings []string
	for _, h := range resp.Header.Values("Warning") {
		// 299 - "text": the text is a quoted string.
		_, quoted, _ := strings.Cut(h, " - ")
		text, err := strconv.Unquote(quoted)
		if err != nil {
			t.Fatalf("Warning header %q: %v", h, err)
		}
		warnings = append(warnings, text)
	}
	return resp.StatusCode, out, warnings
}

// answer is the server's answer to the case's write, in a namespace of its own, and its
// warnings; skip says why a case cannot be sent (a stored object the server would not
// create as given).
func (o *oracle) answer(t *testing.T, c *workloadCase, ns string) (msg string, warnings []string, skip string) {
	msg, _, warnings, skip = o.answerFull(t, c, ns)
	return msg, warnings, skip
}

// answerFull is answer with the number of causes of a refusal.
func (o *oracle) answerFull(t *testing.T, c *workloadCase, ns string) (msg string, causes int, warnings []string, skip string) {
	if code, st := o.do(t, "POST", "/api/v1/namespaces", map[string]any{"metadata": map[string]any{"name": ns}}); code >= 300 {
		t.Fatalf("namespace %s: %v", ns, st["message"])
	}
	defer o.do(t, "DELETE", "/api/v1/namespaces/"+ns, nil)
	obj := object(t, c.new)
	md := obj["metadata"].(map[string]any)
	md["namespace"] = ns
	av, kind := obj["apiVersion"].(string), obj["kind"].(string)
	plural := strings.ToLower(kind) + "s"
	if kind == "HorizontalPodAutoscaler" {
		plural = "horizontalpodautoscalers"
	}
	base := "/apis/" + av + "/namespaces/" + ns + "/" + plural
	if c.old == "" {
		if uid, _ := md["uid"].(string); uid != "" && strings.Contains(c.new, "controller-uid: "+uid) {
			return "", 0, nil, "a create whose generated labels name the uid the server will assign"
		}
		delete(md, "uid")
		delete(md, "resourceVersion")
		code, st, warnings := o.request(t, "POST", base+"?dryRun=All", obj)
		return message(code, st), causeCount(st), warnings, ""
	}
	old := object(t, c.old)
	// A stored Job's selector and labels carry its uid: the server generates them for the
	// uid it assigns, and the case is read with that uid.
	uid, _ := old["metadata"].(map[string]any)["uid"].(string)
	if kind == "Job" && uid != "" && strings.Contains(c.old, "controller-uid: "+uid) {
		spec := old["spec"].(map[string]any)
		delete(spec, "selector")
		tpl := spec["template"].(map[string]any)["metadata"].(map[string]any)
		delete(tpl, "labels")
	}
	omd := old["metadata"].(map[string]any)
	omd["namespace"] = ns
	delete(omd, "uid")
	delete(omd, "resourceVersion")
	status := old["status"]
	code, created := o.do(t, "POST", base, old)
	if code >= 300 {
		return "", 0, nil, fmt.Sprintf("%s%v", storedRefused, created["message"])
	}
	name := omd["name"].(string)
	if status != nil {
		created["status"] = status
		if code, st := o.do(t, "PUT", base+"/"+name+"/status", created); code >= 300 {
			return "", 0, nil, fmt.Sprintf("the stored status is refused: %v", st["message"])
		}
		_, created = o.do(t, "GET", base+"/"+name, nil)
	}
	cmd := created["metadata"].(map[string]any)
	// The answer names the case's uid where the server's stood.
	tableUID := func(msg string) string { return msg }
	if kind == "Job" && uid != "" && strings.Contains(c.old, "controller-uid: "+uid) {
		serverUID := cmd["uid"].(string)
		c.new = strings.ReplaceAll(c.new, uid, serverUID)
		obj = object(t, c.new)
		md = obj["metadata"].(map[string]any)
		md["namespace"] = ns
		tableUID = func(msg string) string { return strings.ReplaceAll(msg, serverUID, uid) }
	}
	md["uid"], md["resourceVersion"] = cmd["uid"], cmd["resourceVersion"]
	path := base + "/" + name
	if c.subresource != "" {
		path += "/" + c.subresource
	}
	code, st, warnings := o.request(t, "PUT", path+"?dryRun=All", obj)
	return tableUID(message(code, st)), causeCount(st), warnings, ""
}

// causeCount is the number of causes a Status lists.
func causeCount(st map[string]any) int {
	details, _ := st["details"].(map[string]any)
	causes, _ := details["causes"].([]any)
	return len(causes)
}

// serverAborts is the answer recorded when the server's handler panics: it resets the
// stream without a status.
const serverAborts = "the server aborts the request"

// storedRefused begins the reason a case is not sent: the server refused to create the
// stored object (the message follows).
const storedRefused = "the stored object is refused: "

func message(code int, st map[string]any) string {
	if code == 0 {
		return serverAborts
	}
	if code < 300 {
		return ""
	}
	m, _ := st["message"].(string)
	return m
}
