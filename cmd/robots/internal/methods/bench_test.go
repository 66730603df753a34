package methods

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/fastrobots/robots/internal/testkit/hostile"
)

// BenchmarkLicensedCorpus: each method over every robots.txt body of the
// licensed corpus, for GPTBot, a file at a time (robots.Parse included
// for imc and root, as Classify does).
func BenchmarkLicensedCorpus(b *testing.B) {
	entries, err := os.ReadDir(licensedFiles)
	if err != nil {
		b.Fatal(err)
	}
	var bodies [][]byte
	for _, e := range entries {
		body, err := os.ReadFile(filepath.Join(licensedFiles, e.Name()))
		if err != nil {
			b.Fatal(err)
		}
		bodies = append(bodies, body)
	}
	for _, m := range Methods() {
		b.Run(string(m), func(b *testing.B) {
			for b.Loop() {
				for _, body := range bodies {
					Classify(m, body, "GPTBot")
				}
			}
		})
	}
}

// agentsThenRules is a file of the size limit whose first half names a
// distinct agent a line and whose second half disallows a path a line:
// read as Common Crawl's job reads it, every agent gets every rule.
func agentsThenRules() hostile.File {
	var b strings.Builder
	for i := 0; b.Len() < hostile.Limit/2; i++ {
		fmt.Fprintf(&b, "User-agent: a%d\n", i)
	}
	for i := 0; b.Len() < hostile.Limit-16; i++ {
		fmt.Fprintf(&b, "Disallow: /%d\n", i)
	}
	return hostile.File{Name: "agents-then-rules", Body: []byte(b.String())}
}

// BenchmarkHostile: each method on the files that cost a matcher or the
// classifier the most (internal/testkit/hostile), and on agentsThenRules, each of
// the size limit.
func BenchmarkHostile(b *testing.B) {
	files := append(hostile.Files(), hostile.ClassifyFiles([]string{"GPTBot"})...)
	files = append(files, agentsThenRules())
	for _, f := range files {
		for _, m := range Methods() {
			b.Run(f.Name+"/"+string(m), func(b *testing.B) {
				for b.Loop() {
					Classify(m, f.Body, "GPTBot")
				}
			})
		}
	}
}
