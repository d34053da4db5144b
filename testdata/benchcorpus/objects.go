package benchcorpus

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"sort"
	"strings"
)

type obj = map[string]interface{}
type arr = []interface{}

// appState is one version of an application as its repository describes it.
type appState struct {
	team, name, namespace string

	images       map[string]string // container name → image
	sidecars     []string          // containers after the main one, in order
	initMigrate  bool
	env          []envVar
	config       []kv
	replicas     int64 // 0: not in the manifest (the HPA scales it)
	hpa          bool
	minReplicas  int64
	maxReplicas  int64
	cpuTarget    int64
	memoryTarget int64 // 0: no memory metric
	monitor      bool
	cert         bool
	dnsNames     []string
	cpuRequest   string
	memRequest   string
	memLimit     string
	extraLabels  []kv
	tier         string
	port         int64
}

type envVar struct {
	name, value string
	secretKey   string // non-empty: valueFrom a Secret key
}

type kv struct{ k, v string }

var (
	tiers      = []string{"frontend", "backend", "worker", "api"}
	words      = []string{"cart", "search", "checkout", "ledger", "mailer", "billing", "catalog", "inventory", "profile", "auth", "gateway", "reports", "ingest", "notify", "pricing", "review", "shipping", "export", "feed", "media"}
	envNames   = []string{"LOG_LEVEL", "LOG_FORMAT", "HTTP_PORT", "GRPC_PORT", "CACHE_TTL", "FEATURE_FLAGS", "OTEL_EXPORTER_OTLP_ENDPOINT", "OTEL_SERVICE_NAME", "DB_HOST", "DB_NAME", "DB_POOL_SIZE", "REDIS_URL", "QUEUE_URL", "TIMEOUT_MS", "MAX_BODY_BYTES", "REGION", "GOMAXPROCS", "GOMEMLIMIT"}
	cfgKeys    = []string{"app.yaml", "logging.yaml", "features.json", "RATE_LIMIT", "UPSTREAM_URL", "RETRY_BACKOFF", "CIRCUIT_BREAKER", "LOCALE", "CURRENCY", "BATCH_SIZE", "PAGE_SIZE", "SMTP_HOST", "S3_BUCKET", "KAFKA_TOPIC", "SENTRY_ENV"}
	cpuSizes   = []string{"50m", "100m", "250m", "500m", "1"}
	memSizes   = []string{"64Mi", "128Mi", "256Mi", "512Mi", "1Gi"}
	sidecarSet = []string{"envoy", "log-shipper", "metrics-exporter"}
)

func pick[T any](r *rand.Rand, xs []T) T { return xs[r.IntN(len(xs))] }

// pickAtLeast draws one of the sizes from min on (sizes ascend): a memory limit never
// below the request, which the server refuses (it draws as often as pick).
func pickAtLeast(r *rand.Rand, sizes []string, min string) string {
	from := slices.Index(sizes, min)
	if from < 0 {
		from = 0
	}
	return sizes[from+r.IntN(len(sizes)-from)]
}

// newApp draws an application.
func newApp(r *rand.Rand, team string, i int) *appState {
	name := fmt.Sprintf("%s-%s-%d", pick(r, words), pick(r, tiers), i)
	a := &appState{team: team, name: name, namespace: team, images: map[string]string{},
		tier: pick(r, tiers), port: int64(8000 + r.IntN(100)*10)}
	a.images[name] = fmt.Sprintf("registry.example.com/%s/%s:v1.%d.%d", team, name, r.IntN(30), r.IntN(10))
	a.sidecars = []string{"envoy"}
	if r.IntN(10) < 8 {
		a.sidecars = append(a.sidecars, "log-shipper")
	}
	if r.IntN(10) < 3 {
		a.sidecars = append(a.sidecars, "metrics-exporter")
	}
	for _, s := range a.sidecars {
		a.images[s] = sidecarImage(s, 0)
	}
	a.initMigrate = r.IntN(10) < 3
	perm := r.Perm(len(envNames))
	for _, j := range perm[:3+r.IntN(10)] {
		a.env = append(a.env, envVar{name: envNames[j], value: envValue(r, envNames[j])})
	}
	a.env = append(a.env, envVar{name: "DB_PASSWORD", secretKey: "password"})
	perm = r.Perm(len(cfgKeys))
	for _, j := range perm[:4+r.IntN(8)] {
		a.config = append(a.config, kv{cfgKeys[j], configValue(r, cfgKeys[j], a.name)})
	}
	a.hpa = r.IntN(10) < 5
	if a.hpa {
		a.minReplicas = int64(2 + r.IntN(2))
		a.maxReplicas = a.minReplicas + int64(3+r.IntN(10))
		a.cpuTarget = int64(60 + 5*r.IntN(5))
		if r.IntN(3) == 0 {
			a.memoryTarget = 80
		}
	} else {
		a.replicas = int64(1 + r.IntN(4))
	}
	a.monitor = r.IntN(10) < 5
	a.cert = r.IntN(10) < 3
	a.dnsNames = []string{a.name + ".example.com"}
	if r.IntN(2) == 0 {
		a.dnsNames = append(a.dnsNames, a.name+"."+team+".internal.example.com")
	}
	a.cpuRequest, a.memRequest = pick(r, cpuSizes), pick(r, memSizes)
	a.memLimit = a.memRequest
	return a
}

func sidecarImage(name string, bump int) string {
	switch name {
	case "envoy":
		return fmt.Sprintf("envoyproxy/envoy:v1.31.%d", 2+bump)
	case "log-shipper":
		return fmt.Sprintf("fluent/fluent-bit:3.2.%d", 1+bump)
	default:
		return fmt.Sprintf("prom/statsd-exporter:v0.28.%d", bump)
	}
}

func envValue(r *rand.Rand, name string) string {
	switch name {
	case "LOG_LEVEL":
		return pick(r, []string{"debug", "info", "warn"})
	case "LOG_FORMAT":
		return "json"
	case "HTTP_PORT":
		return "8080"
	case "GRPC_PORT":
		return "9000"
	case "FEATURE_FLAGS":
		return "new-checkout,fast-search"
	case "OTEL_EXPORTER_OTLP_ENDPOINT":
		return "http://otel-collector.observability:4317"
	case "DB_HOST":
		return fmt.Sprintf("pg-%d.databases.svc", r.IntN(8))
	case "REGION":
		return pick(r, []string{"eu-west-1", "us-east-1", "ap-southeast-2"})
	case "GOMEMLIMIT":
		return "200MiB"
	default:
		return fmt.Sprint(10 * (1 + r.IntN(100)))
	}
}

func configValue(r *rand.Rand, key, app string) string {
	switch key {
	case "app.yaml":
		return fmt.Sprintf("server:\n  port: 8080\n  readTimeout: %ds\n  writeTimeout: %ds\ndatabase:\n  maxOpen: %d\n  maxIdle: %d\ncache:\n  enabled: true\n  size: %d\n",
			5+r.IntN(20), 5+r.IntN(20), 10+r.IntN(40), 2+r.IntN(8), 1000*(1+r.IntN(50)))
	case "logging.yaml":
		return "level: info\nformat: json\nsampling:\n  initial: 100\n  thereafter: 100\n"
	case "features.json":
		return fmt.Sprintf("{\"newCheckout\": %v, \"fastSearch\": %v, \"betaBanner\": false}\n", r.IntN(2) == 0, r.IntN(2) == 0)
	case "UPSTREAM_URL":
		return "http://" + pick(r, words) + ".svc.cluster.local:8080"
	case "S3_BUCKET":
		return "acme-" + app
	case "KAFKA_TOPIC":
		return app + ".events.v1"
	default:
		return fmt.Sprint(1 + r.IntN(500))
	}
}

// clone copies the state deeply enough for mutation.
func (a *appState) clone() *appState {
	c := *a
	c.images = map[string]string{}
	for k, v := range a.images {
		c.images[k] = v
	}
	c.sidecars = append([]string(nil), a.sidecars...)
	c.env = append([]envVar(nil), a.env...)
	c.config = append([]kv(nil), a.config...)
	c.dnsNames = append([]string(nil), a.dnsNames...)
	c.extraLabels = append([]kv(nil), a.extraLabels...)
	return &c
}

func (a *appState) labels() obj {
	l := obj{"app.kubernetes.io/name": a.name, "app.kubernetes.io/part-of": a.team, "tier": a.tier}
	for _, e := range a.extraLabels {
		l[e.k] = e.v
	}
	return l
}

func (a *appState) meta(name string) obj {
	return obj{"name": name, "namespace": a.namespace, "labels": a.labels()}
}

// objects are the application's manifests, in the order the repository lists them.
func (a *appState) objects() []obj {
	out := []obj{a.deployment(), a.service(), a.configMap()}
	if a.hpa {
		out = append(out, a.autoscaler())
	}
	if a.monitor {
		out = append(out, a.serviceMonitor())
	}
	if a.cert {
		out = append(out, a.certificate())
	}
	return out
}

func (a *appState) deployment() obj {
	sel := obj{"app.kubernetes.io/name": a.name}
	env := arr{}
	for _, e := range a.env {
		if e.secretKey != "" {
			env = append(env, obj{"name": e.name, "valueFrom": obj{"secretKeyRef": obj{"name": a.name + "-db", "key": e.secretKey}}})
		} else {
			env = append(env, obj{"name": e.name, "value": e.value})
		}
	}
	main := obj{
		"name":  a.name,
		"image": a.images[a.name],
		"ports": arr{
			obj{"name": "http", "containerPort": a.port},
			obj{"name": "metrics", "containerPort": int64(9090)},
		},
		"env":     env,
		"envFrom": arr{obj{"configMapRef": obj{"name": a.name + "-config"}}},
		"resources": obj{
			"requests": obj{"cpu": a.cpuRequest, "memory": a.memRequest},
			"limits":   obj{"memory": a.memLimit},
		},
		"readinessProbe": obj{"httpGet": obj{"path": "/readyz", "port": "http"}, "periodSeconds": int64(5)},
		"livenessProbe":  obj{"httpGet": obj{"path": "/healthz", "port": "http"}, "initialDelaySeconds": int64(10), "periodSeconds": int64(10)},
		"volumeMounts": arr{
			obj{"name": "config", "mountPath": "/etc/" + a.name, "readOnly": true},
			obj{"name": "tmp", "mountPath": "/tmp"},
		},
		"securityContext": obj{"allowPrivilegeEscalation": false, "readOnlyRootFilesystem": true, "capabilities": obj{"drop": arr{"ALL"}}},
	}
	containers := arr{main}
	for _, s := range a.sidecars {
		containers = append(containers, a.sidecar(s))
	}
	spec := obj{
		"serviceAccountName": a.name,
		"securityContext":    obj{"runAsNonRoot": true, "fsGroup": int64(2000)},
		"containers":         containers,
		"volumes": arr{
			obj{"name": "config", "configMap": obj{"name": a.name + "-config"}},
			obj{"name": "tmp", "emptyDir": obj{"medium": "Memory", "sizeLimit": "64Mi"}},
		},
		"topologySpreadConstraints": arr{obj{"maxSkew": int64(1), "topologyKey": "topology.kubernetes.io/zone",
			"whenUnsatisfiable": "ScheduleAnyway", "labelSelector": obj{"matchLabels": sel}}},
	}
	if a.initMigrate {
		spec["initContainers"] = arr{obj{"name": "migrate", "image": a.images[a.name],
			"command": arr{"/app/migrate", "--up"}, "envFrom": arr{obj{"configMapRef": obj{"name": a.name + "-config"}}}}}
	}
	d := obj{
		"apiVersion": "apps/v1", "kind": "Deployment", "metadata": a.meta(a.name),
		"spec": obj{
			"revisionHistoryLimit": int64(5),
			"selector":             obj{"matchLabels": sel},
			"strategy":             obj{"type": "RollingUpdate", "rollingUpdate": obj{"maxSurge": "25%", "maxUnavailable": int64(0)}},
			"template": obj{
				"metadata": obj{"labels": a.labels(), "annotations": obj{"prometheus.io/scrape": "true", "prometheus.io/port": "9090"}},
				"spec":     spec,
			},
		},
	}
	if a.replicas > 0 {
		d["spec"].(obj)["replicas"] = a.replicas
	}
	return d
}

func (a *appState) sidecar(name string) obj {
	switch name {
	case "envoy":
		return obj{"name": "envoy", "image": a.images["envoy"],
			"args":      arr{"-c", "/etc/envoy/envoy.yaml", "--service-cluster", a.name},
			"ports":     arr{obj{"name": "envoy-admin", "containerPort": int64(9901)}},
			"resources": obj{"requests": obj{"cpu": "50m", "memory": "64Mi"}, "limits": obj{"memory": "128Mi"}},
		}
	case "log-shipper":
		return obj{"name": "log-shipper", "image": a.images["log-shipper"],
			"env":          arr{obj{"name": "FLUENT_FORWARD_HOST", "value": "logs.observability"}},
			"volumeMounts": arr{obj{"name": "tmp", "mountPath": "/var/log/app"}},
			"resources":    obj{"requests": obj{"cpu": "20m", "memory": "32Mi"}},
		}
	default:
		return obj{"name": name, "image": a.images[name],
			"ports":     arr{obj{"name": "statsd", "containerPort": int64(9102)}},
			"resources": obj{"requests": obj{"cpu": "10m", "memory": "16Mi"}},
		}
	}
}

func (a *appState) service() obj {
	return obj{"apiVersion": "v1", "kind": "Service", "metadata": a.meta(a.name),
		"spec": obj{
			"selector": obj{"app.kubernetes.io/name": a.name},
			"ports": arr{
				obj{"name": "http", "port": int64(80), "targetPort": "http"},
				obj{"name": "metrics", "port": int64(9090), "targetPort": "metrics"},
			},
		}}
}

func (a *appState) configMap() obj {
	data := obj{}
	for _, e := range a.config {
		data[e.k] = e.v
	}
	return obj{"apiVersion": "v1", "kind": "ConfigMap", "metadata": a.meta(a.name + "-config"), "data": data}
}

func (a *appState) autoscaler() obj {
	metrics := arr{obj{"type": "Resource", "resource": obj{"name": "cpu", "target": obj{"type": "Utilization", "averageUtilization": a.cpuTarget}}}}
	if a.memoryTarget > 0 {
		metrics = append(metrics, obj{"type": "Resource", "resource": obj{"name": "memory", "target": obj{"type": "Utilization", "averageUtilization": a.memoryTarget}}})
	}
	return obj{"apiVersion": "autoscaling/v2", "kind": "HorizontalPodAutoscaler", "metadata": a.meta(a.name),
		"spec": obj{
			"scaleTargetRef": obj{"apiVersion": "apps/v1", "kind": "Deployment", "name": a.name},
			"minReplicas":    a.minReplicas, "maxReplicas": a.maxReplicas,
			"metrics":  metrics,
			"behavior": obj{"scaleDown": obj{"stabilizationWindowSeconds": int64(300)}},
		}}
}

func (a *appState) serviceMonitor() obj {
	return obj{"apiVersion": "monitoring.coreos.com/v1", "kind": "ServiceMonitor", "metadata": a.meta(a.name),
		"spec": obj{
			"selector":          obj{"matchLabels": obj{"app.kubernetes.io/name": a.name}},
			"namespaceSelector": obj{"matchNames": arr{a.namespace}},
			"endpoints": arr{obj{"port": "metrics", "path": "/metrics", "interval": "30s",
				"relabelings": arr{obj{"sourceLabels": arr{"__meta_kubernetes_pod_node_name"}, "targetLabel": "node"}}}},
		}}
}

func (a *appState) certificate() obj {
	dns := arr{}
	for _, d := range a.dnsNames {
		dns = append(dns, d)
	}
	return obj{"apiVersion": "cert-manager.io/v1", "kind": "Certificate", "metadata": a.meta(a.name + "-tls"),
		"spec": obj{
			"secretName":  a.name + "-tls",
			"dnsNames":    dns,
			"duration":    "2160h",
			"renewBefore": "360h",
			"issuerRef":   obj{"name": "letsencrypt", "kind": "ClusterIssuer", "group": "cert-manager.io"},
			"privateKey":  obj{"algorithm": "ECDSA", "size": int64(256), "rotationPolicy": "Always"},
		}}
}

func namespaceObject(team string) obj {
	return obj{"apiVersion": "v1", "kind": "Namespace", "metadata": obj{"name": team,
		"labels": obj{"team": team, "pod-security.kubernetes.io/enforce": "restricted"}}}
}

// change is one edit a pull request makes to an application.
type change func(r *rand.Rand, a *appState)

// changes, with their weights out of 1000: what pull requests do to applications.
var changes = []struct {
	weight int
	name   string
	f      change
}{
	{140, "image", func(r *rand.Rand, a *appState) {
		a.images[a.name] = fmt.Sprintf("registry.example.com/%s/%s:v2.%d.%d", a.team, a.name, r.IntN(10), r.IntN(10))
	}},
	{40, "sidecar-image", func(r *rand.Rand, a *appState) { a.images["envoy"] = sidecarImage("envoy", 1) }},
	{60, "config", func(r *rand.Rand, a *appState) {
		i := r.IntN(len(a.config))
		a.config[i].v = configValue(r, a.config[i].k, a.name) + "# changed\n"
	}},
	{30, "config-removed", func(r *rand.Rand, a *appState) {
		if len(a.config) > 1 {
			a.config = a.config[:len(a.config)-1]
		}
	}},
	{40, "env-removed", func(r *rand.Rand, a *appState) {
		if len(a.env) > 2 {
			a.env = append(a.env[:0:0], a.env[1:]...)
		}
	}},
	{30, "env-added", func(r *rand.Rand, a *appState) { a.env = append(a.env, envVar{name: "NEW_FEATURE", value: "enabled"}) }},
	{30, "replicas-pinned", func(r *rand.Rand, a *appState) { a.replicas = 4 }},
	{40, "resources", func(r *rand.Rand, a *appState) {
		a.memLimit = pickAtLeast(r, memSizes, a.memRequest)
		a.cpuRequest = pick(r, cpuSizes)
	}},
	{30, "labels", func(r *rand.Rand, a *appState) {
		a.extraLabels = append(a.extraLabels, kv{"cost-center", fmt.Sprint(1000 + r.IntN(9000))})
	}},
	{20, "sidecar-added", func(r *rand.Rand, a *appState) {
		for _, s := range sidecarSet {
			if _, ok := a.images[s]; !ok {
				a.sidecars = append(a.sidecars, s)
				a.images[s] = sidecarImage(s, 0)
				return
			}
		}
	}},
	{20, "hpa-limits", func(r *rand.Rand, a *appState) { a.maxReplicas += 5 }},
}

// mutate applies the changes a pull request makes, drawn by weight; the names of those
// made are returned, sorted.
func mutate(r *rand.Rand, a *appState, rate int) []string {
	var made []string
	for _, c := range changes {
		if r.IntN(1000) < c.weight*rate/100 {
			c.f(r, a)
			made = append(made, c.name)
		}
	}
	sort.Strings(made)
	return made
}

func fileName(parts ...string) string { return strings.Join(parts, "/") }
