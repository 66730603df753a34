package robots_test

import (
	"go/ast"
	"go/doc"
	"go/parser"
	"go/token"
	"path/filepath"
	"reflect"
	"regexp"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/fastrobots/robots"
)

// TestAliasDocsNameEveryField holds the doc comment of each data type
// robots names from compile (types.go, report.go) to the type's exported
// fields, which go doc does not show under robots: a field added to the
// type and not to its doc fails here.
func TestAliasDocsNameEveryField(t *testing.T) {
	fset := token.NewFileSet()
	names, err := filepath.Glob("*.go")
	require.NoError(t, err)
	var files []*ast.File
	for _, name := range names {
		if strings.HasSuffix(name, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(fset, name, nil, parser.ParseComments)
		require.NoError(t, err)
		files = append(files, f)
	}
	p, err := doc.NewFromFiles(fset, files, "github.com/fastrobots/robots")
	require.NoError(t, err)
	docs := map[string]string{}
	for _, typ := range p.Types {
		if spec, ok := typ.Decl.Specs[0].(*ast.TypeSpec); ok && spec.Assign.IsValid() {
			docs[typ.Name] = typ.Doc
		}
	}
	for _, v := range []any{
		robots.Group{}, robots.AgentLine{}, robots.Rule{}, robots.Directive{}, robots.RequestRate{},
		robots.VisitTime{}, robots.Host{}, robots.CleanParam{}, robots.Report{}, robots.LineReport{}, robots.LineMetadata{},
	} {
		typ := reflect.TypeOf(v)
		d, ok := docs[typ.Name()]
		require.True(t, ok, "%s is not an alias declared in robots", typ.Name())
		for f := range typ.Fields() {
			if !f.IsExported() {
				continue
			}
			if f.Anonymous {
				assert.Contains(t, d, f.Name, "%s embeds %s", typ.Name(), f.Name)
				continue
			}
			// "Name type", or "Name, Other type" for fields that share it.
			want := `\b` + f.Name + `\b(?:,\s+\w+)*\s+` + regexp.QuoteMeta(strings.ReplaceAll(f.Type.String(), "compile.", ""))
			assert.Regexp(t, want, d, "the doc of robots.%s names its field %s and its type", typ.Name(), f.Name)
		}
	}
}
