package hostile

import (
	"fmt"
	"strings"
)

// The files below cost the most to classify (Agent.Classify: the rules'
// own paths checked one by one, then every path explored), and so to
// answer as a survey capture. Unlike Files they mix Allow and Disallow
// rules, and some give each agent a group of its own; each is filled to
// Limit the same way, and has no Path.

// ClassifyFiles returns them, in a fixed order, for the agents a caller
// answers for: the files of a group per agent name each of agents.
func ClassifyFiles(agents []string) []File {
	kind := func(i int) string { return []string{"Allow", "Disallow"}[i%2] }
	file := func(name string, body []byte, rules int) File { return File{Name: name, Body: body, Rules: rules} }
	var files []File
	files = append(files, LongStars())
	body, n := fillAfter(header, func(i int) string {
		return kind(i) + ": /" + strings.Repeat("a*", 8000) + fmt.Sprint(i) + "$\n"
	})
	files = append(files, file("long-stars-mixed", body, n))
	body, n = fillAfter(header, func(i int) string {
		return kind(i) + ": /*" + strings.Repeat(string(rune('a'+i%3))+"*", 3+i%5) + "\n"
	})
	files = append(files, file("short-stars", body, n))
	body, n = fillAfter(header, starCombination)
	files = append(files, file("star-combinations", body, n))
	body, n = fillAfter("", func(i int) string {
		return "User-agent: " + agents[i%len(agents)] + "\nDisallow: /" + strings.Repeat("*x", 200) + fmt.Sprint(i) +
			"\nAllow: /" + strings.Repeat("x*", 100) + fmt.Sprint(i) + "$\n"
	})
	files = append(files, file("a-group-per-agent", body, n))
	files = append(files, starCombinationsPerAgent(agents))
	body, n = fillAfter("", func(i int) string { return fmt.Sprintf("User-agent: bot%d\nDisallow: /%d\n", i, i) })
	files = append(files, file("many-groups", body, n))
	body, n = fillAfter(header, func(i int) string { return kind(i) + ": /" + strings.Repeat("a", i) + "\n" })
	files = append(files, file("nested-prefixes", body, n))
	body, n = fillAfter(header, func(i int) string {
		return fmt.Sprintf("Content-Usage: /p%d train-ai=n\nContent-Signal: search=yes, ai-train=no\n", i)
	})
	files = append(files, file("usage-lines", body, n))
	return files
}

// LongStars is an Allow of 8,000 stars over and over, after a Disallow of
// 9,000 bytes: every own path but the Disallow's is allowed, and a check
// of one by automaton.Reference takes steps of its length times the
// pattern's.
func LongStars() File {
	line := "Allow: /" + strings.Repeat("*a", 8000)
	body, n := fillAfter(header+"Disallow: /"+strings.Repeat("z", 9000)+"\n", func(i int) string {
		return line + string(rune('b'+i%20)) + "\n"
	})
	return File{Name: "long-stars", Body: body, Rules: n + 1}
}

// starCombination is "/*a*b*c*d" over 40 bytes, alternately allowed and
// disallowed: the exploration of every path meets a state for each
// combination of the pieces read.
func starCombination(i int) string {
	const al = "abcdefghijklmnopqrstuvwxyz0123456789-_.~"
	return fmt.Sprintf("%s: /*%c*%c*%c*%c\n", []string{"Allow", "Disallow"}[i%2], al[i%40], al[(i/40)%40], al[(i/1600)%40], al[(i/7)%40])
}

// starCombinationsPerAgent is starCombination's lines in a group for each
// of agents, each its share of Limit.
func starCombinationsPerAgent(agents []string) File {
	var b strings.Builder
	rules := 0
	for g, a := range agents {
		b.WriteString("User-agent: " + a + "\n")
		for i := 0; b.Len() < (g+1)*Limit/len(agents)-40; i++ {
			b.WriteString(starCombination(i))
			rules++
		}
	}
	return File{Name: "star-combinations-per-agent", Body: []byte(b.String()), Rules: rules}
}
