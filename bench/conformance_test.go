package bench

import (
	"testing"

	"github.com/stretchr/testify/require"
)

// TestFastrobotsConforms checks that fastrobots, through its adapter (the
// URL reduced to its path by PathOf), reaches the reference's verdict on
// every case of the committed sets.
func TestFastrobotsConforms(t *testing.T) {
	want := map[string]int{"spec-test": 400, "google-unit": 145, "generated": 35414}
	for _, set := range ConformanceSets() {
		if set.Shared {
			continue
		}
		cases, err := LoadCases(set)
		require.NoError(t, err)
		tally := Conform(fastrobotsLib{}, cases)
		require.Equal(t, want[set.Name], tally.Cases, set.Name)
		require.Zero(t, tally.Disagreements, "%s: first disagreements %v", set.Name, tally.First)
		require.Zero(t, tally.Panics, set.Name)
	}
}

// constLib answers every question with allowed, or panics in Parse.
type constLib struct {
	allowed, panics bool
}

func (constLib) Name() string                          { return "const" }
func (constLib) Input() Input                          { return InputPath }
func (l constLib) OneShot([]byte, string, string) bool { return l.allowed }
func (l constLib) Compile(string) Checker              { return l }
func (l constLib) Allowed(string) bool                 { return l.allowed }
func (l constLib) Parse([]byte) (Parsed, error) {
	if l.panics {
		panic("parse")
	}
	return l, nil
}

func TestConformCounts(t *testing.T) {
	cases := []Case{
		{ID: "a", URL: "https://x/a", Allowed: true},
		{ID: "b", URL: "https://x/b", Allowed: false},
		{ID: "c", URL: "https://x/c", Allowed: false},
	}
	tally := Conform(constLib{allowed: true}, cases)
	require.Equal(t, Tally{Cases: 3, Disagreements: 2, First: []string{"b", "c"}}, tally)
	tally = Conform(constLib{allowed: false}, cases)
	require.Equal(t, Tally{Cases: 3, Disagreements: 1, First: []string{"a"}}, tally)
	tally = Conform(constLib{panics: true}, cases)
	require.Equal(t, Tally{Cases: 3, Disagreements: 3, Panics: 3, First: []string{"a", "b", "c"}}, tally)
}

func TestLoadCasesAbsent(t *testing.T) {
	_, err := LoadCases(ConformanceSet{Name: "x", Path: "testdata/no-such-set.jsonl"})
	require.True(t, Absent(err), "%v", err)
}

// TestOneShotMatchesChecker checks that each adapter's OneShot reaches the
// verdict of its Parse, Compile and Allowed on the cases of the committed
// sets (all of them for slyrz, whose Compile assembles robots.New from its
// exported steps; the two smaller ones for the others): a case where the
// two ways differ means an adapter does not use its library as documented.
func TestOneShotMatchesChecker(t *testing.T) {
	sets := map[string][]Case{}
	for _, set := range ConformanceSets() {
		if set.Shared {
			continue
		}
		cases, err := LoadCases(set)
		require.NoError(t, err)
		sets[set.Name] = cases
	}
	for _, lib := range Libs() {
		for name, cases := range sets {
			if name == "generated" && lib.Name() != "slyrz" {
				continue
			}
			differ := 0
			for i := range cases {
				c := &cases[i]
				in := InputOf(lib, c.URL)
				one, onePanicked := recovered(func() bool { return lib.OneShot(c.Body, c.Agent, in) })
				two, twoPanicked := recovered(func() bool { return checkOnce(lib, c.Body, c.Agent, in) })
				if one != two || onePanicked != twoPanicked {
					differ++
					if differ <= 3 {
						t.Errorf("%s: %s: OneShot = %v (panicked %v), Parse/Compile/Allowed = %v (panicked %v)",
							lib.Name(), c.ID, one, onePanicked, two, twoPanicked)
					}
				}
			}
			require.Zero(t, differ, "%s on %s", lib.Name(), name)
		}
	}
}

// checkOnce answers as Conform does: a refused body allows everything.
func checkOnce(lib Lib, body []byte, agent, in string) bool {
	p, err := lib.Parse(body)
	if err != nil {
		return true
	}
	return p.Compile(agent).Allowed(in)
}

func recovered(f func() bool) (v, panicked bool) {
	defer func() {
		if recover() != nil {
			v, panicked = false, true
		}
	}()
	return f(), false
}
