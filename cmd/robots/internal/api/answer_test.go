package api

import (
	"context"
	"fmt"
	"net/http"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestAnswerLimit(t *testing.T) {
	v := map[string]string{"a": strings.Repeat("x", 100)}
	size := len(`{"a":""}`) + 100 + len("\n")
	for _, tt := range []struct {
		limit int
		ok    bool
	}{{size, true}, {size - 1, false}, {size + 1, true}} {
		body, err := Encode(context.Background(), PlainAnswer{v}, tt.limit)
		if !tt.ok {
			require.NotNil(t, err, "limit %d", tt.limit)
			assert.Equal(t, http.StatusRequestEntityTooLarge, err.Status)
			assert.Contains(t, err.Msg, fmt.Sprintf("the answer would be larger than %d bytes", tt.limit))
			continue
		}
		require.Nil(t, err, "limit %d", tt.limit)
		assert.Len(t, body, size)
	}
	assert.Equal(t, AnswerBaseBytes+AnswerBytesPerInputByte*1000, AnswerLimit(1000))
}

func TestObjectAnswerStopsAtTheDeadline(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	calls := 0
	a := objectAnswer{name: "results", count: 10, item: func(i int) (any, error) {
		calls++
		if i == 2 {
			cancel()
		}
		return i, nil
	}}
	_, err := Encode(ctx, a, AnswerBaseBytes)
	require.NotNil(t, err)
	assert.Equal(t, http.StatusServiceUnavailable, err.Status)
	assert.Equal(t, 3, calls, "no item is made past the deadline")

	body, err := Encode(context.Background(), objectAnswer{heads: []namedValue{{"skipped", nil}, {"h", 1}}, name: "results", count: 3,
		item: func(i int) (any, error) { return i, nil }}, AnswerBaseBytes)
	require.Nil(t, err)
	assert.Equal(t, `{"h":1,"results":[0,1,2]}`+"\n", string(body))
}
