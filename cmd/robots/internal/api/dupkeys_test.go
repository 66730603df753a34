package api

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestCheckDuplicateKeys(t *testing.T) {
	for _, tt := range []struct {
		json string
		dup  string // the key named, "" for none
	}{
		{`{}`, ""},
		{`{"a": 1, "b": 2}`, ""},
		{`{"a": 1, "a": 1}`, `"a"`},
		{`{"a": 1, "A": 2}`, `"A"`},
		{`{"k": 1, "\u212a": 2}`, "\"\u212a\""}, // the Kelvin sign folds to k
		{`{"a": {"b": 1, "b": 2}}`, `"b"`},
		{`{"a": {"b": 1}, "b": 2}`, ""},
		{`{"a": [{"b": 1}, {"b": 2}]}`, ""},
		{`{"a": [{"b": 1, "c": [], "b": 2}]}`, `"b"`},
		{`{"a": {}, "a": 1}`, `"a"`},
		{`{"a": [], "b": [[]], "c": {"d": {}}, "e": null}`, ""},
		{`[{"x": 1, "y": {"x": 2}}, {"x": 3}]`, ""},
		{`{"n": 1e999, "n": 2}`, `"n"`},
	} {
		err := checkDuplicateKeys([]byte(tt.json))
		if tt.dup == "" {
			assert.Nil(t, err, tt.json)
			continue
		}
		if assert.NotNil(t, err, tt.json) {
			assert.Equal(t, 400, err.Status)
			assert.Equal(t, "duplicate key "+tt.dup+": give each field once", err.Msg, tt.json)
		}
	}
}
