package conformance

import "testing"

func TestSameInvalidMessage(t *testing.T) {
	status := map[string]interface{}{"details": map[string]interface{}{"causes": []interface{}{
		map[string]interface{}{"field": "spec.a", "message": "Invalid value: \"x, y\": bad"},
		map[string]interface{}{"field": "spec.b", "message": "Required value"},
		map[string]interface{}{"message": "some validation rules were not checked because the object was invalid; correct the existing errors to complete validation"},
	}}}
	want := `X.g "n" is invalid: [spec.a: Invalid value: "x, y": bad, spec.b: Required value, some validation rules were not checked because the object was invalid; correct the existing errors to complete validation]`
	for _, c := range []struct {
		got  string
		same bool
	}{
		{`X.g "n" is invalid: [spec.b: Required value, spec.a: Invalid value: "x, y": bad, some validation rules were not checked because the object was invalid; correct the existing errors to complete validation]`, true},
		{`X.g "n" is invalid: [some validation rules were not checked because the object was invalid; correct the existing errors to complete validation, spec.b: Required value, spec.a: Invalid value: "x, y": bad]`, true},
		{`X.g "n" is invalid: [spec.b: Required value, spec.a: Invalid value: "x, y": bad]`, false},
		{`X.g "m" is invalid: [spec.b: Required value, spec.a: Invalid value: "x, y": bad, some validation rules were not checked because the object was invalid; correct the existing errors to complete validation]`, false},
		{`X.g "n" is invalid: [spec.b: Required value, spec.a: Invalid value: "x, y": bad, spec.a: Invalid value: "x, y": bad]`, false},
	} {
		if got := sameInvalidMessage(want, c.got, status); got != c.same {
			t.Errorf("sameInvalidMessage(%q) = %v, want %v", c.got, got, c.same)
		}
	}
}
