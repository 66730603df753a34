package survey

import (
	"archive/tar"
	"bufio"
	"bytes"
	"compress/gzip"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/fastrobots/robots"
	"github.com/fastrobots/robots/cmd/robots/internal/capture"
	"github.com/fastrobots/robots/cmd/robots/internal/cli"
	"github.com/fastrobots/robots/cmd/robots/internal/cli/clitest"
	"github.com/fastrobots/robots/cmd/robots/internal/warctest"
	"github.com/fastrobots/robots/lint"
	prefs "github.com/fastrobots/robots/usage"
)

// surveyCorpus is the licensed corpus in the repository: a directory of
// plain files with a manifest.

// surveyTestAgents are the agents the corpus tests answer for: a named
// crawler, any crawler, AI crawlers named in many files and a usage token.
// Checking every capture against the library costs one Classify per
// capture and agent, which bounds the list.
var surveyTestAgents = []string{"Googlebot", "*", "GPTBot", "CCBot", "Applebot-Extended"}

// testCaptureRow and testAgentRow read the rows by the names docs/survey.md
// gives them, apart from the types the command writes with.
type testCaptureRow struct {
	Index        int    `json:"index"`
	Input        string `json:"input"`
	File         string `json:"file"`
	Site         string `json:"site"`
	Host         string `json:"host"`
	URL          string `json:"url"`
	Status       int    `json:"status"`
	Bytes        int64  `json:"bytes"`
	Truncated    bool   `json:"truncated"`
	HTML         bool   `json:"html"`
	Sitemaps     int    `json:"sitemaps"`
	Valid        int    `json:"valid"`
	Unused       int    `json:"unused"`
	LintErrors   int    `json:"lint_errors"`
	LintWarnings int    `json:"lint_warnings"`
	Error        string `json:"error"`
	Offset       int64  `json:"offset"`
	raw          string // the line as written
}

type testAgentRow struct {
	Index       int               `json:"index"`
	URL         string            `json:"url"`
	Host        string            `json:"host"`
	Agent       string            `json:"agent"`
	Group       string            `json:"group"`
	GroupLine   int               `json:"group_line"`
	GroupAgent  string            `json:"group_agent"`
	Class       string            `json:"class"`
	Allowed     *string           `json:"allowed_example"`
	Disallowed  *string           `json:"disallowed_example"`
	RootAllowed bool              `json:"root_allowed"`
	Signal      map[string]string `json:"content_signal"`
	Usage       map[string]string `json:"content_usage"`
	UsagePaths  bool              `json:"usage_paths"`
	CrawlDelay  *float64          `json:"crawl_delay"`
	raw         string
}

// surveyRun is a survey's exit status, output and rows.
type surveyRun struct {
	clitest.Result
	captures []testCaptureRow
	agents   []testAgentRow
}

// runSurveyTest runs robots survey with args and --out in a new
// directory, and reads the rows it wrote.
func runSurveyTest(t *testing.T, args ...string) surveyRun {
	t.Helper()
	out := t.TempDir()
	r := clitest.Invoke(Run, "", append([]string{"--format", "jsonl", "--out", out}, args...)...)
	run := surveyRun{Result: r}
	suffix := ".jsonl"
	for i, a := range args {
		if a == "--shard" {
			suffix = "-" + strings.Replace(args[i+1], "/", "-of-", 1) + ".jsonl"
		}
	}
	readJSONL(t, filepath.Join(out, "captures"+suffix), func(line string) {
		var row testCaptureRow
		require.NoError(t, json.Unmarshal([]byte(line), &row), line)
		row.raw = line
		run.captures = append(run.captures, row)
	})
	readJSONL(t, filepath.Join(out, "agents"+suffix), func(line string) {
		var row testAgentRow
		require.NoError(t, json.Unmarshal([]byte(line), &row), line)
		row.raw = line
		run.agents = append(run.agents, row)
	})
	return run
}

func readJSONL(t *testing.T, name string, each func(string)) {
	t.Helper()
	f, err := os.Open(name)
	require.NoError(t, err)
	defer f.Close()
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		each(sc.Text())
	}
	require.NoError(t, sc.Err())
}

// corpusSites reads the corpus manifest: file to site.
func corpusSites(t *testing.T) map[string]string {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(warctest.LicensedCorpus, "manifest.tsv"))
	require.NoError(t, err)
	sites := map[string]string{}
	lines := strings.Split(strings.TrimSpace(string(data)), "\n")
	require.Equal(t, []string{"file", "bytes"}, strings.Split(lines[0], "\t")[:2])
	for _, l := range lines[1:] {
		f := strings.Split(l, "\t")
		sites[f[0]] = f[4]
	}
	return sites
}

// checkRowsAgainstLibrary checks every row of run against what the
// library answers for the capture's body, read by body(file).
func checkRowsAgainstLibrary(t *testing.T, run surveyRun, agents []string, body func(file string) []byte, sites map[string]string) {
	t.Helper()
	require.Len(t, run.agents, len(run.captures)*len(agents))
	for ci, c := range run.captures {
		require.Empty(t, c.Error, c.raw)
		assert.Equal(t, ci, c.Index, "rows in input order")
		data := body(c.File)
		r := robots.Parse(data)
		assert.Equal(t, sites[c.File], c.Site, c.File)
		assert.Equal(t, 200, c.Status)
		assert.Equal(t, int64(len(data)), c.Bytes, c.File)
		assert.Equal(t, r.Truncated(), c.Truncated, c.File)
		assert.Equal(t, len(r.Sitemaps()), c.Sitemaps, c.File)
		rep := robots.ReportOf(data)
		assert.Equal(t, rep.Valid, c.Valid, c.File)
		assert.Equal(t, rep.Unused, c.Unused, c.File)
		var errs, warns int
		html := false
		for _, d := range lint.Lint(data) {
			switch d.Severity {
			case lint.Error:
				errs++
			case lint.Warning:
				warns++ // a note is neither
			}
			html = html || d.Code == lint.CodeHTML
		}
		assert.Equal(t, errs, c.LintErrors, c.File)
		assert.Equal(t, warns, c.LintWarnings, c.File)
		assert.Equal(t, html, c.HTML, c.File)
		if c.Host != "" {
			assert.Equal(t, "https://"+c.Host+"/robots.txt", c.URL)
		} else {
			assert.Empty(t, c.URL)
		}
		for ai, name := range agents {
			row := run.agents[ci*len(agents)+ai]
			what := c.File + " " + name
			assert.Equal(t, c.Index, row.Index, what)
			assert.Equal(t, c.URL, row.URL, what)
			assert.Equal(t, c.Host, row.Host, what)
			assert.Equal(t, name, row.Agent, what)
			var a *robots.Agent
			if name == "*" {
				a = r.Agent()
			} else {
				a = r.Agent(name)
			}
			// The group: a group names the agent, or the '*' groups
			// apply, or none does, with its first user-agent line.
			wantGroup, wantLine := "none", 0
			if len(a.Groups()) > 0 {
				wantGroup = "*"
				if a.Name() != "" {
					wantGroup = "named"
				}
				for _, l := range r.Groups()[a.Groups()[0]].Agents {
					if wantLine == 0 && (l.Global == (wantGroup == "*")) && (l.Global || strings.EqualFold(l.Token, a.Name())) {
						wantLine = l.Line
					}
				}
			}
			assert.Equal(t, wantGroup, row.Group, what)
			assert.Equal(t, wantLine, row.GroupLine, what)
			class, allowed, disallowed := a.Classify()
			assert.Equal(t, class.String(), row.Class, what)
			assert.Equal(t, allowed, deref(row.Allowed), what)
			assert.Equal(t, disallowed, deref(row.Disallowed), what)
			assert.False(t, row.Allowed != nil && *row.Allowed == "", "an absent example is left out: %s", what)
			if row.Allowed != nil {
				assert.True(t, strings.HasPrefix(*row.Allowed, "/"), what)
				assert.True(t, a.AllowedPath(*row.Allowed), what)
			}
			if row.Disallowed != nil {
				assert.True(t, strings.HasPrefix(*row.Disallowed, "/"), what)
				assert.False(t, a.AllowedPath(*row.Disallowed), what)
			}
			switch row.Class {
			case "none":
				assert.Nil(t, row.Disallowed, what)
			case "all":
				assert.Nil(t, row.Allowed, what)
			case "some":
				assert.True(t, row.Allowed != nil && row.Disallowed != nil, what)
			}
			assert.Equal(t, a.AllowedPath("/"), row.RootAllowed, what)
			u := a.UsagePath("/")
			for k := range prefs.Signals {
				v := u.Signal(prefs.SignalKey(k)).Value
				got, ok := row.Signal[prefs.Signals[k].Key]
				assert.Equal(t, v != prefs.Unknown, ok, what)
				if ok {
					assert.Equal(t, v.String(), got, what)
				}
			}
			for _, cat := range prefs.Categories() {
				v := u.Category(cat).Value
				got, ok := row.Usage[cat.Label()]
				assert.Equal(t, v != prefs.Unknown, ok, what)
				if ok {
					assert.Equal(t, v.String(), got, what)
				}
			}
			if d, ok := a.CrawlDelay(); ok {
				require.NotNil(t, row.CrawlDelay, what)
				assert.Equal(t, d.Seconds(), *row.CrawlDelay, what)
			} else {
				assert.Nil(t, row.CrawlDelay, what)
			}
		}
	}
}

func deref(s *string) string {
	if s == nil {
		return ""
	}
	return *s
}

// TestSurveyCorpus: a survey of the licensed corpus answers for every file
// the manifest lists, in lexical order, as the library does, and the
// summary's figures are those of its rows.
func TestSurveyCorpus(t *testing.T) {
	sites := corpusSites(t)
	run := runSurveyTest(t, "--agents", strings.Join(surveyTestAgents, ","), warctest.LicensedCorpus)
	require.Equal(t, cli.ExitOK, run.Code, run.Stderr)
	require.Len(t, run.captures, len(sites))
	files := make([]string, 0, len(sites))
	for f := range sites {
		files = append(files, f)
	}
	sort.Strings(files)
	for i, c := range run.captures {
		assert.Equal(t, files[i], c.File)
		assert.Equal(t, warctest.LicensedCorpus, c.Input)
	}
	checkRowsAgainstLibrary(t, run, surveyTestAgents, func(file string) []byte {
		data, err := os.ReadFile(filepath.Join(warctest.LicensedCorpus, file))
		require.NoError(t, err)
		return data
	}, sites)
	checkSummary(t, run, surveyTestAgents)
}

// checkSummary checks the summary on stdout against figures computed from
// the rows.
func checkSummary(t *testing.T, run surveyRun, agents []string) {
	t.Helper()
	var sizes []int64
	html, truncated, errs := 0, 0, 0
	for _, c := range run.captures {
		if c.Error != "" {
			errs++
			continue
		}
		sizes = append(sizes, c.Bytes)
		if c.HTML {
			html++
		}
		if c.Truncated {
			truncated++
		}
	}
	n := len(sizes)
	require.NotZero(t, n)
	slices.Sort(sizes)
	// The nearest rank; sizes past the 500 KiB read are not kept one by
	// one, and a quantile among them is written so.
	rank := func(q float64) string {
		k := int(q*float64(n) + 0.999999999)
		if v := sizes[max(1, min(k, n))-1]; v <= robots.MaxBytes {
			return strconv.FormatInt(v, 10)
		}
		return "over " + strconv.Itoa(robots.MaxBytes)
	}
	out := run.Stdout
	assert.Contains(t, out, "robots survey: "+strconv.Itoa(n)+" captures answered, "+strconv.Itoa(errs)+" errors\n")
	assert.Contains(t, out, "sizes (bytes): median "+rank(0.5)+", p90 "+rank(0.9)+", max "+strconv.FormatInt(sizes[n-1], 10)+",")
	assert.Contains(t, out, "html: "+strconv.Itoa(html)+" pages")
	assert.Contains(t, out, "truncated: "+strconv.Itoa(truncated)+" cut")

	type counts struct{ all, some, none, undecided, rootNone, rootAll, signal, usage int }
	want := map[string]*counts{}
	for _, a := range agents {
		want[a] = &counts{}
	}
	for _, row := range run.agents {
		c := want[row.Agent]
		switch row.Class {
		case "all":
			c.all++
		case "some":
			c.some++
			if row.RootAllowed {
				c.rootNone++
			} else {
				c.rootAll++
			}
		case "none":
			c.none++
		case "undecided":
			c.undecided++
		}
		if len(row.Signal) > 0 && (row.Signal["search"] != "" || row.Signal["ai-input"] != "" || row.Signal["ai-train"] != "") {
			c.signal++
		}
		if len(row.Usage) > 0 {
			c.usage++
		}
	}
	cell := `\s+(\d+) \(\s*[\d.]+%\)`
	classLine := regexp.MustCompile(`(?m)^(\S+)` + strings.Repeat(cell, 5) + `\s+(\d+)\s+(\d+)  `)
	usageLine := regexp.MustCompile(`(?m)^(\S+)` + cell + `(?:\s+\d+/\d+){3}` + cell)
	got := map[string]counts{}
	for _, m := range classLine.FindAllStringSubmatch(out, -1) {
		v := make([]int, 7)
		for i := range v {
			v[i], _ = strconv.Atoi(m[i+2])
		}
		got[m[1]] = counts{all: v[0], some: v[1], none: v[2], undecided: v[3], rootNone: v[5], rootAll: v[6]}
		assert.Equal(t, v[5]+v[6], v[4], "the /-only column is the sum of its parts: %s", m[0])
	}
	for _, m := range usageLine.FindAllStringSubmatch(out, -1) {
		c := got[m[1]]
		c.signal, _ = strconv.Atoi(m[2])
		c.usage, _ = strconv.Atoi(m[3])
		got[m[1]] = c
	}
	require.Len(t, got, len(agents), out)
	for _, a := range agents {
		assert.Equal(t, *want[a], got[a], "summary of %s", a)
	}
}

// buildArchive writes a .tar.gz of the corpus files named, with the
// manifest rows of those files first or last, and returns its path.
func buildArchive(t *testing.T, files []string, manifestFirst bool) string {
	t.Helper()
	all, err := os.ReadFile(filepath.Join(warctest.LicensedCorpus, "manifest.tsv"))
	require.NoError(t, err)
	lines := strings.Split(string(all), "\n")
	man := lines[0] + "\n"
	for _, l := range lines[1:] {
		if slices.Contains(files, strings.Split(l, "\t")[0]) {
			man += l + "\n"
		}
	}
	var buf bytes.Buffer
	zw := gzip.NewWriter(&buf)
	tw := tar.NewWriter(zw)
	add := func(name string, data []byte) {
		require.NoError(t, tw.WriteHeader(&tar.Header{Name: name, Mode: 0o644, Size: int64(len(data)), Typeflag: tar.TypeReg}))
		_, err := tw.Write(data)
		require.NoError(t, err)
	}
	if manifestFirst {
		add("manifest.tsv", []byte(man))
	}
	require.NoError(t, tw.WriteHeader(&tar.Header{Name: "files/", Mode: 0o755, Typeflag: tar.TypeDir}))
	for _, f := range files {
		data, err := os.ReadFile(filepath.Join(warctest.LicensedCorpus, f))
		require.NoError(t, err)
		add(f, data)
	}
	add("README.md", []byte("not a capture: the manifest does not list it\n"))
	if !manifestFirst {
		add("manifest.tsv", []byte(man))
	}
	require.NoError(t, tw.Close())
	require.NoError(t, zw.Close())
	name := filepath.Join(t.TempDir(), "captures.tar.gz")
	require.NoError(t, os.WriteFile(name, buf.Bytes(), 0o644))
	return name
}

// surveyArchiveFiles are corpus files put in the test archives: robots.txt
// files, HTML pages, the largest file (cut at 500 KiB) and files of the
// AI crawlers' blocklist, whose manifest site is no host.
var surveyArchiveFiles = []string{
	"files/02143.txt", "files/02144.txt", "files/02145.txt", "files/02270.txt", "files/04637.txt",
	"files/02948.txt", "files_html/02168.txt", "files_html/02184.txt", "files_html/02200.txt",
}

// TestSurveyArchive: a .tar.gz with its manifest first and one with it
// last give the same rows, in archive order, hosts from the manifest,
// each as the library answers; a member the manifest does not list is not
// a capture.
func TestSurveyArchive(t *testing.T) {
	sites := corpusSites(t)
	files := append([]string(nil), surveyArchiveFiles...)
	for f, site := range sites { // two files of no host
		if strings.HasPrefix(site, "(") && len(files) < len(surveyArchiveFiles)+2 {
			files = append(files, f)
		}
	}
	var rows [2][]string
	for i, first := range []bool{true, false} {
		archive := buildArchive(t, files, first)
		run := runSurveyTest(t, archive) // the default agents
		require.Equal(t, cli.ExitOK, run.Code, run.Stderr)
		require.Len(t, run.captures, len(files))
		for ci, c := range run.captures {
			assert.Equal(t, files[ci], c.File, "archive order")
			assert.Equal(t, archive, c.Input)
			rows[i] = append(rows[i], strings.Replace(c.raw, archive, "ARCHIVE", 1))
		}
		checkRowsAgainstLibrary(t, run, surveyAgentNames(surveyDefaultAgents), func(file string) []byte {
			data, err := os.ReadFile(filepath.Join(warctest.LicensedCorpus, file))
			require.NoError(t, err)
			return data
		}, sites)
		checkSummary(t, run, surveyAgentNames(surveyDefaultAgents))
		for _, c := range run.captures {
			if strings.HasPrefix(c.Site, "(") {
				assert.Empty(t, c.Host, "a description is not a host")
			} else {
				assert.NotEmpty(t, c.Host, c.Site)
			}
		}
		truncated := 0
		for _, c := range run.captures {
			if c.Truncated {
				truncated++
				assert.Greater(t, c.Bytes, int64(robots.MaxBytes))
			}
		}
		assert.Equal(t, 2, truncated, "files/02270.txt and files/04637.txt are longer than 500 KiB")
		for _, a := range run.agents {
			rows[i] = append(rows[i], strings.Replace(a.raw, archive, "ARCHIVE", 1))
		}
	}
	assert.Equal(t, rows[0], rows[1], "the manifest's place changes no row")
}

// TestSurveyShards: four shards of a run over one input write together
// exactly its rows, each row once, each shard the captures whose index is
// its own modulo 4.
func TestSurveyShards(t *testing.T) {
	checkShards(t, []string{warctest.LicensedCorpus}, 4, func(k int, c testCaptureRow) {
		assert.Equal(t, k-1, c.Index%4, "capture %d in shard %d", c.Index, k)
	})
}

// TestSurveyShardsByInput: with at least as many inputs as shards, each
// shard reads only its inputs, those whose position is K-1 modulo N, and
// the shards write together exactly the rows of one run, the error row of
// a missing input included.
func TestSurveyShardsByInput(t *testing.T) {
	inputs := []string{warctest.LicensedCorpus, buildArchive(t, surveyArchiveFiles, true), surveyUsageDir(t), filepath.Join(t.TempDir(), "missing")}
	checkShards(t, inputs, 3, func(k int, c testCaptureRow) {
		at := slices.Index(inputs, c.Input)
		assert.Equal(t, k-1, at%3, "input %d read by shard %d", at, k)
	})
}

// checkShards runs a survey of inputs whole and as n shards, and checks
// that the shards write the whole run's rows, each once, with owned
// checking that each capture row is its shard's.
func checkShards(t *testing.T, inputs []string, n int, owned func(k int, c testCaptureRow)) {
	t.Helper()
	agents := []string{"--agents", "GPTBot,*"}
	whole := runSurveyTest(t, append(agents, inputs...)...)
	want := map[string]bool{}
	for _, c := range whole.captures {
		want[c.raw] = true
	}
	for _, a := range whole.agents {
		want[a.raw] = true
	}
	got := map[string]bool{}
	for k := 1; k <= n; k++ {
		shard := runSurveyTest(t, append(append(agents, "--shard", fmt.Sprintf("%d/%d", k, n)), inputs...)...)
		assert.NotEmpty(t, shard.captures)
		for _, c := range shard.captures {
			owned(k, c)
			assert.False(t, got[c.raw], "a row in two shards: %s", c.raw)
			got[c.raw] = true
		}
		for _, a := range shard.agents {
			assert.False(t, got[a.raw], "a row in two shards: %s", a.raw)
			got[a.raw] = true
		}
	}
	assert.Equal(t, len(want), len(got))
	assert.Equal(t, want, got)
}

// TestSurveyInputList: --inputs adds the INPUTs its file lists, one a line,
// after the arguments, blank and '#' lines skipped; a missing list or one
// past surveyMaxInputList is a usage error.
func TestSurveyInputList(t *testing.T) {
	dir := t.TempDir()
	usage := surveyUsageDir(t)
	list := filepath.Join(dir, "inputs.txt")
	require.NoError(t, os.WriteFile(list, []byte("# the corpus, then the usage lines\n"+warctest.LicensedCorpus+"\n\n  "+usage+"  \n"), 0o644))
	byList := runSurveyTest(t, "--agents", "GPTBot", "--inputs", list)
	require.Equal(t, cli.ExitOK, byList.Code, byList.Stderr)
	byArgs := runSurveyTest(t, "--agents", "GPTBot", warctest.LicensedCorpus, usage)
	require.Equal(t, cli.ExitOK, byArgs.Code, byArgs.Stderr)
	assert.Equal(t, byArgs.Stdout, byList.Stdout)
	require.Equal(t, len(byArgs.captures), len(byList.captures))
	for i := range byArgs.captures {
		assert.Equal(t, byArgs.captures[i].raw, byList.captures[i].raw)
	}
	mixed := runSurveyTest(t, "--agents", "GPTBot", "--inputs", list, usage)
	require.Equal(t, cli.ExitOK, mixed.Code, mixed.Stderr)
	assert.Equal(t, usage, mixed.captures[0].Input, "the arguments come first")

	var stderr bytes.Buffer
	code := Run([]string{"--out", dir, "--inputs", filepath.Join(dir, "missing")}, nil, io.Discard, &stderr)
	assert.Equal(t, cli.ExitUsage, code)
	assert.Contains(t, stderr.String(), "--inputs")
	long := filepath.Join(dir, "long.txt")
	f, err := os.Create(long)
	require.NoError(t, err)
	require.NoError(t, f.Truncate(surveyMaxInputList+1))
	require.NoError(t, f.Close())
	stderr.Reset()
	code = Run([]string{"--out", dir, "--inputs", long}, nil, io.Discard, &stderr)
	assert.Equal(t, cli.ExitUsage, code)
	assert.Contains(t, stderr.String(), "longer than")
}

// TestSurveyBadInput: a truncated gzip gives an error row saying where,
// the captures before it are answered, the inputs after it too, and the
// exit status is 1; so does an input that does not exist.
func TestSurveyBadInput(t *testing.T) {
	archive := buildArchive(t, surveyArchiveFiles, true)
	data, err := os.ReadFile(archive)
	require.NoError(t, err)
	cut := filepath.Join(t.TempDir(), "cut.tar.gz")
	require.NoError(t, os.WriteFile(cut, data[:len(data)*2/3], 0o644))
	missing := filepath.Join(t.TempDir(), "missing")
	run := runSurveyTest(t, "--agents", "GPTBot", cut, missing, archive)
	assert.Equal(t, cli.ExitNegative, run.Code)
	assert.Contains(t, run.Stderr, "unexpected EOF")
	var errRows []testCaptureRow
	answered := map[string]int{}
	next := map[string]int{} // the next index of each input
	for _, c := range run.captures {
		assert.Equal(t, next[c.Input], c.Index, "an input's captures are numbered from 0 in order")
		next[c.Input]++
		if c.Error != "" {
			errRows = append(errRows, c)
			continue
		}
		answered[c.Input]++
	}
	require.Len(t, errRows, 2, run.Stdout)
	assert.Equal(t, cut, errRows[0].Input)
	assert.Contains(t, errRows[0].Error, "unexpected EOF")
	assert.Positive(t, errRows[0].Offset, "the error says where in the archive")
	assert.Equal(t, missing, errRows[1].Input)
	assert.Positive(t, answered[cut], "the members before the cut are answered")
	assert.Less(t, answered[cut], len(surveyArchiveFiles))
	assert.Equal(t, len(surveyArchiveFiles), answered[archive], "the inputs after a bad one are read")
	assert.Len(t, run.agents, len(run.captures)-2, "an error row has no agent rows")
	assert.Contains(t, run.Stdout, "captures answered, 2 errors\n")
}

// TestSurveyUsageErrors: a usage error is one line and a pointer to the
// help, with exit status 2; an http(s) input that is no archive or WARC
// file is refused before anything is fetched.
func TestSurveyUsageErrors(t *testing.T) {
	dir := t.TempDir()
	for _, tt := range []struct {
		args []string
		msg  string
	}{
		{[]string{warctest.LicensedCorpus}, "--out DIR is required"},
		{[]string{"--out", dir, "--format", "csv", warctest.LicensedCorpus}, `unknown format "csv" (want parquet or jsonl)`},
		{[]string{"--out", dir, "https://example.com/crawl"}, "https://example.com/crawl: an http(s) input is read as a stream and its path must end in .warc, .warc.gz, .tar.gz, .tgz"},
		{[]string{"--out", dir}, "no INPUT given"},
		{[]string{"--out", dir, "--shard", "5/4", warctest.LicensedCorpus}, `bad --shard "5/4" (want K/N with 1 ≤ K ≤ N)`},
		{[]string{"--out", dir, "--shard", "0/4", warctest.LicensedCorpus}, `bad --shard "0/4" (want K/N with 1 ≤ K ≤ N)`},
		{[]string{"--out", dir, "--agents", " , ", warctest.LicensedCorpus}, "--agents names no agent"},
	} {
		r := clitest.Invoke(Run, "", tt.args...)
		assert.Equal(t, cli.ExitUsage, r.Code, tt.args)
		assert.Empty(t, r.Stdout, tt.args)
		assert.Equal(t, "robots survey: "+tt.msg+"\nsee robots help survey\n", r.Stderr, tt.args)
	}
	entries, err := os.ReadDir(dir)
	require.NoError(t, err)
	assert.Empty(t, entries, "a usage error writes nothing")
}

// TestSurveySharedCorpus: a survey of the full corpus (../shared, when
// present) answers every file without an error row, and logs its wall
// time and the classes of GPTBot and Googlebot.
func TestSurveySharedCorpus(t *testing.T) {
	const archive = "../../../../../shared/corpus/robots-corpus.tar.gz"
	if _, err := os.Stat(archive); err != nil {
		t.Skipf("the full corpus is not here (%v): the licensed subset is surveyed by TestSurveyCorpus", err)
	}
	if testing.Short() {
		t.Skip("the full corpus takes a minute: not in -short")
	}
	start := time.Now()
	run := runSurveyTest(t, archive)
	wall := time.Since(start)
	require.Equal(t, cli.ExitOK, run.Code, run.Stderr)
	assert.Len(t, run.captures, 28515)
	for _, c := range run.captures {
		require.Empty(t, c.Error, c.raw)
	}
	assert.Len(t, run.agents, 28515*len(surveyDefaultAgents))
	checkSummary(t, run, surveyAgentNames(surveyDefaultAgents))
	t.Logf("%d captures in %s (%.0f captures/s)", len(run.captures), wall.Round(time.Millisecond), float64(len(run.captures))/wall.Seconds())
	for _, line := range strings.Split(run.Stdout, "\n") {
		if strings.HasPrefix(line, "GPTBot ") || strings.HasPrefix(line, "Googlebot ") || strings.HasPrefix(line, "agent ") {
			t.Log(line)
		}
	}
}

// TestSurveyUsageLines: the Content-Signal and Content-Usage values at /,
// the use entry, path-scoped usage lines and the crawl delay, read from a
// directory without a manifest, each file's host its name.
func TestSurveyUsageLines(t *testing.T) {
	dir := t.TempDir()
	files := map[string]string{
		"managed.example.txt": "Content-Signal: search=yes, ai-train=no, use=reference\n\nUser-agent: *\nAllow: /\n",
		"paths.example.txt":   "User-agent: GPTBot\nContent-Usage: train-ai=n\nContent-Usage: /blog/ train-ai=y\nCrawl-delay: 2.5\nDisallow: /private\n",
		"blocked.example.txt": "User-agent: *\nContent-Signal: ai-input=no\nDisallow: /\n",
		"nogroup.example.txt": "User-agent: Bingbot\nDisallow: /\n",
	}
	for name, body := range files {
		require.NoError(t, os.WriteFile(filepath.Join(dir, name), []byte(body), 0o644))
	}
	run := runSurveyTest(t, "--agents", "GPTBot,*", dir)
	require.Equal(t, cli.ExitOK, run.Code, run.Stderr)
	require.Len(t, run.captures, len(files))
	sites := map[string]string{}
	for name := range files {
		sites[name] = strings.TrimSuffix(name, ".txt")
	}
	checkRowsAgainstLibrary(t, run, []string{"GPTBot", "*"}, func(file string) []byte { return []byte(files[file]) }, sites)
	checkSummary(t, run, []string{"GPTBot", "*"})
	rows := map[string]testAgentRow{}
	for _, a := range run.agents {
		rows[a.Host+" "+a.Agent] = a
	}
	managed := rows["managed.example GPTBot"]
	assert.Equal(t, map[string]string{"search": "yes", "ai-train": "no", "use": "reference"}, managed.Signal)
	assert.Equal(t, "*", managed.Group)
	assert.Equal(t, "https://managed.example/robots.txt", managed.URL)
	paths := rows["paths.example GPTBot"]
	assert.Equal(t, map[string]string{"train-ai": "no"}, paths.Usage)
	assert.True(t, paths.UsagePaths)
	require.NotNil(t, paths.CrawlDelay)
	assert.Equal(t, 2.5, *paths.CrawlDelay)
	assert.Equal(t, "named", paths.Group)
	assert.Equal(t, 1, paths.GroupLine)
	assert.Equal(t, "GPTBot", paths.GroupAgent)
	assert.Equal(t, "none", rows["paths.example *"].Group)
	assert.False(t, rows["paths.example *"].UsagePaths)
	// A URL that may not be fetched has no preference: / is disallowed.
	blocked := rows["blocked.example GPTBot"]
	assert.Equal(t, "all", blocked.Class)
	assert.Empty(t, blocked.Signal)
	assert.Equal(t, "none", rows["nogroup.example GPTBot"].Group)
	assert.Equal(t, "none", rows["nogroup.example GPTBot"].Class)
	assert.Regexp(t, `(?m)^GPTBot\s+1 \(\s*25\.0%\)`, run.Stdout, "one of four captures states a signal for GPTBot at /")
}

// endlessSource hands out n small captures, counting those taken; with
// a body, n captures of that body.
type endlessSource struct {
	n     int
	body  []byte
	taken atomic.Int64
}

func (s *endlessSource) Next(take func() (int, bool)) (*capture.Capture, error) {
	if int(s.taken.Load()) >= s.n {
		return nil, io.EOF
	}
	s.taken.Add(1)
	i, _ := take()
	body := s.body
	if body == nil {
		body = []byte("User-agent: *\nDisallow: /x\n")
	}
	return &capture.Capture{Index: i, Input: "endless", File: strconv.Itoa(i), Status: 200,
		Body: body, Size: int64(len(body))}, nil
}

func (s *endlessSource) Close() error { return nil }

// heldWriter runs surveyPipeline with a writer that holds its first row
// until release is called; wait returns the rows' indexes, in the order
// written, and the pipeline's error.
func heldWriter(cfg surveyConfig, open func(string) (capture.Source, error)) (release func(), wait func() ([]int, error)) {
	held := make(chan struct{})
	var got []int
	done := make(chan error, 1)
	go func() {
		_, err := surveyPipeline(cfg, open, func(res *surveyResult) error {
			if len(got) == 0 {
				<-held
			}
			got = append(got, res.row.Index)
			return nil
		})
		done <- err
	}()
	return func() { close(held) }, func() ([]int, error) { err := <-done; return got, err }
}

// whenSteady waits, for at most wait, until count gives the same positive
// figure at two ticks in a row, and returns it: the readers have stopped
// taking captures.
func whenSteady(wait, tick time.Duration, count func() int64) int64 {
	var last int64
	for deadline := time.Now().Add(wait); time.Now().Before(deadline); {
		time.Sleep(tick)
		if n := count(); n == last && n > 0 {
			break
		} else {
			last = n
		}
	}
	return last
}

// TestSurveyQueueBound: while the writer waits, the reader runs at most
// surveyQueuePerWorker captures per worker ahead of it, waiting to be
// written, and one more in hand; the answers come in input order; and a
// writer that fails stops the reader.
func TestSurveyQueueBound(t *testing.T) {
	const workers, total = 2, 1000
	queue := workers * surveyQueuePerWorker
	src := &endlessSource{n: total}
	cfg := surveyConfig{agents: []string{"GPTBot"}, inputs: []string{"endless"}, workers: workers}
	open := func(string) (capture.Source, error) { return src, nil }
	release, wait := heldWriter(cfg, open)
	taken := whenSteady(5*time.Second, 50*time.Millisecond, src.taken.Load)
	assert.GreaterOrEqual(t, taken, int64(queue), "the reader runs ahead, to keep the workers busy")
	assert.LessOrEqual(t, taken, int64(queue+2), "one being written, the queue, one in the reader's hand")
	release()
	got, err := wait()
	require.NoError(t, err)
	require.Len(t, got, total)
	for i, idx := range got {
		require.Equal(t, i, idx, "input order")
	}

	src = &endlessSource{n: total}
	failed := errors.New("disk full")
	_, err = surveyPipeline(cfg, open, func(*surveyResult) error { return failed })
	assert.ErrorIs(t, err, failed)
	assert.LessOrEqual(t, src.taken.Load(), int64(2*queue+2), "a failed write stops the reader")
}

// TestSurveyReadersAgree: a run that reads several inputs at once writes
// the rows, summary and errors of one that reads them in turn, byte for
// byte, in input order.
func TestSurveyReadersAgree(t *testing.T) {
	missing := filepath.Join(t.TempDir(), "missing")
	inputs := []string{warctest.LicensedCorpus, buildArchive(t, surveyArchiveFiles, true), missing, surveyUsageDir(t), warctest.LicensedCorpus}
	runWith := func(readers int) (files map[string]string, stdout, stderr string) {
		cfg := surveyConfig{agents: []string{"GPTBot", "*"}, out: t.TempDir(), inputs: inputs, format: surveyFormatJSONL, workers: 4, readers: readers}
		var o, e bytes.Buffer
		assert.Equal(t, cli.ExitNegative, survey(cfg, &o, &e), "the missing input")
		files = map[string]string{}
		for _, table := range []string{surveyTableCaptures, surveyTableAgents} {
			data, err := os.ReadFile(filepath.Join(cfg.out, table+".jsonl"))
			require.NoError(t, err)
			files[table] = string(data)
		}
		return files, o.String(), e.String()
	}
	files, stdout, stderr := runWith(1)
	require.Contains(t, stderr, missing)
	for _, readers := range []int{2, 3, 5} {
		f, o, e := runWith(readers)
		assert.Equal(t, files, f, "%d readers", readers)
		assert.Equal(t, stdout, o, "%d readers", readers)
		assert.Equal(t, stderr, e, "%d readers", readers)
	}
}

// TestSurveyReadersBound: inputs read at once each hold their share of the
// queue while the writer waits, so that together they hold what one
// reader would; an input is opened only when one before it is written
// whole; and the answers come input by input, each in order.
func TestSurveyReadersBound(t *testing.T) {
	const workers, readers, total = 2, 2, 300
	queue := workers * surveyQueuePerWorker
	srcs := map[string]*endlessSource{}
	var inputs []string
	for i := range 4 {
		name := fmt.Sprintf("endless-%d", i)
		inputs = append(inputs, name)
		srcs[name] = &endlessSource{n: total}
	}
	var opened atomic.Int64
	open := func(name string) (capture.Source, error) { opened.Add(1); return srcs[name], nil }
	cfg := surveyConfig{agents: []string{"GPTBot"}, inputs: inputs, workers: workers, readers: readers}
	release, wait := heldWriter(cfg, open)
	taken := func() (n int64) {
		for _, s := range srcs {
			n += s.taken.Load()
		}
		return n
	}
	last := whenSteady(5*time.Second, 50*time.Millisecond, taken)
	assert.Equal(t, int64(readers), opened.Load(), "two inputs open, the others waiting for their turn")
	assert.Positive(t, srcs["endless-1"].taken.Load(), "the second input is read while the first waits to be written")
	assert.GreaterOrEqual(t, last, int64(queue), "the readers run ahead, to keep the workers busy")
	assert.LessOrEqual(t, last, int64(queue+2*readers), "each input its share of the queue, one being written, one in each reader's hand")
	release()
	got, err := wait()
	require.NoError(t, err)
	require.Len(t, got, 4*total)
	for i, idx := range got {
		require.Equal(t, i%total, idx, "input by input, each in order")
	}
	assert.Equal(t, int64(4), opened.Load())
}

// TestSurveyQueueBytes: with bodies of 500 KiB, the captures read ahead of
// a waiting writer hold at most surveyQueueBytes, however many workers
// there are.
func TestSurveyQueueBytes(t *testing.T) {
	const workers = 16
	body := bytes.Repeat([]byte("Disallow: /x\n"), 500<<10/13)
	src := &endlessSource{n: 200, body: body}
	cfg := surveyConfig{agents: []string{"GPTBot"}, inputs: []string{"endless"}, workers: workers}
	open := func(string) (capture.Source, error) { return src, nil }
	release, wait := heldWriter(cfg, open)
	taken := whenSteady(10*time.Second, 100*time.Millisecond, src.taken.Load)
	weight := int64(len(body)) + surveyCaptureBytes
	require.Less(t, surveyQueueBytes/weight+2, int64(workers*surveyQueuePerWorker), "the bytes bind before the count")
	assert.GreaterOrEqual(t, taken, surveyQueueBytes/weight, "the reader runs ahead up to the bound")
	assert.LessOrEqual(t, taken, surveyQueueBytes/weight+2, "the bodies held, one being written, one in the reader's hand")
	release()
	_, err := wait()
	require.NoError(t, err)
	assert.Equal(t, int64(200), src.taken.Load())
}

// TestSurveyManifestMissing: a file the manifest lists and the input does
// not hold is an error row after the input's captures; a file it does not
// list is not a capture.
func TestSurveyManifestMissing(t *testing.T) {
	dir := t.TempDir()
	man := "file\tsite\nb.txt\tb.example\ngone.txt\tgone.example\na.txt\ta.example\n"
	for name, body := range map[string]string{"manifest.tsv": man, "a.txt": "User-agent: *\nDisallow: /\n", "b.txt": "", "README": "not listed\n"} {
		require.NoError(t, os.WriteFile(filepath.Join(dir, name), []byte(body), 0o644))
	}
	run := runSurveyTest(t, "--agents", "GPTBot", dir)
	assert.Equal(t, cli.ExitNegative, run.Code)
	require.Len(t, run.captures, 3)
	assert.Equal(t, []string{"a.txt", "b.txt", "gone.txt"}, []string{run.captures[0].File, run.captures[1].File, run.captures[2].File})
	assert.Equal(t, "a.example", run.captures[0].Host)
	assert.Equal(t, "all", run.agents[0].Class)
	assert.Equal(t, "none", run.agents[1].Class, "an empty file allows everything")
	assert.Equal(t, "listed in manifest.tsv but not found", run.captures[2].Error)
	assert.Equal(t, "gone.example", run.captures[2].Site)
	assert.Contains(t, run.Stderr, "gone.txt")
	assert.Len(t, run.agents, 2)

	archive := buildArchive(t, surveyArchiveFiles[:3], false)
	data, err := os.ReadFile(archive)
	require.NoError(t, err)
	// The same archive, its manifest listing a file it does not hold.
	var buf bytes.Buffer
	zr, err := gzip.NewReader(bytes.NewReader(data))
	require.NoError(t, err)
	tr := tar.NewReader(zr)
	zw := gzip.NewWriter(&buf)
	tw := tar.NewWriter(zw)
	for {
		hdr, err := tr.Next()
		if err == io.EOF {
			break
		}
		require.NoError(t, err)
		body, err := io.ReadAll(tr)
		require.NoError(t, err)
		if hdr.Name == "manifest.tsv" {
			body = append(body, "files/99999.txt\t1\trepo\tpath\tmissing.example\n"...)
			hdr.Size = int64(len(body))
		}
		require.NoError(t, tw.WriteHeader(hdr))
		_, err = tw.Write(body)
		require.NoError(t, err)
	}
	require.NoError(t, tw.Close())
	require.NoError(t, zw.Close())
	require.NoError(t, os.WriteFile(archive, buf.Bytes(), 0o644))
	run = runSurveyTest(t, "--agents", "GPTBot", archive)
	assert.Equal(t, cli.ExitNegative, run.Code)
	require.Len(t, run.captures, 4)
	assert.Equal(t, "files/99999.txt", run.captures[3].File)
	assert.Equal(t, "listed in manifest.tsv but not in the archive", run.captures[3].Error)
	assert.Len(t, run.agents, 3)
}

// TestSurveyProgress: --progress reports the captures answered and the
// rate on stderr, at the end at least; without it stderr stays quiet.
func TestSurveyProgress(t *testing.T) {
	dir := t.TempDir()
	for _, name := range []string{"a.example.txt", "b.example.txt"} {
		require.NoError(t, os.WriteFile(filepath.Join(dir, name), []byte("User-agent: *\nDisallow: /x\n"), 0o644))
	}
	run := runSurveyTest(t, "--progress", "--agents", "GPTBot", dir)
	require.Equal(t, cli.ExitOK, run.Code, run.Stderr)
	assert.Regexp(t, `robots survey: 2 captures, 0\.0 MiB in \S+, \d+ captures/s\n$`, run.Stderr)
	run = runSurveyTest(t, "--agents", "GPTBot", dir)
	assert.Empty(t, run.Stderr)
}
