package survey

// surveyAgent is an agent a survey answers for, with who operates it.
type surveyAgent struct {
	name     string // as given to Robots.Agent; "*" stands for the '*' groups alone
	operator string
}

// surveyAgentAny is the agent that stands for any crawler: the '*' groups
// alone, read with Robots.Agent and no agent named.
const surveyAgentAny = "*"

// surveyDefaultAgents is the agent list of a survey without --agents:
// Google's and Bing's crawlers, any crawler, and the AI crawlers and usage
// tokens sites name today. docs/survey.md lists them with what each
// does. A usage token (Google-Extended, Applebot-Extended) fetches
// nothing: sites name it to say what the operator's other crawlers'
// fetches may be used for.
var surveyDefaultAgents = []surveyAgent{
	{"Googlebot", "Google"},
	{"Bingbot", "Microsoft"},
	{surveyAgentAny, "any crawler"},
	{"GPTBot", "OpenAI"},
	{"OAI-SearchBot", "OpenAI"},
	{"ChatGPT-User", "OpenAI"},
	{"ClaudeBot", "Anthropic"},
	{"anthropic-ai", "Anthropic"},
	{"Claude-SearchBot", "Anthropic"},
	{"CCBot", "Common Crawl"},
	{"Google-Extended", "Google (usage token)"},
	{"Applebot-Extended", "Apple (usage token)"},
	{"PerplexityBot", "Perplexity"},
	{"Bytespider", "ByteDance"},
	{"meta-externalagent", "Meta"},
	{"Amazonbot", "Amazon"},
	{"cohere-ai", "Cohere"},
}

// surveyAgentNames returns the names of agents, in order.
func surveyAgentNames(agents []surveyAgent) []string {
	names := make([]string, len(agents))
	for i, a := range agents {
		names[i] = a.name
	}
	return names
}

// surveyOperator returns the operator of a default agent, or "".
func surveyOperator(name string) string {
	for _, a := range surveyDefaultAgents {
		if a.name == name {
			return a.operator
		}
	}
	return ""
}
