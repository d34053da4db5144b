package cellib

import (
	"net/url"

	"github.com/google/cel-go/cel"
	"github.com/google/cel-go/common/types"
	"github.com/google/cel-go/common/types/ref"
	apiservercel "k8s.io/apiserver/pkg/cel"
)

// urlsLib: url(), isURL() and the accessors of a URL.
type urlsLib struct{}

func (urlsLib) LibraryName() string { return "kubernetes.urls" }

func urlPart(id string, result *cel.Type, part func(*url.URL) ref.Val) cel.FunctionOpt {
	return cel.MemberOverload(id, []*cel.Type{apiservercel.URLType}, result, cel.UnaryBinding(func(v ref.Val) ref.Val {
		u, ok := v.Value().(*url.URL)
		if !ok {
			return types.MaybeNoSuchOverloadErr(v)
		}
		return part(u)
	}))
}

func (urlsLib) CompileOptions() []cel.EnvOption {
	return functions(map[string][]cel.FunctionOpt{
		"url":            {cel.Overload("string_to_url", []*cel.Type{cel.StringType}, apiservercel.URLType, cel.UnaryBinding(toURL))},
		"getScheme":      {urlPart("url_get_scheme", cel.StringType, func(u *url.URL) ref.Val { return types.String(u.Scheme) })},
		"getHost":        {urlPart("url_get_host", cel.StringType, func(u *url.URL) ref.Val { return types.String(u.Host) })},
		"getHostname":    {urlPart("url_get_hostname", cel.StringType, func(u *url.URL) ref.Val { return types.String(u.Hostname()) })},
		"getPort":        {urlPart("url_get_port", cel.StringType, func(u *url.URL) ref.Val { return types.String(u.Port()) })},
		"getEscapedPath": {urlPart("url_get_escaped_path", cel.StringType, func(u *url.URL) ref.Val { return types.String(u.EscapedPath()) })},
		"getQuery": {urlPart("url_get_query", cel.MapType(cel.StringType, cel.ListType(cel.StringType)), func(u *url.URL) ref.Val {
			m := map[ref.Val]ref.Val{}
			for k, v := range u.Query() {
				m[types.String(k)] = types.NewStringList(types.DefaultTypeAdapter, v)
			}
			return types.NewRefValMap(types.DefaultTypeAdapter, m)
		})},
		"isURL": {cel.Overload("is_url_string", []*cel.Type{cel.StringType}, cel.BoolType, cel.UnaryBinding(func(v ref.Val) ref.Val {
			s, ok := v.Value().(string)
			if !ok {
				return types.MaybeNoSuchOverloadErr(v)
			}
			_, err := url.ParseRequestURI(s)
			return types.Bool(err == nil)
		}))},
	})
}

func (urlsLib) ProgramOptions() []cel.ProgramOption { return nil }

// toURL: an absolute URI or an absolute path, as url.ParseRequestURI accepts it.
func toURL(v ref.Val) ref.Val {
	s, ok := v.Value().(string)
	if !ok {
		return types.MaybeNoSuchOverloadErr(v)
	}
	if _, err := url.ParseRequestURI(s); err != nil {
		return types.NewErr("URL parse error during conversion from string: %v", err)
	}
	u, err := url.Parse(s)
	if err != nil {
		return types.NewErr("URL parse error during conversion from string: %v", err)
	}
	return apiservercel.URL{URL: u}
}
