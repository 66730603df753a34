package survey

import "github.com/fastrobots/robots/crawlers"

// surveyAgent is an agent a survey answers for, with who operates it.
type surveyAgent struct {
	name     string // as given to Robots.Agent; "*" stands for the '*' groups alone
	operator string
}

// surveyAgentAny is the agent that stands for any crawler: the '*' groups
// alone, read with Robots.Agent and no agent named.
const surveyAgentAny = "*"

// surveyAnyOperator is what the summary says operates surveyAgentAny.
const surveyAnyOperator = "any crawler"

// surveyBaselineTokens are the crawlers of the default list that serve no
// AI product: the two largest search engines' crawlers, against which the
// AI crawlers' figures are read. Each is a row of package crawlers
// (TestSurveyDefaultAgents).
var surveyBaselineTokens = []string{"Googlebot", "Bingbot"}

// surveyDefaultAgents is the agent list of a survey without --agents: the
// baseline crawlers, any crawler, then the AI crawlers of package crawlers
// (crawlers.Default), in the table's order. The table is the one source of
// the tokens and their operators; docs/survey.md lists the result.
var surveyDefaultAgents = defaultSurveyAgents()

func defaultSurveyAgents() []surveyAgent {
	var agents []surveyAgent
	for _, token := range surveyBaselineTokens {
		c, _ := crawlers.Lookup(token)
		agents = append(agents, surveyAgent{c.Token, c.Operator})
	}
	agents = append(agents, surveyAgent{surveyAgentAny, surveyAnyOperator})
	for _, c := range crawlers.Default() {
		agents = append(agents, surveyAgent{c.Token, c.Operator})
	}
	return agents
}

// surveyAgentNames returns the names of agents, in order.
func surveyAgentNames(agents []surveyAgent) []string {
	names := make([]string, len(agents))
	for i, a := range agents {
		names[i] = a.name
	}
	return names
}

// surveyOperator returns who operates the agent name, by the crawler
// table (a token in any ASCII case, as robots.txt compares them):
// surveyAnyOperator for "*", "" for a token the table does not hold.
func surveyOperator(name string) string {
	if name == surveyAgentAny {
		return surveyAnyOperator
	}
	if c, ok := crawlers.Lookup(name); ok {
		return c.Operator
	}
	return ""
}
