package defaults_test

import (
	"encoding/json"
	"fmt"

	"github.com/ssa-diff/ssa-diff/internal/defaults"
	"github.com/ssa-diff/ssa-diff/kube"
)

// A Deployment as field management leaves it after a create: Default fills
// in what the server stores.
func ExampleRelease_Default() {
	obj := map[string]any{
		"apiVersion": "apps/v1",
		"kind":       "Deployment",
		"metadata":   map[string]any{"name": "web"},
		"spec": map[string]any{
			"replicas": nil,
			"selector": map[string]any{"matchLabels": map[string]any{"app": "web"}},
			"template": map[string]any{
				"metadata": map[string]any{"labels": map[string]any{"app": "web"}},
				"spec": map[string]any{"containers": []any{map[string]any{
					"name":      "web",
					"image":     "nginx",
					"args":      nil,
					"ports":     []any{map[string]any{"containerPort": int64(80)}},
					"resources": map[string]any{"limits": map[string]any{"cpu": "0.5"}},
				}}},
			},
		},
	}
	if err := defaults.MustFor(kube.Default()).Default("apps/v1", "Deployment", obj); err != nil {
		fmt.Println(err)
		return
	}
	b, _ := json.MarshalIndent(obj["spec"], "", "  ")
	fmt.Println(string(b))
	// Output:
	// {
	//   "progressDeadlineSeconds": 600,
	//   "replicas": 1,
	//   "revisionHistoryLimit": 10,
	//   "selector": {
	//     "matchLabels": {
	//       "app": "web"
	//     }
	//   },
	//   "strategy": {
	//     "rollingUpdate": {
	//       "maxSurge": "25%",
	//       "maxUnavailable": "25%"
	//     },
	//     "type": "RollingUpdate"
	//   },
	//   "template": {
	//     "metadata": {
	//       "labels": {
	//         "app": "web"
	//       }
	//     },
	//     "spec": {
	//       "containers": [
	//         {
	//           "image": "nginx",
	//           "imagePullPolicy": "Always",
	//           "name": "web",
	//           "ports": [
	//             {
	//               "containerPort": 80,
	//               "protocol": "TCP"
	//             }
	//           ],
	//           "resources": {
	//             "limits": {
	//               "cpu": "500m"
	//             }
	//           },
	//           "terminationMessagePath": "/dev/termination-log",
	//           "terminationMessagePolicy": "File"
	//         }
	//       ],
	//       "dnsPolicy": "ClusterFirst",
	//       "restartPolicy": "Always",
	//       "schedulerName": "default-scheduler",
	//       "securityContext": {},
	//       "terminationGracePeriodSeconds": 30
	//     }
	//   }
	// }
}

func ExampleCanonicalQuantity() {
	for _, q := range []any{"0.5", "2048Mi", "1e3", float64(1000), "1.5Gi", int64(3)} {
		s, _ := defaults.CanonicalQuantity(q)
		fmt.Printf("%v → %s\n", q, s)
	}
	// Output:
	// 0.5 → 500m
	// 2048Mi → 2Gi
	// 1e3 → 1e3
	// 1000 → 1k
	// 1.5Gi → 1536Mi
	// 3 → 3
}
