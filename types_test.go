package robots_test

import (
	"reflect"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/fastrobots/robots"
	"github.com/fastrobots/robots/compile"
)

// TestTypesMirrorCompile holds each data type robots hands out to the
// compile type it is made from (views.go, report.go, types.go): the same
// exported fields, in order, of the same types but for the package. Most
// convert with T(v), which the compiler checks; this catches a field added
// to one of those copied field by field (Group, RequestRate, Report,
// LineReport) and not to the other.
func TestTypesMirrorCompile(t *testing.T) {
	for _, pair := range [][2]any{
		{robots.Group{}, compile.Group{}}, {robots.AgentLine{}, compile.AgentLine{}},
		{robots.Rule{}, compile.Rule{}}, {robots.Directive{}, compile.Directive{}},
		{robots.RequestRate{}, compile.RequestRate{}}, {robots.VisitTime{}, compile.VisitTime{}},
		{robots.Host{}, compile.Host{}}, {robots.CleanParam{}, compile.CleanParam{}},
		{robots.Report{}, compile.Report{}}, {robots.LineReport{}, compile.LineReport{}},
		{robots.LineMetadata{}, compile.LineMetadata{}},
	} {
		ours, theirs := reflect.TypeOf(pair[0]), reflect.TypeOf(pair[1])
		assert.Equal(t, exportedFields(theirs), exportedFields(ours), "robots.%s and compile.%s", ours.Name(), theirs.Name())
	}
}

// exportedFields lists a struct type's exported fields as "Name type",
// the type named without its package.
func exportedFields(typ reflect.Type) []string {
	var out []string
	for f := range typ.Fields() {
		if f.IsExported() {
			out = append(out, f.Name+" "+strings.NewReplacer("compile.", "", "robots.", "").Replace(f.Type.String()))
		}
	}
	return out
}

// TestReportOfIsCompiles: the report robots gives is compile's, line by
// line, bounds included, for every body of the reporting conformance file
// and of the licensed corpus, and for bodies that lone CRs end lines of,
// more lines than their LFs count.
func TestReportOfIsCompiles(t *testing.T) {
	crs := []byte(strings.Repeat("User-agent: a\rDisallow: /x\r\n\r# c\r", 300))
	for _, body := range append(reportBodies(t), crs, crs[:700], []byte("\r\r\r")) {
		ours, theirs := robots.ReportOf(body), compile.NewReport(body, compile.Options{})
		require.Equal(t, [3]int{theirs.LastLine, theirs.Valid, theirs.Unused}, [3]int{ours.LastLine, ours.Valid, ours.Unused})
		require.Len(t, ours.Lines, len(theirs.Lines))
		for i := range theirs.Lines {
			l, o := &theirs.Lines[i], ours.Lines[i]
			require.Equal(t, [4]int{l.Line, l.Start, l.End, int(l.Tag)}, [4]int{o.Line, o.Start, o.End, int(o.Tag)})
			require.Equal(t, [2]bool{l.Typo, l.TooLong}, [2]bool{o.Typo, o.TooLong}, "line %d", l.Line)
			require.Equal(t, l.LineMetadata, compile.LineMetadata(o.LineMetadata), "line %d", l.Line)
			ks, ke := l.KeyBounds()
			vs, ve := l.ValueBounds()
			oks, oke := o.KeyBounds()
			ovs, ove := o.ValueBounds()
			require.Equal(t, [4]int{ks, ke, vs, ve}, [4]int{oks, oke, ovs, ove}, "line %d", l.Line)
		}
	}
}
