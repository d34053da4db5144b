//lint:file-ignore SA1019 the generator builds against every minor from 1.32 (go.1.3x.mod); k8s.io/apiextensions-api, which 1.38 points to, exists only from 1.38

package main

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"reflect"
	"sort"
	"strings"
	"sync"

	apiextensionsclient "k8s.io/apiextensions-apiserver/pkg/client/clientset/clientset"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/rest"
	aggregatorclient "k8s.io/kube-aggregator/pkg/client/clientset_generated/clientset"
)

// clientFact is what a generated typed client of client-go (or of the
// extension API servers) reveals about one GVK.
type clientFact struct {
	resourceInfo
	hasGet bool // false for subresource-only bodies (+genclient:noVerbs)
}

// crossCheck compares the resource table with client-go's generated typed
// clients. Each client sends a GET to a local recorder; the path tells the
// plural and the scope the real client would use against a cluster. A
// client method UpdateStatus means a /status subresource, GetScale a /scale
// subresource. Every kind with a typed client must agree with the table.
func crossCheck(kinds []kind, facts map[gvKind]clientFact) (checked int, err error) {
	var problems []string
	for _, k := range kinds {
		f, ok := facts[gvKind{k.group, k.version, k.kind}]
		if !ok {
			continue
		}
		checked++
		want := k.resourceInfo
		if !f.hasGet {
			if want.resource != "" {
				problems = append(problems, fmt.Sprintf("%s/%s %s: the client has no verbs, the table names resource %q", k.group, k.version, k.kind, want.resource))
			}
			continue
		}
		if f.resourceInfo != want {
			if _, ok := knownDisagreements["client"][gvKind{k.group, k.version, k.kind}]; ok {
				continue
			}
			problems = append(problems, fmt.Sprintf("%s/%s %s: table %+v, client %+v", k.group, k.version, k.kind, want, f.resourceInfo))
		}
	}
	if len(problems) > 0 {
		sort.Strings(problems)
		return checked, fmt.Errorf("the resource table disagrees with the typed clients:\n  %s", strings.Join(problems, "\n  "))
	}
	return checked, nil
}

func clientFacts() (map[gvKind]clientFact, error) {
	var mu sync.Mutex
	var lastPath string
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		lastPath = r.URL.Path
		mu.Unlock()
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(http.StatusNotFound)
		fmt.Fprint(w, `{"kind":"Status","apiVersion":"v1","status":"Failure","reason":"NotFound","code":404}`)
	}))
	defer srv.Close()
	cfg := &rest.Config{Host: srv.URL}

	core, err := kubernetes.NewForConfig(cfg)
	if err != nil {
		return nil, err
	}
	ext, err := apiextensionsclient.NewForConfig(cfg)
	if err != nil {
		return nil, err
	}
	agg, err := aggregatorclient.NewForConfig(cfg)
	if err != nil {
		return nil, err
	}

	facts := map[gvKind]clientFact{}
	for _, cs := range []any{core, ext, agg} {
		csv := reflect.ValueOf(cs)
		for i := 0; i < csv.NumMethod(); i++ {
			m := csv.Type().Method(i)
			// Group-version accessors: AppsV1(), CoreV1(), ApiextensionsV1beta1() ...
			if m.Type.NumIn() != 1 || m.Type.NumOut() != 1 || m.Type.Out(0).Kind() != reflect.Interface || m.Name == "Discovery" {
				continue
			}
			gv := csv.Method(i).Call(nil)[0]
			for j := 0; j < gv.NumMethod(); j++ {
				rm := gv.Type().Method(j)
				if rm.Name == "RESTClient" || rm.Type.NumOut() != 1 || rm.Type.Out(0).Kind() != reflect.Interface {
					continue
				}
				var args []reflect.Value
				namespacedClient := false
				switch {
				case rm.Type.NumIn() == 0:
				case rm.Type.NumIn() == 1 && rm.Type.In(0).Kind() == reflect.String:
					args = []reflect.Value{reflect.ValueOf("ns")}
					namespacedClient = true
				default:
					continue
				}
				client := gv.Method(j).Call(args)[0]
				var f clientFact
				get := client.MethodByName("Get")
				_, f.status = client.Type().MethodByName("UpdateStatus")
				_, f.scale = client.Type().MethodByName("GetScale")
				var kindName string
				if get.IsValid() {
					out := get.Call([]reflect.Value{reflect.ValueOf(context.Background()), reflect.ValueOf("obj"), reflect.ValueOf(metav1.GetOptions{})})
					kindName = out[0].Type().Elem().Name()
					mu.Lock()
					path := lastPath
					mu.Unlock()
					g, v, resource, ns, err := parsePath(path)
					if err != nil {
						return nil, fmt.Errorf("%s.%s: %w", m.Name, rm.Name, err)
					}
					if ns != namespacedClient {
						return nil, fmt.Errorf("%s.%s: client scope and path %s disagree", m.Name, rm.Name, path)
					}
					f.hasGet = true
					f.resource, f.namespaced = resource, ns
					key := gvKind{g, v, kindName}
					facts[key] = f
					continue
				}
				// A client without verbs (e.g. policy Evictions): the kind is the
				// interface name minus "Interface"; the group version comes from
				// the accessor's package path.
				kindName = strings.TrimSuffix(rm.Type.Out(0).Name(), "Interface")
				g, v := groupVersionFromPkg(rm.Type.Out(0).PkgPath())
				facts[gvKind{g, v, kindName}] = clientFact{hasGet: false}
			}
		}
	}
	return facts, nil
}

// parsePath splits /api/v1/namespaces/ns/pods/obj or
// /apis/apps/v1/namespaces/ns/deployments/obj.
func parsePath(p string) (group, version, resource string, namespaced bool, err error) {
	parts := strings.Split(strings.Trim(p, "/"), "/")
	switch {
	case len(parts) >= 2 && parts[0] == "api":
		version, parts = parts[1], parts[2:]
	case len(parts) >= 3 && parts[0] == "apis":
		group, version, parts = parts[1], parts[2], parts[3:]
	default:
		return "", "", "", false, fmt.Errorf("unexpected request path %q", p)
	}
	if len(parts) == 4 && parts[0] == "namespaces" {
		return group, version, parts[2], true, nil
	}
	if len(parts) == 2 {
		return group, version, parts[0], false, nil
	}
	return "", "", "", false, fmt.Errorf("unexpected request path %q", p)
}

// groupVersionFromPkg maps k8s.io/client-go/kubernetes/typed/policy/v1 to
// ("policy", "v1"). Only used for clients without verbs; their group is the
// package directory, which is the API group for the groups that have such
// clients (policy).
func groupVersionFromPkg(pkg string) (string, string) {
	parts := strings.Split(pkg, "/")
	if len(parts) < 2 {
		return "", ""
	}
	g, v := parts[len(parts)-2], parts[len(parts)-1]
	if g == "core" {
		g = ""
	}
	return g, v
}
