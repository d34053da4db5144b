package openapi

import "fmt"

// The messages of kube-openapi's validation errors (the "in body" forms: every value of a
// custom resource is in the request body).

func invalidType(name, typeName string, value any) verr {
	var msg string
	switch v := value.(type) {
	case string:
		msg = fmt.Sprintf("%s in body must be of type %s: %q", name, typeName, v)
	default:
		msg = fmt.Sprintf("%s in body must be of type %s", name, typeName)
	}
	return verr{code: codeInvalidType, name: name, value: value, msg: msg}
}

func required(name string) verr {
	return verr{code: codeRequired, name: name, msg: fmt.Sprintf("%s in body is required", name)}
}

func tooLong(name string, max int64, value any) verr {
	return verr{code: codeTooLong, name: name, value: value, valid: max, msg: fmt.Sprintf("%s in body should be at most %d chars long", name, max)}
}

func tooShort(name string, min int64, value any) verr {
	return verr{code: codeTooShort, name: name, value: value, valid: min, msg: fmt.Sprintf("%s in body should be at least %d chars long", name, min)}
}

func failedPattern(name, pattern string, value any) verr {
	return verr{code: codePattern, name: name, value: value, msg: fmt.Sprintf("%s in body should match '%s'", name, pattern)}
}

func enumFail(name string, value any, values []any) verr {
	return verr{code: codeEnum, name: name, value: value, values: values, msg: fmt.Sprintf("%s in body should be one of %v", name, values)}
}

func notMultipleOf(name string, multiple, value any) verr {
	return verr{code: codeMultipleOf, name: name, value: value, msg: fmt.Sprintf("%s in body should be a multiple of %v", name, multiple)}
}

func multipleOfMustBePositive(name string, factor any) verr {
	return verr{code: codeMultipleOfMustBePositive, name: name, value: factor, msg: fmt.Sprintf("factor MultipleOf declared for %s must be positive: %v", name, factor)}
}

func exceedsMaximum(name string, max any, exclusive bool, value any) verr {
	m := "%s in body should be less than or equal to %v"
	if exclusive {
		m = "%s in body should be less than %v"
	}
	return verr{code: codeMax, name: name, value: value, msg: fmt.Sprintf(m, name, max)}
}

func exceedsMinimum(name string, min any, exclusive bool, value any) verr {
	m := "%s in body should be greater than or equal to %v"
	if exclusive {
		m = "%s in body should be greater than %v"
	}
	return verr{code: codeMin, name: name, value: value, msg: fmt.Sprintf(m, name, min)}
}

func duplicateItems(name string) verr {
	return verr{code: codeUnique, name: name, msg: fmt.Sprintf("%s in body shouldn't contain duplicates", name)}
}

func tooManyItems(name string, max int64, value any) verr {
	return verr{code: codeMaxItems, name: name, value: value, valid: max, msg: fmt.Sprintf("%s in body should have at most %d items", name, max)}
}

func tooFewItems(name string, min int64, value any) verr {
	return verr{code: codeMinItems, name: name, value: value, valid: min, msg: fmt.Sprintf("%s in body should have at least %d items", name, min)}
}

func tooFewProperties(name string, min, size int64) verr {
	return verr{code: codeTooFewProperties, name: name, value: size, valid: min, msg: fmt.Sprintf("%s in body should have at least %d properties", name, min)}
}

func tooManyProperties(name string, max, size int64) verr {
	return verr{code: codeTooManyProperties, name: name, value: size, valid: max, msg: fmt.Sprintf("%s in body should have at most %d properties", name, max)}
}

func propertyNotAllowed(name, key string) verr {
	return verr{code: codeUnallowedProperty, name: name, value: key, msg: fmt.Sprintf("%s.%s in body is a forbidden property", name, key)}
}

func plain(format string, args ...any) verr {
	return verr{code: codePlain, msg: fmt.Sprintf(format, args...)}
}
