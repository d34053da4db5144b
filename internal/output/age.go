package output

import (
	"fmt"
	"time"
)

// age prints how long before now t was, in the style of kubectl's AGE column: 45s, 12m,
// 3h20m, 5d, 2y40d.
func age(t, now time.Time) string {
	d := now.Sub(t)
	if d < 0 {
		return "in the future"
	}
	switch s := int64(d / time.Second); {
	case s < 120:
		return fmt.Sprintf("%ds", s)
	case s < 3600:
		return fmt.Sprintf("%dm", s/60)
	case s < 8*3600:
		if m := s % 3600 / 60; m != 0 {
			return fmt.Sprintf("%dh%dm", s/3600, m)
		}
		return fmt.Sprintf("%dh", s/3600)
	case s < 48*3600:
		return fmt.Sprintf("%dh", s/3600)
	case s < 365*86400:
		return fmt.Sprintf("%dd", s/86400)
	default:
		y, days := s/(365*86400), s%(365*86400)/86400
		if days == 0 {
			return fmt.Sprintf("%dy", y)
		}
		return fmt.Sprintf("%dy%dd", y, days)
	}
}
