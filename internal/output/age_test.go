package output

import (
	"testing"
	"time"
)

func TestAge(t *testing.T) {
	for d, want := range map[time.Duration]string{
		45 * time.Second:              "45s",
		5*time.Minute + 3*time.Second: "5m",
		2*time.Hour + 23*time.Minute:  "2h23m",
		3 * time.Hour:                 "3h",
		30 * time.Hour:                "30h",
		5 * 24 * time.Hour:            "5d",
		(2*365 + 40) * 24 * time.Hour: "2y40d",
		-time.Minute:                  "in the future",
	} {
		if got := age(now.Add(-d), now); got != want {
			t.Errorf("age(%v) = %q, want %q", d, got, want)
		}
	}
}
