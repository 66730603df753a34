package compile

import (
	"sync"
	"testing"

	"github.com/fastrobots/robots/automaton"
	"github.com/stretchr/testify/assert"
)

func TestAttachKeepsTheFirstValueAndChargesOnce(t *testing.T) {
	var meter automaton.Meter
	f := Parse([]byte("User-agent: *\nDisallow: /x\n"), Options{})
	rs := f.Compile(f.Resolve("bot"), automaton.Options{Meter: &meter})
	assert.Nil(t, rs.Attached(), "nothing attached yet")
	before := meter.Bytes()

	first, second := new(int), new(int)
	var wg sync.WaitGroup
	got := make([]any, 8)
	for i := range got {
		wg.Go(func() {
			v := first
			if i%2 == 1 {
				v = second
			}
			got[i] = rs.Attach(v, 100)
		})
	}
	wg.Wait()
	kept := rs.Attached()
	assert.NotNil(t, kept)
	for i, g := range got {
		assert.Same(t, kept, g, "call %d returns the value kept", i)
	}
	assert.Equal(t, int64(100+attachmentBytes), meter.Bytes()-before, "charged once, for the first value and its box")
	assert.Same(t, kept, rs.Attach(new(int), 100), "a later value is not kept")
	assert.Equal(t, int64(100+attachmentBytes), meter.Bytes()-before, "nor charged")
}
