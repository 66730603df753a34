package serve

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/fastrobots/robots"
	"github.com/fastrobots/robots/cmd/robots/internal/cli/clitest"
	"github.com/fastrobots/robots/cmd/robots/web"
	"github.com/fastrobots/robots/internal/testkit/hostile"
	"github.com/fastrobots/robots/internal/testkit/worstcase"
)

// cpuTime returns the CPU time the process has used, its garbage
// collector's included.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		panic(err)
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// benchURLsPerRequest is the batch size of BenchmarkServeCheck.
const benchURLsPerRequest = 1000

// BenchmarkServeCheck measures batch checks through the HTTP API over
// loopback: one POST /api/check of 1,000 URLs against the example
// robots.txt per iteration, with the request's encoding, the parse, the
// checks and the answer's decoding all counted. It reports URLs checked
// per second (docs/serve.md):
//
//	go test -run '^$' -bench BenchmarkServeCheck -benchtime 3s ./cmd/robots
func BenchmarkServeCheck(b *testing.B) {
	s := httptest.NewServer(newServer(serverConfig{}))
	defer s.Close()
	urls := make([]string, benchURLsPerRequest)
	paths := []string{"/drafts/plan-%d.html", "/drafts/public/%d.pdf", "/products/%d?color=red", "/nogooglebot/%d", "/files/report-%d.pdf"}
	for i := range urls {
		urls[i] = "https://www.example.com" + fmt.Sprintf(paths[i%len(paths)], i)
	}
	body, err := json.Marshal(map[string]any{"robotstxt": string(web.Example), "agents": []string{"Googlebot-Image", "Googlebot"}, "urls": urls})
	if err != nil {
		b.Fatal(err)
	}
	client := s.Client()
	var out struct {
		Results []struct {
			Allowed bool `json:"allowed"`
		} `json:"results"`
	}
	b.SetBytes(int64(len(body)))
	b.ResetTimer()
	for b.Loop() {
		resp, err := client.Post(s.URL+"/api/check", "application/json", bytes.NewReader(body))
		if err != nil {
			b.Fatal(err)
		}
		err = json.NewDecoder(resp.Body).Decode(&out)
		_, _ = io.Copy(io.Discard, resp.Body)
		resp.Body.Close()
		if err != nil || resp.StatusCode != http.StatusOK || len(out.Results) != benchURLsPerRequest {
			b.Fatalf("status %d, %d results, %v", resp.StatusCode, len(out.Results), err)
		}
	}
	b.ReportMetric(float64(b.N*benchURLsPerRequest)/b.Elapsed().Seconds(), "urls/s")
}

// BenchmarkServeExplainWorst posts the worst shapes of
// TestServeAnswersAreBoundedByTheRequest, each request once per
// iteration, and reports the bytes of the request and of the answer, and
// the status: 413 where the answer would pass its bound (docs/limits.md):
//
//	go test -run '^$' -bench BenchmarkServeExplainWorst -benchtime 5x ./cmd/robots
func BenchmarkServeExplainWorst(b *testing.B) {
	s := httptest.NewServer(newServer(serverConfig{}))
	defer s.Close()
	for _, shape := range worstShapes() {
		body, err := json.Marshal(map[string]any{"robotstxt": shape.rules, "agents": shape.agents, "urls": shape.urls})
		if err != nil {
			b.Fatal(err)
		}
		b.Run(strings.ReplaceAll(shape.name, " ", "_"), func(b *testing.B) {
			var answer int64
			status := 0
			for b.Loop() {
				resp, err := s.Client().Post(s.URL+shape.path, "application/json", bytes.NewReader(body))
				if err != nil {
					b.Fatal(err)
				}
				answer, err = io.Copy(io.Discard, resp.Body)
				resp.Body.Close()
				if err != nil {
					b.Fatal(err)
				}
				status = resp.StatusCode
			}
			b.ReportMetric(float64(len(body)), "req-B")
			b.ReportMetric(float64(answer), "answer-B")
			b.ReportMetric(float64(status), "status")
		})
	}
}

// admittedShape is a request BenchmarkServeWorstAdmitted makes of a
// worst file: URLs of n bytes, checked or explained.
type admittedShape struct {
	n    int
	path string
}

// worstFiles are the files of the most work per byte the tests know: the
// hostile ones, those that cost the most to classify, the worst cases of
// the linter and Explain at the size Google reads, and a file whose every
// rule matches every URL, with a URL of the kind that hurts each.
func worstFiles() []struct {
	name string
	body string
	url  func(n, i int) string
} {
	type file = struct {
		name string
		body string
		url  func(n, i int) string
	}
	var files []file
	for _, f := range hostile.Files() {
		files = append(files, file{"hostile/" + f.Name, string(f.Body), func(n, i int) string { return f.Path(n, uint64(i%64)) }})
	}
	for _, f := range hostile.ClassifyFiles([]string{"FooBot"}) {
		files = append(files, file{"classify/" + f.Name, string(f.Body), worstcase.RulePaths(f.Body, "", 9)})
	}
	for _, s := range worstcase.Shapes {
		body := s.Build(robots.MaxBytes)
		files = append(files, file{"worstcase/" + s.Name, string(body), worstcase.RulePaths(body, "", 9)})
	}
	// Every rule matches every URL: the most an explanation lists.
	allow := "User-agent: *\n" + strings.Repeat("allow:/\n", 63_998)
	files = append(files, file{"every-rule-matches", allow, func(n, i int) string { return "/" + strings.Repeat("a", n-1) }})
	return files
}

// BenchmarkServeWorstAdmitted posts, for each worst file, its lint and the
// request of the most URLs (of 16, 64 and 512 bytes, checked, and of 64
// explained) that maxWork admits, through the HTTP API over loopback, and
// reports how long each takes alone, on the clock (s/req) and in the
// process's CPU time (cpu-s/req: a loaded machine stretches the clock, not
// this), and its work (units): docs/serve.md gives the slowest.
//
//	go test -run '^$' -bench BenchmarkServeWorstAdmitted -benchtime 1x ./cmd/robots
func BenchmarkServeWorstAdmitted(b *testing.B) {
	base := startHandler(b, newServer(serverConfig{}))
	shapes := []admittedShape{{16, "/api/check"}, {64, "/api/check"}, {512, "/api/check"}, {64, "/api/explain"}}
	for _, f := range worstFiles() {
		lint := clitest.JSON(b, map[string]any{"robotstxt": f.body})
		b.Run(f.name+"/lint", func(b *testing.B) { timeAdmitted(b, base, "/api/lint", lint, admittedWork(b, "/api/lint", lint)) })
		for _, sh := range shapes {
			build := func(n int) string {
				urls := make([]string, n)
				for i := range urls {
					urls[i] = f.url(sh.n, i)
				}
				return clitest.JSON(b, map[string]any{"robotstxt": f.body, "agents": []string{"FooBot"}, "urls": urls})
			}
			body, work := mostAdmitted(b, sh.path, build, false)
			if body == "" {
				continue // not even one URL: the request is refused at once
			}
			b.Run(fmt.Sprintf("%s/%s/n=%d", f.name, strings.TrimPrefix(sh.path, "/api/"), sh.n), func(b *testing.B) {
				timeAdmitted(b, base, sh.path, body, work)
			})
		}
	}
}

// timeAdmitted posts body to base+path, a request of work units, and
// reports how long it takes, on the clock and in CPU time, and its work.
func timeAdmitted(b *testing.B, base, path, body string, work int64) {
	var took, cpu time.Duration
	for b.Loop() {
		start, cpuStart := time.Now(), cpuTime()
		resp := clitest.PostRaw(b, base, path, body)
		took += time.Since(start)
		cpu += cpuTime() - cpuStart
		if resp.Status != http.StatusOK {
			b.Fatalf("status %d: %.200s", resp.Status, resp.Body)
		}
	}
	b.ReportMetric(took.Seconds()/float64(b.N), "s/req")
	b.ReportMetric(cpu.Seconds()/float64(b.N), "cpu-s/req")
	b.ReportMetric(float64(work), "units")
	b.ReportMetric(float64(cpu.Nanoseconds())/float64(b.N)/float64(work), "cpu-ns/unit")
}
