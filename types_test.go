package robots

import (
	"fmt"
	"reflect"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/fastrobots/robots/compile"
)

// twins pairs each data type of this package with the compile type whose
// values it reinterprets (types.go). A type added to either side of a pair
// must be added here.
var twins = map[reflect.Type]reflect.Type{
	reflect.TypeFor[Group]():       reflect.TypeFor[compile.Group](),
	reflect.TypeFor[AgentLine]():   reflect.TypeFor[compile.AgentLine](),
	reflect.TypeFor[Rule]():        reflect.TypeFor[compile.Rule](),
	reflect.TypeFor[Directive]():   reflect.TypeFor[compile.Directive](),
	reflect.TypeFor[RequestRate](): reflect.TypeFor[compile.RequestRate](),
	reflect.TypeFor[VisitTime]():   reflect.TypeFor[compile.VisitTime](),
	reflect.TypeFor[Host]():        reflect.TypeFor[compile.Host](),
	reflect.TypeFor[CleanParam]():  reflect.TypeFor[compile.CleanParam](),
}

func TestLayoutMatchesCompile(t *testing.T) {
	for ours, theirs := range twins {
		t.Run(ours.Name(), func(t *testing.T) {
			assert.NoError(t, sameLayoutAs(ours, theirs))
		})
	}
}

// sameLayoutAs returns why a value of type a cannot be read as one of type
// b, or nil: same kind, size and alignment; for structs the same field
// names at the same offsets, of types that are the same or twins; for
// slices and pointers, elements that are.
func sameLayoutAs(a, b reflect.Type) error {
	if a == b {
		return nil
	}
	if twins[a] != b {
		return fmt.Errorf("%v and %v are neither the same type nor twins", a, b)
	}
	if a.Kind() != b.Kind() || a.Size() != b.Size() || a.Align() != b.Align() {
		return fmt.Errorf("%v is a %v of %d bytes aligned at %d, %v a %v of %d aligned at %d",
			a, a.Kind(), a.Size(), a.Align(), b, b.Kind(), b.Size(), b.Align())
	}
	if a.Kind() != reflect.Struct {
		return fmt.Errorf("twins %v and %v are not structs", a, b)
	}
	if a.NumField() != b.NumField() {
		return fmt.Errorf("%v has %d fields, %v %d", a, a.NumField(), b, b.NumField())
	}
	for i := range a.NumField() {
		fa, fb := a.Field(i), b.Field(i)
		if fa.Name != fb.Name || fa.Offset != fb.Offset {
			return fmt.Errorf("%v field %d is %s at %d, %v's %s at %d", a, i, fa.Name, fa.Offset, b, fb.Name, fb.Offset)
		}
		if err := sameFieldType(fa.Type, fb.Type); err != nil {
			return fmt.Errorf("%v.%s: %w", a, fa.Name, err)
		}
	}
	return nil
}

// sameFieldType is sameLayoutAs for the type of a field, which may be a
// slice or pointer of a twin.
func sameFieldType(a, b reflect.Type) error {
	switch {
	case a.Kind() != b.Kind():
		return fmt.Errorf("%v and %v differ in kind", a, b)
	case a.Kind() == reflect.Slice || a.Kind() == reflect.Pointer:
		return sameFieldType(a.Elem(), b.Elem())
	}
	return sameLayoutAs(a, b)
}

func TestSameLayoutAsCatchesDrift(t *testing.T) {
	type rule struct {
		Line    int
		Allow   bool
		Value   string
		Pattern string
	}
	type swapped struct {
		Line    int
		Allow   bool
		Pattern string
		Value   string
	}
	type wider struct {
		Line    int64
		Allow   bool
		Value   string
		Pattern string
		Extra   bool
	}
	tests := []struct {
		name string
		a, b reflect.Type
		ok   bool
	}{
		{"twins", reflect.TypeFor[Rule](), reflect.TypeFor[compile.Rule](), true},
		{"same type", reflect.TypeFor[string](), reflect.TypeFor[string](), true},
		{"not twins", reflect.TypeFor[Rule](), reflect.TypeFor[rule](), false},
		{"wrong twin", reflect.TypeFor[Rule](), reflect.TypeFor[compile.Directive](), false},
		{"different basic types", reflect.TypeFor[int](), reflect.TypeFor[time.Duration](), false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			assert.Equal(t, tt.ok, sameLayoutAs(tt.a, tt.b) == nil)
		})
	}
	// A drifted twin: registered, but with fields renamed or retyped.
	for _, drifted := range []reflect.Type{reflect.TypeFor[swapped](), reflect.TypeFor[wider]()} {
		twins[drifted] = reflect.TypeFor[compile.Rule]()
		assert.Error(t, sameLayoutAs(drifted, reflect.TypeFor[compile.Rule]()), "%v", drifted)
		delete(twins, drifted)
	}
}

// TestConvertedValuesReadBack checks the reinterpreted values field by
// field against compile's, through every accessor that converts.
func TestConvertedValuesReadBack(t *testing.T) {
	body := []byte("User-agent: a\nAllow: /x\nDisallow: /ü\nCrawl-delay: 2\nRequest-rate: 1/5s 0600-0800\nVisit-time: 0100-0200\n" +
		"Sitemap: https://example.com/s.xml\nHost: https://example.com:8443\nClean-param: ref /shop\n")
	r := Parse(body)
	f := compile.Parse(body, compile.Options{})
	require.Len(t, r.Groups(), len(f.Groups()))
	for i, g := range r.Groups() {
		want := f.Groups()[i]
		assert.Equal(t, len(want.Agents), len(g.Agents))
		for j, a := range g.Agents {
			assert.Equal(t, AgentLine{want.Agents[j].Line, want.Agents[j].Value, want.Agents[j].Token, want.Agents[j].Global}, a)
		}
		for j, rule := range g.Rules {
			w := want.Rules[j]
			assert.Equal(t, Rule{w.Line, w.Allow, w.Value, w.Pattern}, rule)
		}
		for j, d := range g.Extras {
			assert.Equal(t, Directive{want.Extras[j].Line, want.Extras[j].Key, want.Extras[j].Value}, d)
		}
		assert.Equal(t, len(want.Rules), cap(g.Rules), "a group's rules end where its capacity does")
	}
	assert.Equal(t, []Directive{{4, "Crawl-delay", "2"}, {5, "Request-rate", "1/5s 0600-0800"}, {6, "Visit-time", "0100-0200"},
		{8, "Host", "https://example.com:8443"}, {9, "Clean-param", "ref /shop"}}, r.Others())
	assert.Equal(t, []Host{{Line: 8, Scheme: "https", Host: "example.com:8443"}}, r.Hosts())
	assert.Equal(t, []CleanParam{{Line: 9, Params: []string{"ref"}, Path: "/shop"}}, r.CleanParams())

	g := &r.Groups()[0]
	delay, ok := g.CrawlDelay()
	assert.True(t, ok)
	assert.Equal(t, 2*time.Second, delay)
	rate, ok := g.RequestRate()
	assert.True(t, ok)
	assert.Equal(t, RequestRate{Requests: 1, Per: 5 * time.Second, Window: VisitTime{6 * time.Hour, 8 * time.Hour}}, rate)
	window, ok := g.VisitTime()
	assert.True(t, ok)
	assert.Equal(t, VisitTime{time.Hour, 2 * time.Hour}, window)
	assert.True(t, window.Contains(time.Date(2024, 1, 1, 1, 30, 0, 0, time.UTC)))

	d := r.Agent("a").Decide("https://example.com/%C3%BC")
	require.NotNil(t, d.Rule)
	assert.Same(t, &r.Groups()[0].Rules[1], d.Rule, "Decide's rule is the one Groups holds")
	assert.Equal(t, "/%C3%BC", d.Rule.Pattern)
}

func TestNoDirectivesIsNil(t *testing.T) {
	r := Parse([]byte("User-agent: *\nDisallow: /\n"))
	assert.Nil(t, r.Others())
	assert.Nil(t, r.Hosts())
	assert.Nil(t, r.CleanParams())
	assert.Empty(t, Parse(nil).Groups())
}

func TestModeMatchesCompile(t *testing.T) {
	for _, m := range []compile.Mode{compile.Google, compile.RFC} {
		assert.Equal(t, m.String(), Mode(m).String())
		assert.Equal(t, m, Parse([]byte("User-agent: *"), WithMode(Mode(m))).file.Mode)
	}
	assert.Equal(t, Google, Mode(compile.Google))
	assert.Equal(t, RFC, Mode(compile.RFC))
	assert.Equal(t, Google, Mode(0), "the zero Mode is the default")
}

// TestConversionsCopyNothing checks that handing out compile's values as
// this package's types allocates nothing once the file's view is built.
func TestConversionsCopyNothing(t *testing.T) {
	r := Parse([]byte("User-agent: *\nDisallow: /x\nCrawl-delay: 1\nSitemap: https://example.com/s.xml\n"))
	a := r.Agent("bot")
	r.Groups() // builds the view once
	allocs := testing.AllocsPerRun(100, func() {
		_ = r.Groups()
		_ = r.Others()
		_ = a.Decide("/x").Rule
		_, _ = r.Groups()[0].CrawlDelay()
	})
	assert.Zero(t, allocs)
}
