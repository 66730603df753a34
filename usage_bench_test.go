package robots_test

import (
	"os"
	"strings"
	"testing"

	"github.com/fastrobots/robots"
)

// managedBlock is the shape of the block Cloudflare's managed robots.txt
// puts before a site's own file: comments on the signals, a '*' group with
// Content-Signal, and the AI crawlers it blocks.
const managedBlock = `# The Content-Signal line below states how this site's content may be
# used: search (a search index), ai-input (answers at query time) and
# ai-train (training or fine-tuning models). yes allows a use, no asks
# not to; a use not named is neither allowed nor refused.
User-agent: *
Content-Signal: search=yes,ai-train=no
Allow: /

User-agent: GPTBot
Disallow: /

User-agent: CCBot
Disallow: /

`

// realisticWithUsage returns the benchmark module's realistic file with
// managedBlock before it and Content-Usage lines after its user-agent
// lines, as a site stating preferences to every crawler would write it.
func realisticWithUsage(b *testing.B) (plain, mixed []byte) {
	plain, err := os.ReadFile("bench/testdata/realistic.txt")
	if err != nil {
		b.Skip(err)
	}
	var sb strings.Builder
	sb.WriteString(managedBlock)
	for _, line := range strings.SplitAfter(string(plain), "\n") {
		sb.WriteString(line)
		if strings.HasPrefix(strings.ToLower(line), "user-agent:") {
			sb.WriteString("Content-Usage: train-ai=n\nContent-Usage: /blog/ train-ai=y, search=y\n")
		}
	}
	return plain, []byte(sb.String())
}

// BenchmarkUsage asks Agent.Usage, and Agent.Allowed for comparison, of a
// crawler the '*' groups apply to, under the realistic file with the
// managed block prepended, and Usage under the file without any usage
// line; the agents' lines are read before the timer.
func BenchmarkUsage(b *testing.B) {
	plain, mixed := realisticWithUsage(b)
	bot := robots.Parse(mixed).Agent("ExampleBot")
	const page = "https://www.example-shop.com/blog/2024/03/how-to-choose-running-shoes?ref=home"
	bot.Usage(page)
	plainBot := robots.Parse(plain).Agent("ExampleBot")
	plainBot.Usage(page)
	b.Run("Usage", func(b *testing.B) {
		for b.Loop() {
			bot.Usage(page)
		}
	})
	b.Run("Allowed", func(b *testing.B) {
		for b.Loop() {
			bot.Allowed(page)
		}
	})
	// Without any usage line, Usage is Allowed and an empty answer.
	b.Run("Usage-no-lines", func(b *testing.B) {
		for b.Loop() {
			plainBot.Usage(page)
		}
	})
	b.Run("Allowed-no-lines", func(b *testing.B) {
		for b.Loop() {
			plainBot.Allowed(page)
		}
	})
}

// BenchmarkParseUsageLines parses the realistic file without and with
// Content-Usage and Content-Signal lines (realisticWithUsage); MB/s
// compares the cost per byte.
func BenchmarkParseUsageLines(b *testing.B) {
	plain, mixed := realisticWithUsage(b)
	for _, c := range []struct {
		name string
		body []byte
	}{{"plain", plain}, {"with-lines", mixed}} {
		b.Run(c.name, func(b *testing.B) {
			b.SetBytes(int64(len(c.body)))
			for b.Loop() {
				robots.Parse(c.body)
			}
		})
	}
}

// BenchmarkUsageMany is BenchmarkUsage over the 64 paths of the benchmark
// module's URL list (bench/testdata/urls.txt), written for the realistic
// file, one URL per op in turn, so that the comparison of Usage and
// Allowed does not rest on one URL: allowed and disallowed ones, with and
// without a query, under and outside /blog/.
func BenchmarkUsageMany(b *testing.B) {
	plain, mixed := realisticWithUsage(b)
	list, err := os.ReadFile("bench/testdata/urls.txt")
	if err != nil {
		b.Skip(err)
	}
	var urls []string
	for _, p := range strings.Fields(string(list)) {
		urls = append(urls, "https://www.example-shop.com"+p)
	}
	for _, c := range []struct {
		name string
		body []byte
	}{{"", mixed}, {"-no-lines", plain}} {
		bot := robots.Parse(c.body).Agent("ExampleBot").Compile()
		for _, u := range urls {
			bot.Usage(u) // build the states every URL needs, read the lines
		}
		b.Run("Usage"+c.name, func(b *testing.B) {
			i := 0
			for b.Loop() {
				bot.Usage(urls[i%len(urls)])
				i++
			}
		})
		b.Run("Allowed"+c.name, func(b *testing.B) {
			i := 0
			for b.Loop() {
				bot.Allowed(urls[i%len(urls)])
				i++
			}
		})
	}
}
