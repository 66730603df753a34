package crawlers_test

import (
	"net/url"
	"slices"
	"strings"
	"testing"

	"github.com/fastrobots/robots"
	"github.com/fastrobots/robots/crawlers"
	"github.com/fastrobots/robots/usage"
)

// TestTokensUnique checks that no two rows share a token, compared
// without ASCII case as robots.txt compares User-agent values.
func TestTokensUnique(t *testing.T) {
	seen := map[string]string{}
	for _, c := range crawlers.All() {
		key := strings.ToLower(c.Token)
		if prev, ok := seen[key]; ok {
			t.Errorf("%q and %q are one token", prev, c.Token)
		}
		seen[key] = c.Token
	}
}

// TestTokensAreProductTokens checks that every token is read whole as a
// product token, so that a User-agent line writing it selects the group.
func TestTokensAreProductTokens(t *testing.T) {
	for _, c := range crawlers.All() {
		if got := robots.ProductToken(c.Token); got != c.Token {
			t.Errorf("ProductToken(%q) = %q", c.Token, got)
		}
		if got := robots.ProductToken(c.Token + "/1.0 (+https://example.com/bot)"); got != c.Token {
			t.Errorf("ProductToken of %q's User-Agent = %q", c.Token, got)
		}
	}
}

// TestRowsComplete checks every row: an operator, the words it rests on,
// and an https URL of a page; a purpose, except where no page of the
// operator states one.
func TestRowsComplete(t *testing.T) {
	for _, c := range crawlers.All() {
		u, err := url.Parse(c.URL)
		if err != nil || u.Scheme != "https" || u.Host == "" {
			t.Errorf("%s: URL %q is not an https page", c.Token, c.URL)
		}
		if c.Operator == "" || c.Says == "" {
			t.Errorf("%s: operator or words missing: %+v", c.Token, c)
		}
		if c.Purpose == 0 && c.Robots != crawlers.NotStated {
			t.Errorf("%s: no purpose, yet its operator's page states its robots.txt stance", c.Token)
		}
	}
}

// TestTable2026 checks that the tokens webmasters write in 2026 are all
// in the table, and the stance of the fetchers whose operators say
// robots.txt may not apply to them.
func TestTable2026(t *testing.T) {
	for _, token := range strings.Fields(`OAI-SearchBot GPTBot ChatGPT-User OAI-AdsBot ClaudeBot
		Claude-SearchBot Claude-User PerplexityBot Perplexity-User Google-Extended GoogleOther
		Google-CloudVertexBot Googlebot Bingbot Applebot Applebot-Extended meta-externalagent
		meta-externalfetcher meta-webindexer Amazonbot Amzn-SearchBot Amzn-User CCBot Bytespider
		MistralAI-User DuckAssistBot`) {
		if _, ok := crawlers.Lookup(token); !ok {
			t.Errorf("%s is not in the table", token)
		}
	}
	var ignoring []string
	for _, c := range crawlers.All() {
		if c.Robots == crawlers.MayIgnore {
			ignoring = append(ignoring, c.Token)
			if c.Purpose&crawlers.UserFetch == 0 {
				t.Errorf("%s may ignore robots.txt, yet is not a user-triggered fetcher", c.Token)
			}
		}
	}
	if want := []string{"ChatGPT-User", "Perplexity-User", "meta-externalfetcher", "Amzn-User"}; !slices.Equal(ignoring, want) {
		t.Errorf("fetchers that may ignore robots.txt: %v, want %v", ignoring, want)
	}
}

// TestLookup checks that a token is found in any ASCII case, that an
// unknown one is not, and that the row returned is a copy.
func TestLookup(t *testing.T) {
	for _, token := range []string{"GPTBot", "gptbot", "GPTBOT", "Meta-ExternalAgent", "bingbot"} {
		if c, ok := crawlers.Lookup(token); !ok || !strings.EqualFold(c.Token, token) {
			t.Errorf("Lookup(%q) = %+v, %v", token, c, ok)
		}
	}
	for _, token := range []string{"", "GPTBot/1.0", "GPT", "*", "anthropic-ai"} {
		if c, ok := crawlers.Lookup(token); ok {
			t.Errorf("Lookup(%q) found %+v", token, c)
		}
	}
	all := crawlers.All()
	all[0].Token = "changed"
	if crawlers.All()[0].Token == "changed" {
		t.Error("All returned the table itself")
	}
}

// TestDefaultIsTheAICrawlers checks the survey's default set: the AI
// crawlers in table order, every crawler that trains, fetches for an AI
// assistant's user or controls AI use among them, and the search engines
// and the crawlers for no AI product left out.
func TestDefaultIsTheAICrawlers(t *testing.T) {
	var want []string
	for _, c := range crawlers.All() {
		if c.AI {
			want = append(want, c.Token)
		}
	}
	var got []string
	for _, c := range crawlers.Default() {
		got = append(got, c.Token)
	}
	if !slices.Equal(got, want) {
		t.Errorf("Default = %v, want the AI rows %v", got, want)
	}
	for _, c := range crawlers.All() {
		if c.Purpose&(crawlers.Training|crawlers.UserFetch|crawlers.AIInput|crawlers.UsageControl) != 0 && !c.AI {
			t.Errorf("%s (%v) is not in the default set", c.Token, c.Purpose)
		}
	}
	for _, token := range []string{"GPTBot", "ClaudeBot", "CCBot", "Google-Extended", "Applebot-Extended", "Bytespider", "meta-externalagent", "Amazonbot", "PerplexityBot", "OAI-SearchBot", "ChatGPT-User"} {
		if !slices.Contains(got, token) {
			t.Errorf("%s is not in the default set", token)
		}
	}
	for _, token := range []string{"Googlebot", "Bingbot", "GoogleOther", "OAI-AdsBot"} {
		if slices.Contains(got, token) {
			t.Errorf("%s, which serves no AI product by its operator's page, is in the default set", token)
		}
	}
}

// TestWithPurpose checks the rows of a purpose.
func TestWithPurpose(t *testing.T) {
	for _, c := range crawlers.WithPurpose(crawlers.UserFetch) {
		if c.Purpose&crawlers.UserFetch == 0 {
			t.Errorf("%s is not a user-triggered fetcher", c.Token)
		}
	}
	if n := len(crawlers.WithPurpose(crawlers.UserFetch)); n != 6 {
		t.Errorf("%d user-triggered fetchers, want 6", n)
	}
	if len(crawlers.WithPurpose(0)) != 0 {
		t.Error("no purpose matched rows")
	}
}

// TestUsagePurposes checks the questions a row asks package usage.
func TestUsagePurposes(t *testing.T) {
	for token, want := range map[string][]usage.Purpose{
		"GPTBot":          {usage.PurposeTrain},
		"OAI-SearchBot":   {usage.PurposeSearch},
		"ChatGPT-User":    {usage.PurposeAIUse},
		"DuckAssistBot":   {usage.PurposeAIUse},
		"Applebot":        {usage.PurposeTrain, usage.PurposeSearch},
		"Google-Extended": {usage.PurposeTrain, usage.PurposeAIUse},
		"OAI-AdsBot":      nil,
	} {
		c, _ := crawlers.Lookup(token)
		if got := c.UsagePurposes(); !slices.Equal(got, want) {
			t.Errorf("%s: UsagePurposes = %v, want %v", token, got, want)
		}
	}
}

// TestStrings checks the names the table prints.
func TestStrings(t *testing.T) {
	if s := (crawlers.Training | crawlers.SearchIndex).String(); s != "training, search index" {
		t.Errorf("Purpose.String = %q", s)
	}
	if s := crawlers.Purpose(0).String(); s != "not stated" {
		t.Errorf("no purpose: %q", s)
	}
	if crawlers.Follows.String() != "yes" || crawlers.MayIgnore.String() != "no" || crawlers.NotStated.String() != "not stated" {
		t.Error("Robots.String")
	}
}
