package fetch

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/fastrobots/robots/usage"
)

// TestVerdictUsage checks that a verdict carries the file's preferences
// for its URL, combined with the robots.txt response's Content-Usage
// field, and none for a URL the crawler may not fetch.
func TestVerdictUsage(t *testing.T) {
	body := "Content-Signal: ai-train=no\nUser-agent: *\nDisallow: /private/\nContent-Usage: /blog/ train-ai=y\n"
	s := serve(t, text(200, body, usage.HeaderName, "search=n"))
	c := NewChecker(NewCache(fetcher(t, nil), CacheOptions{}))
	ctx := t.Context()

	v, err := c.Decide(ctx, "ExampleBot", s.URL+"/blog/post")
	require.NoError(t, err)
	assert.Equal(t, usage.Yes, v.Usage.Category(usage.TrainAI).Value)
	assert.Equal(t, 4, v.Usage.Category(usage.TrainAI).Line)
	assert.Equal(t, usage.No, v.Usage.Category(usage.Search).Value, "the header's search=n")
	assert.Equal(t, usage.SourceHeader, v.Usage.Category(usage.Search).Source)
	assert.Equal(t, usage.No, v.Usage.Signal(usage.SignalAITrain).Value)

	v, err = c.Decide(ctx, "ExampleBot", s.URL+"/page")
	require.NoError(t, err)
	assert.Equal(t, usage.Unknown, v.Usage.Category(usage.TrainAI).Value)
	assert.Equal(t, usage.Decision{Value: usage.No, Line: 1, Source: usage.SourceContentSignal}, v.Usage.MayTrain())

	v, err = c.Decide(ctx, "ExampleBot", s.URL+"/private/x")
	require.NoError(t, err)
	assert.False(t, v.Usage.Allowed)
	assert.Equal(t, usage.Usage{}, v.Usage, "a URL that may not be fetched has no preference")
}

// TestVerdictUsageWithoutLines checks the header alone when the file has
// no usage line.
func TestVerdictUsageWithoutLines(t *testing.T) {
	s := serve(t, text(200, "User-agent: *\nDisallow: /private/\n", usage.HeaderName, "train-ai=n"))
	c := NewChecker(NewCache(fetcher(t, nil), CacheOptions{}))
	v, err := c.Decide(t.Context(), "ExampleBot", s.URL+"/page")
	require.NoError(t, err)
	assert.True(t, v.Usage.Allowed)
	assert.Equal(t, usage.Decision{Value: usage.No, Source: usage.SourceHeader}, v.Usage.MayTrain())
	v, err = c.Decide(t.Context(), "ExampleBot", s.URL+"/private/x")
	require.NoError(t, err)
	assert.Equal(t, usage.Usage{}, v.Usage)
}

// TestContentUsageBound checks that a Content-Usage field of several
// lines is read while its lines joined are within usage.MaxValueBytes,
// and ignored, as if absent, past it.
func TestContentUsageBound(t *testing.T) {
	const first = "train-ai=n"
	for _, tc := range []struct {
		n    int // the joined field's length
		want usage.Value
	}{
		{usage.MaxValueBytes, usage.No},
		{usage.MaxValueBytes + 1, usage.Unknown},
	} {
		// A second line of one long unknown key: "k...k=n".
		second := strings.Repeat("k", tc.n-len(first)-len(", ")-len("=n")) + "=n"
		s := serve(t, text(200, "User-agent: *\nDisallow:\n", usage.HeaderName, first, usage.HeaderName, second))
		c := NewChecker(NewCache(fetcher(t, nil), CacheOptions{}))
		d, err := c.Decide(t.Context(), "ExampleBot", s.URL+"/page")
		require.NoError(t, err)
		assert.Equal(t, tc.want, d.Usage.MayTrain().Value, "a field of %d bytes", tc.n)
	}
}
