package main

import (
	"encoding/base64"
	"encoding/json"
	"io"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/fastrobots/robots"
	"github.com/fastrobots/robots/internal/testkit/memstat"
)

// readLong reads line as a long query and returns what it keeps, and the
// robots.txt it gives, or why not.
func readLong(t *testing.T, line string) (*longQuery, []byte, error) {
	t.Helper()
	d := new(longQuery)
	_, err := io.WriteString(d, line)
	require.NoError(t, err)
	require.False(t, d.inString)
	var q evalQuery
	require.NoError(t, json.Unmarshal(d.small, &q))
	body, err := d.bodyOf(&q)
	return d, body, err
}

// TestLongQueryDecodesAsEncodingJSON decodes long robotstxt strings,
// written with every kind of escape, surrogate pairs, lone surrogates and
// bytes that are not UTF-8, and checks that the bytes kept are the first
// evalBodyBytes of what encoding/json decodes, and that the base64 of a
// body decodes to its first bytes, written plainly or with escapes and
// line breaks.
func TestLongQueryDecodesAsEncodingJSON(t *testing.T) {
	pieces := []string{"a", "/", " ", `\n`, `\t`, `\"`, `\\`, `\/`, `\u00e9`, `\ud83d\ude00`, `\ud83d`, `\ude00x`, "é", "ツ", "\xff", "\xe3\x83", `\u0041`, "Disallow: /x"}
	r := rand.New(rand.NewPCG(1, 2))
	for round := range 3 {
		var raw strings.Builder
		for raw.Len() < evalBodyBytes*3/2 {
			raw.WriteString(pieces[r.IntN(len(pieces))])
		}
		var want string
		require.NoError(t, json.Unmarshal([]byte(`"`+raw.String()+`"`), &want), "round %d", round)
		_, body, err := readLong(t, `{"robotstxt":"`+raw.String()+`"}`)
		require.NoError(t, err)
		assert.Equal(t, want[:evalBodyBytes], string(body), "round %d", round)

		enc := base64.StdEncoding.EncodeToString([]byte(want))
		_, body, err = readLong(t, `{"robotstxt_b64":"`+enc+`"}`)
		require.NoError(t, err)
		assert.Equal(t, want[:evalBodyBytes], string(body), "round %d: base64", round)

		var escaped strings.Builder // "/" and "A" escaped, a line break every 76 characters
		for i, c := range []byte(enc) {
			if i%76 == 0 {
				escaped.WriteString([]string{`\n`, `\r\n`, `\u000a`}[i%3])
			}
			switch c {
			case '/':
				escaped.WriteString(`\/`)
			case 'A':
				escaped.WriteString(`\u0041`)
			default:
				escaped.WriteByte(c)
			}
		}
		_, body, err = readLong(t, `{"robotstxt_b64":"`+escaped.String()+`"}`)
		require.NoError(t, err)
		assert.Equal(t, want[:evalBodyBytes], string(body), "round %d: base64 with escapes", round)
	}
}

// TestLongQueryBoundsTheOtherMembers checks that the members kept as
// written may hold evalLineRoom bytes in all, and no more.
func TestLongQueryBoundsTheOtherMembers(t *testing.T) {
	for _, tt := range []struct {
		name string
		n    int
		ok   bool
	}{
		{"within", evalLineRoom - 100, true},
		{"past", evalLineRoom + 1, false},
	} {
		t.Run(tt.name, func(t *testing.T) {
			line := `{"robotstxt":"` + strings.Repeat("#", maxEvalLine) + `","useragent":"a","url":"/` + strings.Repeat("u", tt.n) + `"}`
			ans := newEvaluator(robots.WithMode(robots.Google)).answerLong([]byte(line[:maxEvalLine]), strings.NewReader(line[maxEvalLine:]))
			if tt.ok {
				assert.Empty(t, ans.Error)
				return
			}
			assert.Contains(t, ans.Error, "hold more than 65536 bytes")
		})
	}
}

// TestLongStringsOfOnePieceStayBounded reads long strings made of one
// piece repeated, escapes and bytes past ASCII among them, and checks that
// what is kept of them stays within evalTextUnits units, and decodes to
// the first evalBodyBytes bytes of what the whole string does.
func TestLongStringsOfOnePieceStayBounded(t *testing.T) {
	for _, piece := range []string{"a", `\n`, `\u00e9`, `\ud83d\ude00`, `\ud83d`, "é", "\x80", "\xe3\x83", "\xf0\x9f\x98\x80"} {
		raw := strings.Repeat(piece, evalTextUnits+8)
		var want string
		require.NoError(t, json.Unmarshal([]byte(`"`+raw+`"`), &want))
		d, body, err := readLong(t, `{"robotstxt":"`+raw+`"}`)
		require.NoError(t, err, "%q", piece)
		assert.LessOrEqual(t, len(d.text.kept), evalTextUnits*len(`\u00e9`), "%q", piece)
		assert.Equal(t, want[:evalBodyBytes], string(body), "%q", piece)
	}
}

// TestLongBase64ErrorsAsDecodeString checks that a long robotstxt_b64
// that does not decode gets the error base64.StdEncoding.DecodeString
// gives for the whole string, past the bytes kept as well as within them.
func TestLongBase64ErrorsAsDecodeString(t *testing.T) {
	enc := base64.StdEncoding.EncodeToString([]byte(strings.Repeat("Disallow: /x\n", evalBodyBytes/8)))
	require.Greater(t, len(enc), base64.StdEncoding.EncodedLen(evalBodyBytes)+100, "the late errors are past the bytes kept")
	for name, s := range map[string]string{
		"a bad byte late":         enc[:len(enc)-100] + "!" + enc[len(enc)-99:],
		"a bad byte early":        enc[:100] + "\xc3\xa9" + enc[100:],
		"a rune past ASCII":       enc[:len(enc)-8] + `\u00e9` + enc[len(enc)-7:],
		"a quantum unfinished":    enc + "QQ",
		"one character too many":  enc + "Q",
		"padding, then more":      enc[:len(enc)-4] + "QQ==QUFB",
		"padding one short":       enc[:len(enc)-4] + "QQ=",
		"padding too soon":        enc[:len(enc)-4] + "Q===",
		"padding after a quantum": enc + "====",
	} {
		var want string
		require.NoError(t, json.Unmarshal([]byte(`"`+s+`"`), &want))
		_, wantErr := base64.StdEncoding.DecodeString(want)
		require.Error(t, wantErr, name)
		_, _, err := readLong(t, `{"robotstxt_b64":"`+s+`"}`)
		assert.Equal(t, badRobotsB64(wantErr), err, name)
	}
}

// TestLongLineAllocatesWithinBounds answers lines whose robots.txt is 20
// MiB long, in either field, and checks that it allocates a few MiB for
// each: the line goes through, not into memory.
func TestLongLineAllocatesWithinBounds(t *testing.T) {
	const size = 20 << 20
	ev := newEvaluator(robots.WithMode(robots.Google))
	for _, tt := range []struct {
		field string
		fill  byte
	}{{"robotstxt", 'a'}, {"robotstxt_b64", 'Q'}} {
		var ans evalAnswer
		allocated := memstat.AllocatedBy(func() {
			ans = ev.answerLong(nil, io.MultiReader(strings.NewReader(`{"id":1,"`+tt.field+`":"`),
				io.LimitReader(&endless{fill: tt.fill}, size), strings.NewReader(`","useragent":"a","url":"/"}`)))
		})
		require.Empty(t, ans.Error, tt.field)
		t.Logf("%s: a %d MiB line allocates %d KiB", tt.field, size>>20, allocated>>10)
		assert.Less(t, allocated, uint64(8<<20), tt.field)
	}
}
