package helmrelease

import (
	"bytes"
	"compress/gzip"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"time"
)

// Apply methods a Helm 4 record names (apply_method); a Helm 3 record names none.
const (
	ApplyMethodServerSide = "ssa"
	ApplyMethodClientSide = "csa"
)

// Statuses of a release revision (info.status and the status label).
const (
	StatusDeployed        = "deployed"
	StatusFailed          = "failed"
	StatusSuperseded      = "superseded"
	StatusUninstalled     = "uninstalled"
	StatusPendingInstall  = "pending-install"
	StatusPendingUpgrade  = "pending-upgrade"
	StatusPendingRollback = "pending-rollback"
)

// Release is what a record holds that the next command reads.
type Release struct {
	Name      string
	Namespace string
	// Version is the revision, 1 for the install.
	Version int
	// Status is info.status as the record's JSON says it.
	Status      string
	Description string
	// ApplyMethod is apply_method: "ssa", "csa", or "" (a Helm 3 record).
	ApplyMethod string
	// Manifest is the rendered chart objects (hooks and crds/ aside), as YAML documents.
	Manifest string
	// Chart and ChartVersion are the chart's metadata name and version.
	Chart, ChartVersion string
	// RollbackRevision is the revision a rollback went back to.
	RollbackRevision int
	// Config is the values the user gave (-f, --set …), which an upgrade given none
	// reuses.
	Config map[string]any
}

// maxDecoded bounds the JSON a record decompresses to: Helm's own records stay under the
// 1 MiB a Secret holds, and a gzip bomb must not exhaust memory.
const maxDecoded = 64 << 20

// gzipMagic starts gzip data (ID1, ID2, deflate), as Helm tests it.
var gzipMagic = []byte{0x1f, 0x8b, 0x08}

// ErrTooLarge is returned for a record that decompresses beyond 64 MiB.
var ErrTooLarge = errors.New("the release decompresses to more than 64 MiB")

// Decode reads the data of one record — the value of the key "release" as Helm wrote it
// (a ConfigMap's value, or a Secret's value once its own base64 is undone): standard
// base64 of the JSON, gzip-compressed unless the bytes do not start with gzip's magic
// number. It refuses what Helm refuses: bad base64, bad gzip, JSON that is not a release
// (a revision that is not an integer, a time that is not RFC 3339).
func Decode(data string) (*Release, error) {
	raw, err := base64.StdEncoding.DecodeString(data)
	if err != nil {
		return nil, fmt.Errorf("base64: %w", err)
	}
	if len(raw) > 3 && bytes.Equal(raw[:3], gzipMagic) {
		zr, err := gzip.NewReader(bytes.NewReader(raw))
		if err != nil {
			return nil, fmt.Errorf("gzip: %w", err)
		}
		raw, err = io.ReadAll(io.LimitReader(zr, maxDecoded+1))
		if err != nil {
			return nil, fmt.Errorf("gzip: %w", err)
		}
		if len(raw) > maxDecoded {
			return nil, ErrTooLarge
		}
	}
	var doc record
	if err := json.Unmarshal(raw, &doc); err != nil {
		return nil, fmt.Errorf("release JSON: %w", err)
	}
	rel := &Release{
		Name: doc.Name, Namespace: doc.Namespace, Version: doc.Version,
		ApplyMethod: doc.ApplyMethod, Manifest: doc.Manifest, Config: doc.Config,
	}
	if doc.Info != nil {
		if err := doc.Info.check(); err != nil {
			return nil, fmt.Errorf("release JSON: %w", err)
		}
		rel.Status, rel.Description, rel.RollbackRevision = doc.Info.Status, doc.Info.Description, doc.Info.RollbackRevision
	}
	if doc.Chart != nil && doc.Chart.Metadata != nil {
		rel.Chart, rel.ChartVersion = doc.Chart.Metadata.Name, doc.Chart.Metadata.Version
	}
	return rel, nil
}

// record is the part of Helm's release JSON read here, typed as Helm types it, so that
// what Helm cannot decode is refused here too.
type record struct {
	Name        string         `json:"name"`
	Namespace   string         `json:"namespace"`
	Version     int            `json:"version"`
	ApplyMethod string         `json:"apply_method"`
	Manifest    string         `json:"manifest"`
	Config      map[string]any `json:"config"`
	Info        *info          `json:"info"`
	Chart       *struct {
		Metadata *struct {
			Name    string `json:"name"`
			Version string `json:"version"`
		} `json:"metadata"`
	} `json:"chart"`
}

type info struct {
	// Times: Helm reads "" as none, anything else as an RFC 3339 time.
	FirstDeployed    json.RawMessage `json:"first_deployed"`
	LastDeployed     json.RawMessage `json:"last_deployed"`
	Deleted          json.RawMessage `json:"deleted"`
	Description      string          `json:"description"`
	Status           string          `json:"status"`
	RollbackRevision int             `json:"rollback_revision"`
	Notes            string          `json:"notes"`
}

func (i *info) check() error {
	for _, f := range []struct {
		name string
		raw  json.RawMessage
	}{{"first_deployed", i.FirstDeployed}, {"last_deployed", i.LastDeployed}, {"deleted", i.Deleted}} {
		name, raw := f.name, f.raw
		if len(raw) == 0 || string(raw) == "null" || string(raw) == `""` {
			continue
		}
		var t time.Time
		if err := json.Unmarshal(raw, &t); err != nil {
			return fmt.Errorf("info.%s: %w", name, err)
		}
	}
	return nil
}
