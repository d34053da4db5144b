package validation_test

import "testing"

const ingressWeb = `apiVersion: networking.k8s.io/v1
kind: Ingress
metadata: {name: web, namespace: shop, uid: 2c0e5c1a-0000-4000-8000-000000000001, resourceVersion: "7"}
spec:
  ingressClassName: nginx
  tls:
  - hosts: [www.example.com]
    secretName: web-tls
  rules:
  - host: www.example.com
    http:
      paths:
      - path: /
        pathType: Prefix
        backend:
          service: {name: web, port: {number: 80}}
`

const ingressClassNginx = `apiVersion: networking.k8s.io/v1
kind: IngressClass
metadata: {name: oracle-nginx, uid: 2c0e5c1a-0000-4000-8000-000000000002, resourceVersion: "7"}
spec:
  controller: k8s.io/ingress-nginx
  parameters: {apiGroup: k8s.example.com, kind: IngressParameters, name: external-lb, scope: Namespace, namespace: ingress}
`

const networkPolicyAPI = `apiVersion: networking.k8s.io/v1
kind: NetworkPolicy
metadata: {name: api, namespace: shop, uid: 2c0e5c1a-0000-4000-8000-000000000003, resourceVersion: "7"}
spec:
  podSelector: {matchLabels: {app: api}}
  policyTypes: [Ingress, Egress]
  ingress:
  - from:
    - podSelector: {matchLabels: {app: web}}
    - ipBlock: {cidr: 172.17.0.0/16, except: [172.17.1.0/24]}
    ports:
    - {protocol: TCP, port: 8080}
  egress:
  - to:
    - namespaceSelector: {matchLabels: {kubernetes.io/metadata.name: db}}
    ports:
    - {protocol: TCP, port: 5432, endPort: 5440}
`

const ipAddressDNS = `apiVersion: networking.k8s.io/v1
kind: IPAddress
metadata: {name: 192.0.2.10, uid: 2c0e5c1a-0000-4000-8000-000000000004, resourceVersion: "7"}
spec:
  parentRef: {group: "", resource: services, namespace: kube-system, name: oracle-dns}
`

const serviceCIDRExtra = `apiVersion: networking.k8s.io/v1
kind: ServiceCIDR
metadata: {name: oracle-extra, uid: 2c0e5c1a-0000-4000-8000-000000000005, resourceVersion: "7"}
spec:
  cidrs: [10.200.0.0/16]
`

// rules.md valid.builtin, valid.metadata: an Ingress's rules, paths and path types, backends, TLS and class.
func ingressCases(t *testing.T) []workloadCase {
	web := ingressWeb
	return []workloadCase{
		{name: "valid create", new: web},
		{name: "V1 neither rules nor a default backend", new: edit(t, web, "  rules:\n  - host: www.example.com\n    http:\n      paths:\n      - path: /\n        pathType: Prefix\n        backend:\n          service: {name: web, port: {number: 80}}\n", "")},
		{name: "V1 host is an IP address", new: edit(t, web, "- host: www.example.com", "- host: 10.1.2.3")},
		{name: "V1 wildcard host beyond the first label", new: edit(t, web, "- host: www.example.com", "- host: www.*.example.com")},
		{name: "V1 path type missing", new: edit(t, web, "        pathType: Prefix\n", "")},
		{name: "V1 path type unknown", new: edit(t, web, "pathType: Prefix", "pathType: Regex")},
		{name: "V1 Prefix path not absolute", new: edit(t, web, "- path: /\n", "- path: api\n")},
		{name: "V1 Exact path with a double slash and a dot ending", new: edit(t, edit(t, web, "- path: /\n", "- path: /a//b/.\n"), "pathType: Prefix", "pathType: Exact")},
		{name: "V1 Prefix path with encoded slash", new: edit(t, web, "- path: /\n", "- path: /a%2Fb/../c\n")},
		{name: "V1 ImplementationSpecific path not absolute", new: edit(t, edit(t, web, "- path: /\n", "- path: 'api(/|$)(.*)'\n"), "pathType: Prefix", "pathType: ImplementationSpecific")},
		{name: "V1 backend with both a resource and a service", new: edit(t, web, "service: {name: web, port: {number: 80}}", "service: {name: web, port: {number: 80}}\n          resource: {kind: Bucket, name: b}")},
		{name: "V1 backend port with both name and number", new: edit(t, web, "port: {number: 80}", "port: {number: 80, name: http}")},
		{name: "V1 backend port missing", new: edit(t, web, "port: {number: 80}", "port: {}")},
		{name: "V1 backend port number out of range", new: edit(t, web, "port: {number: 80}", "port: {number: 70000}")},
		{name: "V1 backend service name not a DNS label", new: edit(t, web, "service: {name: web,", "service: {name: web.shop,")},
		{name: "V1 backend service name starting with a digit", new: edit(t, web, "service: {name: web,", "service: {name: 2048-game,")},
		{name: "V1 resource backend without kind", new: edit(t, web, "service: {name: web, port: {number: 80}}", "resource: {apiGroup: Bad_Group, name: a/b}")},
		{name: "V1 TLS host and secret name invalid", new: edit(t, edit(t, web, "hosts: [www.example.com]", "hosts: ['*.Example.com']"), "secretName: web-tls", "secretName: Web_TLS")},
		{name: "V1 class name invalid", new: edit(t, web, "ingressClassName: nginx", "ingressClassName: Nginx")},
		{name: "V1 class annotation disagrees with ingressClassName", new: edit(t, web, "uid:", "annotations: {kubernetes.io/ingress.class: traefik}, uid:")},
		{name: "V6 name not a DNS subdomain", new: edit(t, web, "name: web,", "name: Web,")},
		{name: "V1 update with an invalid path", old: web, new: edit(t, web, "- path: /\n", "- path: relative\n")},
		{name: "V1 class annotation may disagree on update", old: web, new: edit(t, web, "uid:", "annotations: {kubernetes.io/ingress.class: traefik}, uid:")},
		{name: "status: load balancer address and host name", subresource: "status", old: web,
			new: web + "status:\n  loadBalancer:\n    ingress:\n    - {ip: 300.1.2.3}\n    - {hostname: 10.0.0.1}\n    - {hostname: LB.example.com}\n"},
		{name: "status: valid load balancer", subresource: "status", old: web,
			new: web + "status:\n  loadBalancer:\n    ingress:\n    - {ip: 203.0.113.7, ports: [{port: 443, protocol: TCP}]}\n"},
	}
}

// rules.md valid.builtin, valid.update: an IngressClass's controller (immutable) and parameters.
func ingressClassCases(t *testing.T) []workloadCase {
	ic := ingressClassNginx
	return []workloadCase{
		{name: "valid create", new: ic},
		{name: "V1 controller not domain-prefixed", new: edit(t, ic, "controller: k8s.io/ingress-nginx", "controller: ingress-nginx")},
		{name: "V1 parameters without kind and name", new: edit(t, ic, "kind: IngressParameters, name: external-lb,", "")},
		{name: "V1 parameters without scope", new: edit(t, ic, " scope: Namespace, namespace: ingress", " namespace: ingress")},
		{name: "V1 parameters scope unknown", new: edit(t, ic, "scope: Namespace", "scope: Global")},
		{name: "V1 Namespace scope without namespace", new: edit(t, ic, ", namespace: ingress", "")},
		{name: "V1 Cluster scope with a namespace", new: edit(t, ic, "scope: Namespace", "scope: Cluster")},
		{name: "V1 parameters names with slashes", new: edit(t, ic, "kind: IngressParameters, name: external-lb", "kind: a/b, name: '%'")},
		{name: "V2 controller is immutable", old: ic, new: edit(t, ic, "k8s.io/ingress-nginx", "example.com/other")},
		{name: "V2 parameters lose kind on update", old: ic, new: edit(t, ic, "kind: IngressParameters, ", "")},
	}
}

// rules.md valid.builtin: a NetworkPolicy's ports, end ports, peers, IP blocks and policy types.
func networkPolicyCases(t *testing.T) []workloadCase {
	np := networkPolicyAPI
	return []workloadCase{
		{name: "valid create", new: np},
		{name: "V1 unknown protocol", new: edit(t, np, "{protocol: TCP, port: 8080}", "{protocol: ICMP, port: 8080}")},
		{name: "V1 port out of range", new: edit(t, np, "port: 8080", "port: 0")},
		{name: "V1 named port invalid", new: edit(t, np, "port: 8080", "port: HTTP_PORT")},
		{name: "V1 end port below port", new: edit(t, np, "endPort: 5440", "endPort: 5000")},
		{name: "V1 end port with a named port", new: edit(t, np, "port: 5432, endPort: 5440", "port: postgres, endPort: 5440")},
		{name: "V1 end port without port", new: edit(t, np, "{protocol: TCP, port: 5432, endPort: 5440}", "{protocol: TCP, endPort: 5440}")},
		{name: "V1 peer without selector or block", new: edit(t, np, "- podSelector: {matchLabels: {app: web}}", "- {}")},
		{name: "V1 IP block beside a selector", new: edit(t, np, "- ipBlock: {cidr: 172.17.0.0/16, except: [172.17.1.0/24]}", "- ipBlock: {cidr: 10.0.0.0/8}\n      podSelector: {}")},
		{name: "V1 IP block without CIDR", new: edit(t, np, "cidr: 172.17.0.0/16, except: [172.17.1.0/24]", "cidr: ''")},
		{name: "V1 CIDR invalid and except outside it", new: edit(t, np, "cidr: 172.17.0.0/16, except: [172.17.1.0/24]", "cidr: 172.17.0.0/33, except: [10.0.0.0/8]")},
		{name: "V1 except not a strict subset", new: edit(t, np, "except: [172.17.1.0/24]", "except: [172.17.0.0/16, 10.1.0.0/16]")},
		{name: "V1 CIDR with leading zeros", new: edit(t, np, "cidr: 172.17.0.0/16", "cidr: 172.017.0.0/16")},
		{name: "V1 policy type unknown", new: edit(t, np, "policyTypes: [Ingress, Egress]", "policyTypes: [Ingress, All]")},
		{name: "V1 more than two policy types", new: edit(t, np, "policyTypes: [Ingress, Egress]", "policyTypes: [Ingress, Egress, Ingress]")},
		{name: "V1 selector operator invalid", new: edit(t, np, "podSelector: {matchLabels: {app: api}}", "podSelector: {matchExpressions: [{key: app, operator: Equals, values: [api]}]}")},
	}
}

// rules.md valid.builtin, valid.update, valid.metadata: an IPAddress is named by its address and keeps its parent.
func ipAddressCases(t *testing.T) []workloadCase {
	ip := ipAddressDNS
	return []workloadCase{
		{name: "valid create", new: ip},
		{name: "V6 name not an IP address", new: edit(t, ip, "name: 192.0.2.10", "name: dns-ip")},
		{name: "V6 name not canonical", new: edit(t, ip, "name: 192.0.2.10", "name: 2001:DB8::a")},
		{name: "V1 parent reference missing", new: edit(t, ip, "  parentRef: {group: \"\", resource: services, namespace: kube-system, name: oracle-dns}\n", "  parentRef: null\n")},
		{name: "V1 parent reference without resource and name", new: edit(t, ip, "resource: services, namespace: kube-system, name: oracle-dns", "namespace: a/b")},
		{name: "V1 parent group invalid", new: edit(t, ip, `group: ""`, "group: Gateway_API")},
		{name: "V2 parent reference is immutable", old: ip, new: edit(t, ip, "name: oracle-dns", "name: other-dns")},
		{name: "V2 parent reference dropped", old: ip, new: edit(t, ip, "  parentRef: {group: \"\", resource: services, namespace: kube-system, name: oracle-dns}\n", "  parentRef: null\n")},
	}
}

// rules.md valid.builtin, valid.update: a ServiceCIDR holds one CIDR of each family; an update may only add the
// second family.
func serviceCIDRCases(t *testing.T) []workloadCase {
	sc := serviceCIDRExtra
	return []workloadCase{
		{name: "valid create", new: sc},
		{name: "V1 no CIDR", new: edit(t, sc, "cidrs: [10.200.0.0/16]", "cidrs: []")},
		{name: "V1 three CIDRs", new: edit(t, sc, "cidrs: [10.200.0.0/16]", "cidrs: [10.200.0.0/16, 'fd00::/108', 10.201.0.0/16]")},
		{name: "V1 two of one family", new: edit(t, sc, "cidrs: [10.200.0.0/16]", "cidrs: [10.200.0.0/16, 10.201.0.0/16]")},
		{name: "V1 CIDR invalid", new: edit(t, sc, "cidrs: [10.200.0.0/16]", "cidrs: [10.200.0.1/16]")},
		{name: "V2 CIDR is immutable", old: sc, new: edit(t, sc, "10.200.0.0/16", "10.201.0.0/16")},
		{name: "V2 adding the other family", old: sc, new: edit(t, sc, "cidrs: [10.200.0.0/16]", "cidrs: [10.200.0.0/16, 'fd00:10:200::/108']")},
		{name: "V2 adding another of the same family", old: sc, new: edit(t, sc, "cidrs: [10.200.0.0/16]", "cidrs: [10.200.0.0/16, 10.202.0.0/16]")},
		{name: "V2 removing the CIDR", old: sc, new: edit(t, sc, "  cidrs: [10.200.0.0/16]\n", "")},
	}
}
