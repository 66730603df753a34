package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
)

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
	body, err := json.Marshal(map[string]any{"robotstxt": string(exampleRobots), "agents": []string{"Googlebot-Image", "Googlebot"}, "urls": urls})
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
