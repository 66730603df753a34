package robots

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// usageMemoryFile is a file whose '*' groups carry Content-Usage and
// Content-Signal lines, and the same file without them.
func usageMemoryFile() (plain, mixed string) {
	var p, m strings.Builder
	p.WriteString("User-agent: *\nDisallow: /private/\n\nUser-agent: Googlebot\nDisallow: /nogoogle/\n")
	m.WriteString("User-agent: *\nContent-Signal: search=yes, ai-train=no\nDisallow: /private/\n")
	for i := range 50 {
		m.WriteString("Content-Usage: /section-with-a-long-name-" + strings.Repeat("x", i) + "/ train-ai=n, search=y\n")
	}
	m.WriteString("\nUser-agent: Googlebot\nDisallow: /nogoogle/\n")
	return p.String(), m.String()
}

// TestUsageMemoryCounted checks that the usage lines an agent reads are
// counted in MemoryBytes: the first Usage call adds at least the bytes
// the prepared lines hold, a second agent of the same groups adds nothing,
// and the file with the lines reports more than the file without by at
// least those bytes.
func TestUsageMemoryCounted(t *testing.T) {
	const page = "https://example.com/section-with-a-long-name-xx/a"
	plain, mixed := usageMemoryFile()

	r := Parse([]byte(mixed))
	a := r.Agent("ExampleBot").Compile()
	before := r.MemoryBytes()
	require.Equal(t, "no", a.Usage(page).MayTrain().Value.String())
	set := a.usage.Load()
	require.NotNil(t, set)
	held := int64(set.MemoryBytes())
	patterns := 0
	for i := range 50 {
		patterns += len("/section-with-a-long-name-/") + i
	}
	assert.GreaterOrEqual(t, held, int64(patterns), "the set holds every pattern's bytes")
	assert.GreaterOrEqual(t, r.MemoryBytes()-before, held, "the first Usage call adds the set")

	again := r.MemoryBytes()
	r.Agent("OtherBot").Compile().Usage(page)
	assert.Equal(t, again, r.MemoryBytes(), "an agent of the same groups shares the set")

	p := Parse([]byte(plain))
	p.Agent("ExampleBot").Compile().Usage(page)
	assert.GreaterOrEqual(t, r.MemoryBytes()-p.MemoryBytes(), held,
		"the file with usage lines reports more than the file without by at least the bytes held")
}
