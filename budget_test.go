package robots_test

import (
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/fastrobots/robots"
	"github.com/fastrobots/robots/automaton"
)

// WithAutomatonBudget keeps the options' convention: zero is the default,
// a negative value no limit beyond automaton.MaxBudget, which also caps a
// larger budget.
func TestWithAutomatonBudget(t *testing.T) {
	for _, c := range []struct {
		name string
		opts []robots.Option
		want int
	}{
		{"no option", nil, robots.DefaultAutomatonBudget},
		{"zero is the default", []robots.Option{robots.WithAutomatonBudget(0)}, robots.DefaultAutomatonBudget},
		{"positive is the budget", []robots.Option{robots.WithAutomatonBudget(64 << 10)}, 64 << 10},
		{"negative is the hard maximum", []robots.Option{robots.WithAutomatonBudget(-1)}, automaton.MaxBudget},
		{"above the maximum is capped", []robots.Option{robots.WithAutomatonBudget(automaton.MaxBudget + 1)}, automaton.MaxBudget},
	} {
		r := robots.Parse([]byte("User-agent: *\nDisallow: /a*b\n"), c.opts...)
		a := r.Agent("Googlebot").Compile()
		assert.Equal(t, c.want, a.Stats().Budget, c.name)
	}
	assert.Equal(t, 2<<20, robots.DefaultAutomatonBudget)
	assert.Equal(t, 1<<30, automaton.MaxBudget)
}
