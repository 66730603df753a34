package main

import (
	"bufio"
	"encoding/base64"
	"encoding/json"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/fastrobots/robots"
)

// TestLongQueryDecodesAsEncodingJSON decodes long robotstxt strings,
// written with every kind of escape, surrogate pairs, lone surrogates and
// bytes that are not UTF-8 across many chunk boundaries, and checks that
// the bytes kept are the first evalBodyBytes of what encoding/json
// decodes, and that the base64 of a body decodes to its first bytes.
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
		d := longQueryDecoder{r: bufio.NewReader(strings.NewReader(`{"robotstxt":"` + raw.String() + `"}`))}
		require.NoError(t, d.object())
		body, err := d.body()
		require.NoError(t, err)
		assert.Equal(t, want[:evalBodyBytes], string(body), "round %d", round)

		d = longQueryDecoder{r: bufio.NewReader(strings.NewReader(`{"robotstxt_b64":"` + base64.StdEncoding.EncodeToString([]byte(want)) + `"}`))}
		require.NoError(t, d.object())
		body, err = d.body()
		require.NoError(t, err)
		assert.Equal(t, want[:evalBodyBytes], string(body), "round %d: base64", round)
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

// TestLongStringChunksStayBounded reads long strings made of one piece
// repeated, escapes and bytes past ASCII among them, and checks that no
// chunk handed to the sink passes evalChunkBytes by more than one piece,
// and that the chunks decode, one by one, to what the whole string does.
func TestLongStringChunksStayBounded(t *testing.T) {
	for _, piece := range []string{"a", `\n`, `\u00e9`, `\ud83d\ude00`, `\ud83d`, "é", "\x80", "\xe3\x83", "\xf0\x9f\x98\x80"} {
		raw := strings.Repeat(piece, 4*evalChunkBytes/len(piece))
		d := longQueryDecoder{r: bufio.NewReaderSize(strings.NewReader(raw+`"`), evalChunkBytes)}
		var got strings.Builder
		longest := 0
		err := d.stringBody(func(chunk []byte) error {
			longest = max(longest, len(chunk))
			var s string
			if err := json.Unmarshal([]byte(`"`+string(chunk)+`"`), &s); err != nil {
				return err
			}
			got.WriteString(s)
			return nil
		})
		require.NoError(t, err, "%q", piece)
		var want string
		require.NoError(t, json.Unmarshal([]byte(`"`+raw+`"`), &want))
		assert.LessOrEqual(t, longest, evalChunkBytes+len(piece), "%q", piece)
		assert.Equal(t, want, got.String(), "%q", piece)
	}
}
