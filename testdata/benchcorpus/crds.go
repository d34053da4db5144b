package benchcorpus

// serviceMonitorCRD is a trimmed CustomResourceDefinition of prometheus-operator's
// ServiceMonitor: lists without x-kubernetes-list-type are atomic, as in the real one.
const serviceMonitorCRD = `apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata:
  name: servicemonitors.monitoring.coreos.com
  annotations:
    controller-gen.kubebuilder.io/version: v0.16.5
    operator.prometheus.io/version: 0.79.2
spec:
  group: monitoring.coreos.com
  scope: Namespaced
  names:
    categories:
    - prometheus-operator
    kind: ServiceMonitor
    listKind: ServiceMonitorList
    plural: servicemonitors
    shortNames:
    - smon
    singular: servicemonitor
  versions:
  - name: v1
    served: true
    storage: true
    schema:
      openAPIV3Schema:
        type: object
        required:
        - spec
        properties:
          apiVersion:
            type: string
          kind:
            type: string
          metadata:
            type: object
          spec:
            type: object
            required:
            - selector
            properties:
              jobLabel:
                type: string
              endpoints:
                type: array
                items:
                  type: object
                  properties:
                    port:
                      type: string
                    path:
                      type: string
                    scheme:
                      type: string
                    interval:
                      type: string
                    scrapeTimeout:
                      type: string
                    honorLabels:
                      type: boolean
                    relabelings:
                      type: array
                      items:
                        type: object
                        properties:
                          action:
                            type: string
                            default: replace
                          sourceLabels:
                            type: array
                            items:
                              type: string
                          targetLabel:
                            type: string
                          regex:
                            type: string
                          replacement:
                            type: string
              namespaceSelector:
                type: object
                properties:
                  any:
                    type: boolean
                  matchNames:
                    type: array
                    items:
                      type: string
              selector:
                type: object
                properties:
                  matchLabels:
                    type: object
                    additionalProperties:
                      type: string
                  matchExpressions:
                    type: array
                    items:
                      type: object
                      required:
                      - key
                      - operator
                      properties:
                        key:
                          type: string
                        operator:
                          type: string
                        values:
                          type: array
                          items:
                            type: string
                x-kubernetes-map-type: atomic
              targetLabels:
                type: array
                items:
                  type: string
`

// certificateCRD is a trimmed CustomResourceDefinition of cert-manager's Certificate, with
// its /status subresource and its conditions list-map.
const certificateCRD = `apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata:
  name: certificates.cert-manager.io
  labels:
    app.kubernetes.io/name: cert-manager
    app.kubernetes.io/version: v1.16.2
spec:
  group: cert-manager.io
  scope: Namespaced
  names:
    categories:
    - cert-manager
    kind: Certificate
    listKind: CertificateList
    plural: certificates
    shortNames:
    - cert
    - certs
    singular: certificate
  versions:
  - name: v1
    served: true
    storage: true
    subresources:
      status: {}
    schema:
      openAPIV3Schema:
        type: object
        properties:
          apiVersion:
            type: string
          kind:
            type: string
          metadata:
            type: object
          spec:
            type: object
            required:
            - issuerRef
            - secretName
            properties:
              commonName:
                type: string
              dnsNames:
                type: array
                items:
                  type: string
              duration:
                type: string
              renewBefore:
                type: string
              secretName:
                type: string
              issuerRef:
                type: object
                required:
                - name
                properties:
                  group:
                    type: string
                  kind:
                    type: string
                  name:
                    type: string
              privateKey:
                type: object
                properties:
                  algorithm:
                    type: string
                    enum:
                    - RSA
                    - ECDSA
                    - Ed25519
                  rotationPolicy:
                    type: string
                  size:
                    type: integer
              usages:
                type: array
                items:
                  type: string
          status:
            type: object
            properties:
              conditions:
                type: array
                items:
                  type: object
                  required:
                  - status
                  - type
                  properties:
                    lastTransitionTime:
                      type: string
                      format: date-time
                    message:
                      type: string
                    observedGeneration:
                      type: integer
                      format: int64
                    reason:
                      type: string
                    status:
                      type: string
                    type:
                      type: string
                x-kubernetes-list-map-keys:
                - type
                x-kubernetes-list-type: map
              notAfter:
                type: string
                format: date-time
              notBefore:
                type: string
                format: date-time
              renewalTime:
                type: string
                format: date-time
              revision:
                type: integer
`
