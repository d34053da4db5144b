package admission

import (
	"fmt"
	"sort"
	"strings"

	"github.com/ssa-diff/ssa-diff/internal/unstructured"
	"github.com/ssa-diff/ssa-diff/server"
	"k8s.io/apimachinery/pkg/api/resource"
	utilerrors "k8s.io/apimachinery/pkg/util/errors"
)

const limitRangerAnnotation = "kubernetes.io/limit-ranger"

// limitRanges are the LimitRanges of the write's namespace, by name.
func (c *Chain) limitRanges(w Write) []map[string]any {
	return c.cfg.State.List("", "LimitRange", w.Namespace)
}

// limitRanger is LimitRanger's mutation (rules.md admission.limit-ranger): a Pod created (or resized) in
// a namespace with LimitRanges gets, in every container and init container, the
// Container limits' default and defaultRequest for each resource it does not set, and an
// annotation saying what was set.
func (c *Chain) limitRanger(w Write, _ *server.Admission) {
	if !w.is("", "Pod") || !(w.Subresource == "" && w.create() || w.Subresource == "resize") {
		// A Pod's /resize is LimitRanger's too (the resize strategy then puts the
		// stored annotations back).
		return
	}
	for _, lr := range c.limitRanges(w) {
		limits, requests := containerDefaults(lr)
		spec := unstructured.Object(w.Object, "spec")
		var notes []string
		for _, field := range []struct{ key, what string }{{"containers", "container"}, {"initContainers", "init container"}} {
			for _, ctr := range unstructured.Objects(spec, field.key) {
				notes = mergeResources(ctr, limits, requests, field.what, notes)
			}
		}
		if len(notes) > 0 {
			ann := unstructured.EnsureObject(unstructured.EnsureObject(w.Object, "metadata"), "annotations")
			ann[limitRangerAnnotation] = "LimitRanger plugin set: " + strings.Join(notes, "; ")
		}
	}
}

// containerDefaults are a LimitRange's Container limits' default (limits) and
// defaultRequest (requests), as the quantities it stores.
func containerDefaults(lr map[string]any) (limits, requests map[string]any) {
	limits, requests = map[string]any{}, map[string]any{}
	for _, l := range unstructured.Objects(unstructured.Object(lr, "spec"), "limits") {
		if unstructured.Str(l, "type") != "Container" {
			continue
		}
		for k, v := range unstructured.Object(l, "defaultRequest") {
			requests[k] = v
		}
		for k, v := range unstructured.Object(l, "default") {
			limits[k] = v
		}
	}
	return limits, requests
}

// mergeResources sets the defaults a container lacks and notes them as the plugin words
// them: "cpu, memory request for container app", then "... limit for container app".
func mergeResources(ctr map[string]any, limits, requests map[string]any, what string, notes []string) []string {
	set := func(field string, defaults map[string]any) []string {
		var names []string
		for k, v := range defaults {
			res := unstructured.EnsureObject(ctr, "resources")
			have := unstructured.EnsureObject(res, field)
			if _, ok := have[k]; ok {
				continue
			}
			have[k] = v
			names = append(names, k)
		}
		sort.Strings(names)
		return names
	}
	setLimits := set("limits", limits)
	setRequests := set("requests", requests)
	name := unstructured.Str(ctr, "name")
	if len(setRequests) > 0 {
		notes = append(notes, strings.Join(setRequests, ", ")+" request for "+what+" "+name)
	}
	if len(setLimits) > 0 {
		notes = append(notes, strings.Join(setLimits, ", ")+" limit for "+what+" "+name)
	}
	return notes
}

// validateLimitRanger is LimitRanger's validation: a Pod created or resized, and a
// PersistentVolumeClaim created or updated, within the min, max and maxLimitRequestRatio
// of the namespace's LimitRanges (403 with every violation).
func (c *Chain) validateLimitRanger(w Write, out *server.Admission) {
	resize := w.Subresource == "resize" && w.is("", "Pod")
	if w.Subresource != "" && !resize || !resize && !(w.is("", "Pod") && w.create() || w.is("", "PersistentVolumeClaim")) {
		return
	}
	if md := unstructured.Object(w.Old, "metadata"); md != nil && md["deletionTimestamp"] != nil {
		return
	}
	for _, lr := range c.limitRanges(w) {
		var errs []error
		if w.is("", "Pod") {
			errs = podLimitErrors(lr, unstructured.Object(w.Object, "spec"))
		} else {
			errs = claimLimitErrors(lr, unstructured.NestedObject(w.Object, "spec", "resources", "requests"))
		}
		if len(errs) > 0 {
			out.Refusal = w.forbidden("%s", utilerrors.NewAggregate(errs).Error())
			return
		}
	}
}

// quantities reads a ResourceList.
func quantities(m map[string]any) map[string]resource.Quantity {
	out := map[string]resource.Quantity{}
	for k, v := range m {
		if q, err := resource.ParseQuantity(fmt.Sprint(v)); err == nil {
			out[k] = q
		}
	}
	return out
}

// sortedNames are a ResourceList's names in order: the server ranges over a map, so the
// order of several violations is not the server's; this one is stable.
func sortedNames(m map[string]any) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

func claimLimitErrors(lr map[string]any, requests map[string]any) []error {
	var errs []error
	req := quantities(requests)
	for _, l := range unstructured.Objects(unstructured.Object(lr, "spec"), "limits") {
		if unstructured.Str(l, "type") != "PersistentVolumeClaim" {
			continue
		}
		min, max := unstructured.Object(l, "min"), unstructured.Object(l, "max")
		for _, k := range sortedNames(min) {
			if err := minConstraint("PersistentVolumeClaim", k, quantities(min)[k], req, nil); err != nil {
				errs = append(errs, err)
			}
		}
		for _, k := range sortedNames(max) {
			if err := maxRequestConstraint("PersistentVolumeClaim", k, quantities(max)[k], req); err != nil {
				errs = append(errs, err)
			}
		}
	}
	return errs
}

func podLimitErrors(lr map[string]any, spec map[string]any) []error {
	var errs []error
	check := func(typ string, l map[string]any, requests, limits map[string]resource.Quantity) {
		min, max, ratio := unstructured.Object(l, "min"), unstructured.Object(l, "max"), unstructured.Object(l, "maxLimitRequestRatio")
		for _, k := range sortedNames(min) {
			if err := minConstraint(typ, k, quantities(min)[k], requests, limits); err != nil {
				errs = append(errs, err)
			}
		}
		for _, k := range sortedNames(max) {
			if err := maxConstraint(typ, k, quantities(max)[k], requests, limits); err != nil {
				errs = append(errs, err)
			}
		}
		for _, k := range sortedNames(ratio) {
			if err := ratioConstraint(typ, k, quantities(ratio)[k], requests, limits); err != nil {
				errs = append(errs, err)
			}
		}
	}
	for _, l := range unstructured.Objects(unstructured.Object(lr, "spec"), "limits") {
		switch unstructured.Str(l, "type") {
		case "Container":
			for _, field := range []string{"containers", "initContainers"} {
				for _, ctr := range unstructured.Objects(spec, field) {
					res := unstructured.Object(ctr, "resources")
					check("Container", l, quantities(unstructured.Object(res, "requests")), quantities(unstructured.Object(res, "limits")))
				}
			}
		case "Pod":
			requests, limits := podTotals(spec, "requests"), podTotals(spec, "limits")
			check("Pod", l, requests, limits)
		}
	}
	return errs
}

// podTotals are a Pod's requests (or limits) as the plugin adds them: its containers' and
// sidecars' sums, or its init containers' largest, whichever is larger, per resource; the
// Pod's own resources for cpu and memory when it sets them.
func podTotals(spec map[string]any, field string) map[string]resource.Quantity {
	total := map[string]resource.Quantity{}
	add := func(to map[string]resource.Quantity, from map[string]resource.Quantity) {
		for k, q := range from {
			v, ok := to[k]
			if !ok {
				to[k] = q.DeepCopy()
				continue
			}
			v.Add(q)
			to[k] = v
		}
	}
	max := func(to map[string]resource.Quantity, from map[string]resource.Quantity) {
		for k, q := range from {
			if v, ok := to[k]; !ok || q.Cmp(v) > 0 {
				to[k] = q.DeepCopy()
			}
		}
	}
	for _, ctr := range unstructured.Objects(spec, "containers") {
		add(total, quantities(unstructured.NestedObject(ctr, "resources", field)))
	}
	sidecars, inits := map[string]resource.Quantity{}, map[string]resource.Quantity{}
	for _, ctr := range unstructured.Objects(spec, "initContainers") {
		q := quantities(unstructured.NestedObject(ctr, "resources", field))
		if unstructured.Str(ctr, "restartPolicy") == "Always" {
			add(total, q)
			add(sidecars, q)
			q = map[string]resource.Quantity{}
			for k, v := range sidecars {
				q[k] = v.DeepCopy()
			}
		} else {
			tmp := map[string]resource.Quantity{}
			add(tmp, q)
			add(tmp, sidecars)
			q = tmp
		}
		max(inits, q)
	}
	max(total, inits)
	for k, q := range quantities(unstructured.NestedObject(spec, "resources", field)) {
		if k == "cpu" || k == "memory" {
			total[k] = q
		}
	}
	return total
}

// atCommonPrecision is the plugin's comparison of quantities: in milli-units unless one
// would overflow.
func atCommonPrecision(req, lim, enforced resource.Quantity) (int64, int64, int64) {
	r, l, e := req.Value(), lim.Value(), enforced.Value()
	if r <= resource.MaxMilliValue && l <= resource.MaxMilliValue && e <= resource.MaxMilliValue {
		return req.MilliValue(), lim.MilliValue(), enforced.MilliValue()
	}
	return r, l, e
}

func minConstraint(typ, name string, enforced resource.Quantity, requests, limits map[string]resource.Quantity) error {
	req, reqOK := requests[name]
	lim, limOK := limits[name]
	r, l, e := atCommonPrecision(req, lim, enforced)
	switch {
	case !reqOK:
		return fmt.Errorf("minimum %s usage per %s is %s.  No request is specified", name, typ, enforced.String())
	case r < e:
		return fmt.Errorf("minimum %s usage per %s is %s, but request is %s", name, typ, enforced.String(), req.String())
	case limOK && l < e:
		return fmt.Errorf("minimum %s usage per %s is %s, but limit is %s", name, typ, enforced.String(), lim.String())
	}
	return nil
}

func maxRequestConstraint(typ, name string, enforced resource.Quantity, requests map[string]resource.Quantity) error {
	req, ok := requests[name]
	r, _, e := atCommonPrecision(req, resource.Quantity{}, enforced)
	switch {
	case !ok:
		return fmt.Errorf("maximum %s usage per %s is %s.  No request is specified", name, typ, enforced.String())
	case r > e:
		return fmt.Errorf("maximum %s usage per %s is %s, but request is %s", name, typ, enforced.String(), req.String())
	}
	return nil
}

func maxConstraint(typ, name string, enforced resource.Quantity, requests, limits map[string]resource.Quantity) error {
	req, reqOK := requests[name]
	lim, limOK := limits[name]
	r, l, e := atCommonPrecision(req, lim, enforced)
	switch {
	case !limOK:
		return fmt.Errorf("maximum %s usage per %s is %s.  No limit is specified", name, typ, enforced.String())
	case l > e:
		return fmt.Errorf("maximum %s usage per %s is %s, but limit is %s", name, typ, enforced.String(), lim.String())
	case reqOK && r > e:
		return fmt.Errorf("maximum %s usage per %s is %s, but request is %s", name, typ, enforced.String(), req.String())
	}
	return nil
}

func ratioConstraint(typ, name string, enforced resource.Quantity, requests, limits map[string]resource.Quantity) error {
	req, reqOK := requests[name]
	lim, limOK := limits[name]
	r, l, _ := atCommonPrecision(req, lim, enforced)
	if !reqOK || r == 0 {
		return fmt.Errorf("%s max limit to request ratio per %s is %s, but no request is specified or request is 0", name, typ, enforced.String())
	}
	if !limOK || l == 0 {
		return fmt.Errorf("%s max limit to request ratio per %s is %s, but no limit is specified or limit is 0", name, typ, enforced.String())
	}
	observed := float64(l) / float64(r)
	shown := observed
	maxRatio := float64(enforced.Value())
	if enforced.Value() <= resource.MaxMilliValue {
		observed *= 1000
		maxRatio = float64(enforced.MilliValue())
	}
	if observed > maxRatio {
		return fmt.Errorf("%s max limit to request ratio per %s is %s, but provided ratio is %f", name, typ, enforced.String(), shown)
	}
	return nil
}
