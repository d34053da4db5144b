package openapi

// The error codes of kube-openapi's validation errors that decide how an error becomes a
// field error.
const (
	codePlain = iota // not a field validation error (a combinator or range note)
	codeInvalidType
	codeRequired
	codeTooLong
	codeTooShort
	codePattern
	codeEnum
	codeMultipleOf
	codeMax
	codeMin
	codeUnique
	codeMaxItems
	codeMinItems
	codeTooFewProperties
	codeTooManyProperties
	codeUnallowedProperty
	codeMultipleOfMustBePositive
	codeNoAdditionalItems
)

// verr is one finding: its code, the path it names ("spec.replicas", relative to the
// validated root), the value it carries, and its message.
type verr struct {
	code   int
	name   string
	value  any
	valid  int64
	values []any
	msg    string
}

// result is what validating a node found, and how many checks applied to it.
type result struct {
	errs  []verr
	count int
}

// add appends errors whose text is not already there.
func (r *result) add(errs ...verr) {
	for _, e := range errs {
		dup := false
		for _, x := range r.errs {
			if x.msg == e.msg {
				dup = true
				break
			}
		}
		if !dup {
			r.errs = append(r.errs, e)
		}
	}
}

// merge adds the errors and the match count of others (nil ones are skipped).
func (r *result) merge(others ...*result) *result {
	for _, o := range others {
		if o != nil {
			r.add(o.errs...)
			r.count += o.count
		}
	}
	return r
}

func (r *result) valid() bool { return r == nil || len(r.errs) == 0 }

func single(e verr) *result { return &result{errs: []verr{e}} }
