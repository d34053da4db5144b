package validation_test

// The stored objects of the admissionregistration, flowcontrol, certificates,
// storagemigration and apiregistration scenarios (groups_cluster_config_test.go): what operators and
// add-ons install.

const webhookPolicy = `apiVersion: admissionregistration.k8s.io/v1
kind: ValidatingWebhookConfiguration
metadata: {name: oracle-policy-webhook, uid: 2c0e5c1a-0000-4000-8000-000000000101, resourceVersion: "7"}
webhooks:
- name: validate.policy.example.com
  admissionReviewVersions: [v1]
  sideEffects: None
  failurePolicy: Fail
  timeoutSeconds: 5
  clientConfig:
    service: {name: policy-webhook, namespace: policy-system, path: /validate, port: 443}
  rules:
  - apiGroups: [apps]
    apiVersions: [v1]
    operations: [CREATE, UPDATE]
    resources: [deployments]
    scope: Namespaced
  matchConditions:
  - name: not-system
    expression: '!request.userInfo.username.startsWith("system:")'
`

const webhookInjector = `apiVersion: admissionregistration.k8s.io/v1
kind: MutatingWebhookConfiguration
metadata: {name: oracle-sidecar-injector, uid: 2c0e5c1a-0000-4000-8000-000000000102, resourceVersion: "7"}
webhooks:
- name: inject.sidecar.example.com
  admissionReviewVersions: [v1, v1beta1]
  sideEffects: NoneOnDryRun
  reinvocationPolicy: IfNeeded
  clientConfig:
    url: https://injector.example.com:8443/inject
  rules:
  - apiGroups: [""]
    apiVersions: [v1]
    operations: [CREATE]
    resources: [pods]
  namespaceSelector:
    matchExpressions:
    - {key: sidecar-injection, operator: In, values: [enabled]}
`

const policyReplicaLimit = `apiVersion: admissionregistration.k8s.io/v1
kind: ValidatingAdmissionPolicy
metadata: {name: oracle-replica-limit, uid: 2c0e5c1a-0000-4000-8000-000000000103, resourceVersion: "7"}
spec:
  failurePolicy: Fail
  matchConstraints:
    resourceRules:
    - apiGroups: [apps]
      apiVersions: [v1]
      operations: [CREATE, UPDATE]
      resources: [deployments]
  validations:
  - expression: object.spec.replicas <= 5
    message: too many replicas
    reason: Invalid
`

const policyBindingTest = `apiVersion: admissionregistration.k8s.io/v1
kind: ValidatingAdmissionPolicyBinding
metadata: {name: oracle-replica-limit-test, uid: 2c0e5c1a-0000-4000-8000-000000000104, resourceVersion: "7"}
spec:
  policyName: oracle-replica-limit
  validationActions: [Deny, Audit]
  matchResources:
    namespaceSelector:
      matchLabels: {environment: test}
`

const mutatingPolicyLabels = `apiVersion: admissionregistration.k8s.io/v1
kind: MutatingAdmissionPolicy
metadata: {name: oracle-label-pods, uid: 2c0e5c1a-0000-4000-8000-000000000105, resourceVersion: "7"}
spec:
  reinvocationPolicy: Never
  failurePolicy: Fail
  matchConstraints:
    resourceRules:
    - apiGroups: [""]
      apiVersions: [v1]
      operations: [CREATE]
      resources: [pods]
  mutations:
  - patchType: ApplyConfiguration
    applyConfiguration:
      expression: 'Object{metadata: Object.metadata{labels: {"mutated": "true"}}}'
`

const mutatingBindingLabels = `apiVersion: admissionregistration.k8s.io/v1
kind: MutatingAdmissionPolicyBinding
metadata: {name: oracle-label-pods-binding, uid: 2c0e5c1a-0000-4000-8000-000000000106, resourceVersion: "7"}
spec:
  policyName: oracle-label-pods
  matchResources:
    namespaceSelector:
      matchLabels: {environment: test}
`

const flowSchemaControllers = `apiVersion: flowcontrol.apiserver.k8s.io/v1
kind: FlowSchema
metadata: {name: oracle-controllers, uid: 2c0e5c1a-0000-4000-8000-000000000107, resourceVersion: "7"}
spec:
  priorityLevelConfiguration: {name: workload-high}
  matchingPrecedence: 800
  distinguisherMethod: {type: ByNamespace}
  rules:
  - subjects:
    - kind: ServiceAccount
      serviceAccount: {name: controller, namespace: kube-system}
    resourceRules:
    - verbs: [get, list]
      apiGroups: ["*"]
      resources: ["*"]
      namespaces: ["*"]
`

const priorityLevelBatch = `apiVersion: flowcontrol.apiserver.k8s.io/v1
kind: PriorityLevelConfiguration
metadata: {name: oracle-batch, uid: 2c0e5c1a-0000-4000-8000-000000000108, resourceVersion: "7"}
spec:
  type: Limited
  limited:
    nominalConcurrencyShares: 10
    lendablePercent: 50
    limitResponse:
      type: Queue
      queuing: {queues: 64, handSize: 6, queueLengthLimit: 50}
`

const csrJane = `apiVersion: certificates.k8s.io/v1
kind: CertificateSigningRequest
metadata: {name: oracle-jane, uid: 2c0e5c1a-0000-4000-8000-000000000109, resourceVersion: "7"}
spec:
  request: LS0tLS1CRUdJTiBDRVJUSUZJQ0FURSBSRVFVRVNULS0tLS0KTUlIWE1IOENBUUF3SFRFTk1Bc0dBMVVFQXd3RWFtRnVaVEVNTUFvR0ExVUVDZ3dEWkdWMk1Ga3dFd1lIS29aSQp6ajBDQVFZSUtvWkl6ajBEQVFjRFFnQUVYWW9SZXZFZzY5NnpFaWI2cHBLeFVyZlZucithdFNRNXlRNC9hNTR6CllFSytBdEluLzJGVWhpMHZkamtNamprREZuajRpN002eVFkVVVQVXJpZFEyR2FBQU1Bb0dDQ3FHU000OUJBTUMKQTBnQU1FVUNJQnliYURtZHA2OEJ5blY2TWNjellnRGEwWHZacGpYQ0t2S25NVERnN08xUkFpRUF5N1IwKzhXbgpWMlhONE1wZ0hkYkRmcHlob01ITFJhM1hDMXozTE5aVE9ZQT0KLS0tLS1FTkQgQ0VSVElGSUNBVEUgUkVRVUVTVC0tLS0tCg==
  signerName: kubernetes.io/kube-apiserver-client
  usages: [client auth, digital signature]
  expirationSeconds: 86400
`

const trustBundleOracle = `apiVersion: certificates.k8s.io/v1
kind: ClusterTrustBundle
metadata: {name: oracle-bundle, uid: 2c0e5c1a-0000-4000-8000-000000000110, resourceVersion: "7"}
spec:
  trustBundle: |
    -----BEGIN CERTIFICATE-----
    MIIBfjCCASOgAwIBAgIUMVsGl+nXOI/HOT0CkaHgCsgIlxswCgYIKoZIzj0EAwIw
    FDESMBAGA1UEAwwJb3JhY2xlLWNhMB4XDTI2MTIwMzA5MzYxMFoXDTM2MTEzMDA5
    MzYxMFowFDESMBAGA1UEAwwJb3JhY2xlLWNhMFkwEwYHKoZIzj0CAQYIKoZIzj0D
    AQcDQgAEXYoRevEg696zEib6ppKxUrfVnr+atSQ5yQ4/a54zYEK+AtIn/2FUhi0v
    djkMjjkDFnj4i7M6yQdUUPUridQ2GaNTMFEwHQYDVR0OBBYEFLx6nNBdhl8rmCSK
    ZBIPttapsIXWMB8GA1UdIwQYMBaAFLx6nNBdhl8rmCSKZBIPttapsIXWMA8GA1Ud
    EwEB/wQFMAMBAf8wCgYIKoZIzj0EAwIDSQAwRgIhAJ+eqtJ73xG1F34myTxhw4qq
    uOTw+DZFc8gio/BCXRQqAiEAzY/MkDHs10Kn/vG8zyWYYJHyGmZ0c9g4PIGZcPtb
    lmE=
    -----END CERTIFICATE-----
`

const migrationSecrets = `apiVersion: storagemigration.k8s.io/v1
kind: StorageVersionMigration
metadata: {name: oracle-secrets, uid: 2c0e5c1a-0000-4000-8000-000000000111, resourceVersion: "7"}
spec:
  resource: {group: "", resource: secrets}
`

const apiServiceMetrics = `apiVersion: apiregistration.k8s.io/v1
kind: APIService
metadata: {name: v1beta1.oracle.example.com, uid: 2c0e5c1a-0000-4000-8000-000000000112, resourceVersion: "7"}
spec:
  group: oracle.example.com
  version: v1beta1
  groupPriorityMinimum: 100
  versionPriority: 100
  insecureSkipTLSVerify: true
  service: {name: oracle-api, namespace: oracle, port: 443}
`
