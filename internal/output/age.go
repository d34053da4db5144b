package output

import (
	"time"

	"k8s.io/apimachinery/pkg/util/duration"
)

// Ago says how long before now t was as kubectl's AGE column prints a duration
// (k8s.io/apimachinery's duration.HumanDuration: 45s, 5m3s, 12m, 3h20m, 30h, 5d4h, 40d,
// 2y40d), followed by " ago"; a t after now is "in the future".
func Ago(t, now time.Time) string {
	d := now.Sub(t)
	if d < 0 {
		return "in the future"
	}
	return duration.HumanDuration(d) + " ago"
}
