package compile

import "github.com/fastrobots/robots/automaton"

// Classify returns a witness of each verdict some path gets under the
// rule set (automaton.Set.Classify). It builds the automaton only when the
// rules' own paths do not decide (automaton.ClassifyPatterns). The paths
// explored are subjects as the rules match them: in a dialect that
// rewrites paths (RFC mode) a witness is a rewritten path, which the
// caller confirms with Decide.
func (rs *RuleSet) Classify() automaton.Classification {
	c := automaton.ClassifyPatterns(rs.patterns(), rs.compile)
	if c.Allowed == "" && rs.file.dialect.ImplicitRobotsTxt {
		c.Allowed = robotsTxtPath // allowed whatever the rules say
	}
	return c
}
