package helmrelease

import (
	"encoding/base64"
	"reflect"
	"strings"
	"testing"
)

func TestDecodeRefusesWhatHelmRefuses(t *testing.T) {
	for name, c := range map[string]struct{ data, err string }{
		"bad base64":         {"%%%", "base64: illegal base64 data at input byte 0"},
		"truncated gzip":     {base64.StdEncoding.EncodeToString([]byte{0x1f, 0x8b, 0x08, 0}), "gzip: unexpected EOF"},
		"revision as string": {encodeString(`{"version":"2"}`), "release JSON: json: cannot unmarshal string into Go struct field record.version of type int"},
		"time not RFC 3339":  {encodeString(`{"info":{"last_deployed":"yesterday"}}`), "release JSON: info.last_deployed: parsing time"},
	} {
		_, err := Decode(c.data)
		if err == nil || !strings.HasPrefix(err.Error(), c.err) {
			t.Errorf("%s: %v, want %q", name, err, c.err)
		}
	}
}

func encodeString(json string) string { return base64.StdEncoding.EncodeToString([]byte(json)) }

func TestDecodeReadsHelm3AndHelm4Records(t *testing.T) {
	for name, c := range map[string]struct{ json, method string }{
		"helm 4": {`{"name":"web","namespace":"shop","version":3,"apply_method":"ssa","info":{"status":"failed","first_deployed":"2026-12-01T00:00:00Z","last_deployed":"","rollback_revision":1},"chart":{"metadata":{"name":"web","version":"0.1.0"}},"manifest":"---\nkind: ConfigMap\n"}`, "ssa"},
		"helm 3": {`{"name":"web","namespace":"shop","version":3,"info":{"status":"failed","rollback_revision":1},"chart":{"metadata":{"name":"web","version":"0.1.0"}},"manifest":"---\nkind: ConfigMap\n"}`, ""},
	} {
		for _, data := range []string{encodeString(c.json), encode(t, c.json)} {
			r, err := Decode(data)
			if err != nil {
				t.Fatalf("%s: %v", name, err)
			}
			want := Release{Name: "web", Namespace: "shop", Version: 3, Status: StatusFailed, ApplyMethod: c.method,
				Manifest: "---\nkind: ConfigMap\n", Chart: "web", ChartVersion: "0.1.0", RollbackRevision: 1}
			if !reflect.DeepEqual(*r, want) {
				t.Errorf("%s: %+v", name, *r)
			}
		}
	}
}
