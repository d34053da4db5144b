package helmrelease

import (
	"bytes"
	"compress/gzip"
	"encoding/base64"
	"reflect"
	"testing"
)

// encode writes a record's data as Helm does: JSON, gzip at best compression, base64.
func encode(t testing.TB, json string) string {
	t.Helper()
	var b bytes.Buffer
	w, err := gzip.NewWriterLevel(&b, gzip.BestCompression)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := w.Write([]byte(json)); err != nil {
		t.Fatal(err)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	return base64.StdEncoding.EncodeToString(b.Bytes())
}

// FuzzDecode holds Decode to never panicking, and to reading back what Helm's encoding
// of a release's JSON wrote, compressed or not.
func FuzzDecode(f *testing.F) {
	f.Add(`{"name":"web","namespace":"shop","version":2,"apply_method":"ssa","manifest":"---\n","info":{"status":"deployed","last_deployed":"2026-12-01T00:00:00Z"}}`)
	f.Add(`{"name":"web","version":1,"info":{"first_deployed":""}}`)
	f.Add(`{"version":"1"}`)
	f.Add(`not json`)
	f.Fuzz(func(t *testing.T, json string) {
		for _, data := range []string{encode(t, json), base64.StdEncoding.EncodeToString([]byte(json)), json} {
			plain, err1 := Decode(data)
			if data == json {
				continue // arbitrary text: no panic is all
			}
			again, err2 := Decode(encode(t, json))
			if (err1 == nil) != (err2 == nil) {
				t.Fatalf("compressed and plain disagree: %v, %v", err1, err2)
			}
			if err1 == nil && !reflect.DeepEqual(plain, again) {
				t.Fatalf("compressed and plain disagree: %+v, %+v", plain, again)
			}
		}
	})
}
