package defaulting

import (
	"testing"

	"k8s.io/kubernetes/pkg/api/legacyscheme"
	_ "k8s.io/kubernetes/pkg/apis/apps/install"
	_ "k8s.io/kubernetes/pkg/apis/batch/install"
	_ "k8s.io/kubernetes/pkg/apis/core/install"
)

func TestProbe(t *testing.T) {
	t.Log(len(legacyscheme.Scheme.AllKnownTypes()))
}
