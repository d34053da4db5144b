package formats

import (
	"encoding/hex"
	"net"
	"net/mail"
	"net/url"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/ssa-diff/ssa-diff/kube"
	netutils "k8s.io/utils/net"
)

// Normalize is a format name as the server's registry keys it: without dashes.
func Normalize(name string) string { return strings.ReplaceAll(name, "-", "") }

// known are the formats of the registry, by normalized name.
var known = map[string]func(string) bool{
	"bsonobjectid": isBSONObjectID,
	"uri":          isRequestURI,
	"email":        isEmail,
	"hostname":     isHostname,
	"ipv4":         isIPv4,
	"ipv6":         isIPv6,
	"cidr":         isCIDR,
	"mac":          isMAC,
	"uuid":         func(s string) bool { return rxUUID.get().MatchString(s) },
	"uuid3":        func(s string) bool { return rxUUID3.get().MatchString(s) },
	"uuid4":        func(s string) bool { return rxUUID4.get().MatchString(s) },
	"uuid5":        func(s string) bool { return rxUUID5.get().MatchString(s) },
	"isbn":         func(s string) bool { return isISBN(s, 10) || isISBN(s, 13) },
	"isbn10":       func(s string) bool { return isISBN(s, 10) },
	"isbn13":       func(s string) bool { return isISBN(s, 13) },
	"creditcard":   isCreditCard,
	"ssn":          func(s string) bool { return len(s) == 11 && rxSSN.get().MatchString(s) },
	"hexcolor":     func(s string) bool { return rxHexColor.get().MatchString(s) },
	"rgbcolor":     func(s string) bool { return rxRGBColor.get().MatchString(s) },
	"byte":         func(s string) bool { return rxBase64.get().MatchString(s) },
	"password":     func(string) bool { return true },
	"date":         IsDate,
	"datetime":     IsDateTime,
	"duration":     IsDuration,
	"k8sshortname": isShortName,
	"k8slongname":  isLongName,
}

// Known reports whether the registry has a format of this name.
func Known(name string) bool {
	_, ok := known[Normalize(name)]
	return ok
}

// Valid reports whether s is valid for the format name; false for an unknown format.
func Valid(name, s string) bool {
	f, ok := known[Normalize(name)]
	return ok && f(s)
}

// Schemas are the format rules of a kube-apiserver's CRD schemas: which formats of the
// registry a schema node keeps for validation, and which a CRD is warned about. They
// follow the server's minor (apiextensions-apiserver pkg/apiserver/validation/formats.go).
type Schemas struct {
	// shortLongNames: k8s-short-name and k8s-long-name are supported. They were introduced
	// at 1.34 and the server supports the formats of its compatibility version (its minor - 1),
	// so from 1.35.
	shortLongNames bool
	// byType: the format kept depends on the node's type (1.36); before, a string format of
	// the registry was kept whatever the type, and every other format (int32, double …)
	// dropped, and only nodes of type string were warned about.
	byType bool
}

// SchemasOf are the format rules of a kube-apiserver of the given minor.
func SchemasOf(server kube.Minor) Schemas {
	return Schemas{shortLongNames: server.AtLeast(35), byType: server.AtLeast(36)}
}

// stringFormat reports whether name is a string format the server's schemas support.
func (r Schemas) stringFormat(name string) bool {
	n := Normalize(name)
	if (n == "k8sshortname" || n == "k8slongname") && !r.shortLongNames {
		return false
	}
	_, ok := known[n]
	return ok
}

// Supported is the format a CRD schema node keeps for validation, given its type (empty
// when the node has none or several): from 1.36, string formats of the registry (typeless
// nodes included), int32/int64 for integers, float/double for numbers; before, string
// formats of the registry whatever the type; "" otherwise.
func (r Schemas) Supported(typ, format string) string {
	if format == "" {
		return ""
	}
	if !r.byType {
		if r.stringFormat(format) {
			return format
		}
		return ""
	}
	switch typ {
	case "", "string":
		if r.stringFormat(format) {
			return format
		}
	case "integer":
		if format == "int32" || format == "int64" {
			return format
		}
	case "number":
		if format == "float" || format == "double" {
			return format
		}
	}
	return ""
}

// Unrecognized reports whether a CRD whose schema has this format on a node of this type
// is warned about ("unrecognized format"): from 1.36, a format the node does not keep;
// before, a format the node does not keep on a node of type string only.
func (r Schemas) Unrecognized(typ, format string) bool {
	if format == "" || !r.byType && typ != "string" {
		return false
	}
	return r.Supported(typ, format) == ""
}

// lazyRegexp is a regular expression compiled at its first use: a package-level
// &lazyRegexp{…} is data, no code runs for it before main.
type lazyRegexp struct {
	pattern string
	once    sync.Once
	re      *regexp.Regexp
}

// get is the compiled expression.
func (l *lazyRegexp) get() *regexp.Regexp {
	l.once.Do(func() { l.re = regexp.MustCompile(l.pattern) })
	return l.re
}

var (
	rxHostname   = &lazyRegexp{pattern: `^([a-zA-Z0-9\p{S}\p{L}]((-?[a-zA-Z0-9\p{S}\p{L}]{0,62})?)|([a-zA-Z0-9\p{S}\p{L}](([a-zA-Z0-9-\p{S}\p{L}]{0,61}[a-zA-Z0-9\p{S}\p{L}])?)(\.)){1,}([a-zA-Z\p{L}]){2,63})$`}
	rxUUID       = &lazyRegexp{pattern: `(?i)^[0-9a-f]{8}-?[0-9a-f]{4}-?[0-9a-f]{4}-?[0-9a-f]{4}-?[0-9a-f]{12}$`}
	rxUUID3      = &lazyRegexp{pattern: `(?i)^[0-9a-f]{8}-?[0-9a-f]{4}-?3[0-9a-f]{3}-?[0-9a-f]{4}-?[0-9a-f]{12}$`}
	rxUUID4      = &lazyRegexp{pattern: `(?i)^[0-9a-f]{8}-?[0-9a-f]{4}-?4[0-9a-f]{3}-?[89ab][0-9a-f]{3}-?[0-9a-f]{12}$`}
	rxUUID5      = &lazyRegexp{pattern: `(?i)^[0-9a-f]{8}-?[0-9a-f]{4}-?5[0-9a-f]{3}-?[89ab][0-9a-f]{3}-?[0-9a-f]{12}$`}
	rxDateTime   = &lazyRegexp{pattern: `^([0-9]{2}):([0-9]{2}):([0-9]{2})(.[0-9]+)?(z|([+-][0-9]{2}:[0-9]{2}))$`}
	rxDuration   = &lazyRegexp{pattern: `((\d+)\s*([A-Za-zµ]+))`}
	rxCreditCard = &lazyRegexp{pattern: `^(?:4[0-9]{12}(?:[0-9]{3})?|5[1-5][0-9]{14}|6(?:011|5[0-9][0-9])[0-9]{12}|3[47][0-9]{13}|3(?:0[0-5]|[68][0-9])[0-9]{11}|(?:2131|1800|35\d{3})\d{11})$`}
	rxISBN10     = &lazyRegexp{pattern: `^(?:[0-9]{9}X|[0-9]{10})$`}
	rxISBN13     = &lazyRegexp{pattern: `^(?:[0-9]{13})$`}
	rxHexColor   = &lazyRegexp{pattern: `^#?([0-9a-fA-F]{3}|[0-9a-fA-F]{6})$`}
	rxRGBColor   = &lazyRegexp{pattern: `^rgb\(\s*(0|[1-9]\d?|1\d\d?|2[0-4]\d|25[0-5])\s*,\s*(0|[1-9]\d?|1\d\d?|2[0-4]\d|25[0-5])\s*,\s*(0|[1-9]\d?|1\d\d?|2[0-4]\d|25[0-5])\s*\)$`}
	rxBase64     = &lazyRegexp{pattern: `^(?:[A-Za-z0-9+\/]{4})*(?:[A-Za-z0-9+\/]{2}==|[A-Za-z0-9+\/]{3}=|[A-Za-z0-9+\/]{4})$`}
	rxSSN        = &lazyRegexp{pattern: `^\d{3}[- ]?\d{2}[- ]?\d{4}$`}
	rxNotDigits  = &lazyRegexp{pattern: `[^0-9]+`}
	rxSpaceDash  = &lazyRegexp{pattern: `[\s-]+`}
	rxShortName  = &lazyRegexp{pattern: `^[a-z0-9]([-a-z0-9]*[a-z0-9])?$`}
	rxLongName   = &lazyRegexp{pattern: `^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$`}
)

func isBSONObjectID(s string) bool {
	b, err := hex.DecodeString(s)
	return err == nil && len(b) == 12
}

func isRequestURI(s string) bool {
	_, err := url.ParseRequestURI(s)
	return err == nil
}

func isEmail(s string) bool {
	a, err := mail.ParseAddress(s)
	return err == nil && a.Address != ""
}

func isHostname(s string) bool {
	if !rxHostname.get().MatchString(s) || len(s) > 255 {
		return false
	}
	for _, label := range strings.Split(s, ".") {
		if len(label) > 63 {
			return false
		}
	}
	return true
}

func isIPv4(s string) bool { return netutils.ParseIPSloppy(s) != nil && strings.Contains(s, ".") }

func isIPv6(s string) bool { return net.ParseIP(s) != nil && strings.Contains(s, ":") }

func isCIDR(s string) bool {
	_, _, err := netutils.ParseCIDRSloppy(s)
	return err == nil
}

func isMAC(s string) bool {
	_, err := net.ParseMAC(s)
	return err == nil
}

// isCreditCard: the digits (anything else dropped) match a card number and pass Luhn's check.
func isCreditCard(s string) bool {
	digits := rxNotDigits.get().ReplaceAllString(s, "")
	if !rxCreditCard.get().MatchString(digits) {
		return false
	}
	sum, double := 0, false
	for i := len(digits) - 1; i >= 0; i-- {
		d := int(digits[i] - '0')
		if double {
			d *= 2
			if d >= 10 {
				d = d%10 + 1
			}
		}
		sum += d
		double = !double
	}
	return sum%10 == 0
}

// isISBN checks an ISBN-10 or ISBN-13 (spaces and dashes ignored) with its check digit.
func isISBN(s string, version int) bool {
	d := rxSpaceDash.get().ReplaceAllString(s, "")
	switch version {
	case 10:
		if !rxISBN10.get().MatchString(d) {
			return false
		}
		sum := 0
		for i := 0; i < 9; i++ {
			sum += (i + 1) * int(d[i]-'0')
		}
		if d[9] == 'X' {
			sum += 100
		} else {
			sum += 10 * int(d[9]-'0')
		}
		return sum%11 == 0
	default:
		if !rxISBN13.get().MatchString(d) {
			return false
		}
		sum := 0
		for i := 0; i < 12; i++ {
			w := 1
			if i%2 == 1 {
				w = 3
			}
			sum += w * int(d[i]-'0')
		}
		return int(d[12]-'0')-((10-sum%10)%10) == 0
	}
}

// IsDate: a full date, 2006-01-02.
func IsDate(s string) bool {
	_, err := time.Parse("2006-01-02", s)
	return err == nil
}

// IsDateTime: a date, "t" (either case), and a time with seconds and an offset or "z".
func IsDateTime(s string) bool {
	if len(s) < 4 {
		return false
	}
	parts := strings.Split(strings.ToLower(s), "t")
	if len(parts) < 2 || !IsDate(parts[0]) {
		return false
	}
	m := rxDateTime.get().FindStringSubmatch(parts[1])
	if len(m) == 0 {
		return false
	}
	return m[1] <= "23" && m[2] <= "59" && m[3] <= "59"
}

// IsDuration: a Go duration, or numbers with unit words ("3 days", "2h 5min").
func IsDuration(s string) bool {
	_, err := ParseDuration(s)
	return err == nil
}

// ParseDuration reads a duration as the server's "duration" format does: time.ParseDuration
// first, else every "<digits><unit>" in s summed, units matched by name or by the prefix of
// their longest spelling ("3 days", "1 week", "10 mins").
func ParseDuration(s string) (time.Duration, error) {
	if d, err := time.ParseDuration(s); err == nil {
		return d, nil
	}
	var total time.Duration
	ok := false
	for _, m := range rxDuration.get().FindAllStringSubmatch(s, -1) {
		n, err := strconv.Atoi(m[2])
		if err != nil {
			return 0, err
		}
		unit := strings.ToLower(strings.TrimSpace(m[3]))
		for _, u := range durationUnits {
			last := len(u.names) - 1
			for i, name := range u.names {
				if (i == last && strings.HasPrefix(unit, name)) || strings.EqualFold(name, unit) {
					ok = true
					total += time.Duration(n) * u.d
				}
			}
		}
	}
	if !ok {
		return 0, &durationError{s}
	}
	return total, nil
}

type durationError struct{ s string }

func (e *durationError) Error() string { return "unable to parse " + e.s + " as duration" }

var durationUnits = []struct {
	names []string
	d     time.Duration
}{
	{[]string{"ns", "nano"}, time.Nanosecond},
	{[]string{"us", "µs", "micro"}, time.Microsecond},
	{[]string{"ms", "milli"}, time.Millisecond},
	{[]string{"s", "sec"}, time.Second},
	{[]string{"m", "min"}, time.Minute},
	{[]string{"h", "hr", "hour"}, time.Hour},
	{[]string{"d", "day"}, 24 * time.Hour},
	{[]string{"w", "wk", "week"}, 7 * 24 * time.Hour},
}

func isShortName(s string) bool { return len(s) <= 63 && rxShortName.get().MatchString(s) }

func isLongName(s string) bool { return len(s) <= 253 && rxLongName.get().MatchString(s) }
