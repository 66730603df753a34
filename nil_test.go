package robots_test

import (
	"reflect"
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/fastrobots/robots"
)

// TestNilRobotsAnswersAsAnEmptyFile calls every exported method of
// *Robots on nil (fetch.Result.Robots after a 4xx or 5xx) and on an empty
// file, with the same arguments: none panics, and each answers as the
// empty file does, but MemoryBytes, which is 0 for nothing held.
func TestNilRobotsAnswersAsAnEmptyFile(t *testing.T) {
	var none *robots.Robots
	empty := robots.Parse(nil)
	typ := reflect.TypeFor[*robots.Robots]()
	for i := range typ.NumMethod() {
		m := typ.Method(i)
		args := sampleArgs(t, m.Type)
		var got, want []reflect.Value
		assert.NotPanics(t, func() { got = reflect.ValueOf(none).Method(i).Call(args) }, "%s on nil", m.Name)
		want = reflect.ValueOf(empty).Method(i).Call(args)
		if m.Name == "MemoryBytes" {
			assert.Zero(t, got[0].Int(), "a nil Robots holds nothing")
			continue
		}
		for k := range want {
			assert.Equal(t, comparable(want[k]), comparable(got[k]), "%s's result %d", m.Name, k)
		}
	}
	assert.True(t, none.Allowed("Googlebot", "https://example.com/private"))
	assert.True(t, none.Agent("Googlebot").Allowed("https://example.com/"))
	assert.Empty(t, none.Sitemaps())
	assert.Equal(t, robots.Conditional, none.Policy())
}

// sampleArgs gives a method of *Robots (receiver first in mt) an agent,
// agents and a URL wherever it takes a string or strings.
func sampleArgs(t *testing.T, mt reflect.Type) []reflect.Value {
	var args []reflect.Value
	for k := 1; k < mt.NumIn(); k++ {
		in := mt.In(k)
		switch {
		case mt.IsVariadic() && k == mt.NumIn()-1:
			// none: a variadic list may be empty
		case in.Kind() == reflect.String && k == mt.NumIn()-1:
			args = append(args, reflect.ValueOf("https://example.com/private/x"))
		case in.Kind() == reflect.String:
			args = append(args, reflect.ValueOf("Googlebot"))
		case in == reflect.TypeFor[[]string]():
			args = append(args, reflect.ValueOf([]string{"Googlebot"}))
		default:
			t.Fatalf("%v: no sample for an argument of type %v", mt, in)
		}
	}
	return args
}

// comparable turns what a method returned into a value that compares by
// meaning: an *Agent by its name, policy and verdict on a few paths.
func comparable(v reflect.Value) any {
	if a, ok := v.Interface().(*robots.Agent); ok {
		return []any{a.Name(), a.Policy(), a.Groups(), a.AllowedPath("/"), a.AllowedPath("/private")}
	}
	return v.Interface()
}
