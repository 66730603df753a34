package survey

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"sync"

	"github.com/fastrobots/robots/cmd/robots/internal/capture"
	"github.com/fastrobots/robots/cmd/robots/internal/cli"
	"github.com/fastrobots/robots/cmd/robots/internal/methods"
	"golang.org/x/sync/semaphore"
)

const surveySynopsis = `robots survey --out DIR [--agents LIST] [--format parquet|jsonl] [--shard K/N] [--html FILE] [--compare LIST] [--progress] [--inputs FILE] [--allow-private-redirects] INPUT...
robots survey summarize [--json] [--html FILE] DIR|FILE...

Reads robots.txt captures and writes, for each, what Google's crawler
reads in it, and for each capture and agent which group applies and how
much of the site the agent is disallowed over every path: none, some,
all, or undecided past the classifier's state budget; then prints a
summary. docs/survey.md describes every field.

An INPUT is a directory of plain files, each file a capture (every file
under it, in lexical order), a .tar.gz (or .tgz) archive of such files, or
one plain file. When a directory or an archive holds a manifest.tsv with
a file and a site column, only the files it lists are captures and their
host is read from the site column; otherwise a file's name, less .txt, is
its host. An archive is read as a stream; when its manifest comes after
the files, a first pass reads the member headers up to the manifest and a
second reads the captures. A .warc or .warc.gz file (one gzip member per
record, as Common Crawl writes them) gives its response records for
/robots.txt, with their status, fetch time and Google's status policy; a
3xx is followed within the file, five redirects at most; other records are
skipped and counted. An http(s) URL whose path ends in .tar.gz, .tgz,
.warc or .warc.gz is read as that file would be, streamed and never
stored; a seek, or resuming a lost connection, is a Range request. Its
requests connect wherever its host leads; a redirect to another host is
followed only to a public address (not loopback, private, link-local or
reserved), without the proxy, unless --allow-private-redirects is given.

Under --out DIR, --format parquet (the default) writes captures.parquet,
one row per capture, agents.parquet, one row per capture and agent, and
errors.parquet, one row per capture that could not be read (a member of
a broken archive, a file that cannot be opened), in input order; with
--shard K/N, captures-K-of-N.parquet and so on. --format jsonl writes the
same rows as JSON Lines, captures.jsonl (the error rows among the
captures, with an "error" member) and agents.jsonl. After an error row
the run goes on.

--agents is a comma-separated list of product tokens; * stands for any
crawler (the '*' groups alone). The default list is Googlebot, Bingbot,
* and every AI crawler of the crawler table ("robots agents" lists it).

--inputs FILE adds the INPUTs FILE lists, one a line, after those given
as arguments: a crawl's list of WARC files is longer than a command line.

--shard K/N answers a share of the run: with at least N inputs, the
inputs whose position among them, from 0, is K-1 modulo N, and only those
are read; with fewer, the captures whose index in their input is K-1
modulo N. N runs over the same inputs write together exactly the rows of
one run.

--compare LIST (dpi, cc, imc, root, comma-separated) adds to each agent
row the class each published method gives (class_dpi, ...), for the
captures whose rules were read, and to the summary how each method's
counts differ from the exact reading.

"robots survey summarize" rebuilds the summary, and the page, from the
files of one or more runs (see robots survey summarize -h).

--html FILE writes, after the summary, one self-contained HTML page of
its figures with SVG charts: restriction per agent and what caused it
(a named group, the '*' group, a CDN's managed section, no group, the
status, an unresolved redirect), the site's own rules apart from the
managed section, the published methods beside the exact reading, the
captures that checking / alone misreads, usage signals, statuses and
sizes. The page has no script and loads nothing.

Exits 0 on success, 1 when some capture could not be read, 2 on usage
errors or when the output cannot be written.`

// surveyQueuePerWorker is how many captures may wait per worker, read
// and not yet answered, or answered and not yet written: enough to keep
// every worker busy while the writer waits on a slow capture, which a
// shorter queue lets idle them; surveyQueueBytes bounds their bodies, so
// that memory stays flat however many workers there are.
const surveyQueuePerWorker = 32

// surveyQueueBytes bounds the bodies of the captures read and not yet
// written, each counted as its body plus surveyCaptureBytes, so that the
// queues of many workers full of 500 KiB bodies hold 64 MiB at most. A
// capture alone is never refused.
const surveyQueueBytes = 64 << 20

// surveyCaptureBytes is what a capture is counted for beside its body: its
// fields and its rows.
const surveyCaptureBytes = 4 << 10

// surveyFormats are the values of --format.
const (
	surveyFormatParquet = "parquet"
	surveyFormatJSONL   = "jsonl"
)

// surveyConfig is a survey's parsed arguments.
type surveyConfig struct {
	agents   []string
	out      string
	inputs   []string
	shardK   int // 1-based; 0 with shardN 0 when the run is whole
	shardN   int
	format   string // surveyFormatParquet or surveyFormatJSONL
	progress bool
	workers  int
	readers  int    // inputs read at once; 0: surveyReaders
	html     string // the page --html names; "" for none
	compare  []methods.Method
}

// Run runs "robots survey".
func Run(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	if len(args) > 0 && args[0] == "summarize" {
		return runSummarize(args[1:], stdout, stderr)
	}
	var agents, format, out, shard, page, list, compare string
	var showProgress, allowPrivate bool
	fs := cli.NewFlagSet("survey", surveySynopsis, stderr)
	fs.StringVar(&agents, "agents", "", "comma-separated agents to answer for (default: the list in docs/survey.md)")
	fs.StringVar(&format, "format", surveyFormatParquet, "output format: parquet or jsonl")
	fs.StringVar(&out, "out", "", "directory to write the rows to (required)")
	fs.StringVar(&shard, "shard", "", "answer only share K of N of the inputs, or of their captures (K/N, 1 ≤ K ≤ N)")
	fs.StringVar(&page, "html", "", "write an HTML report of the summary, with SVG charts, to `FILE`")
	fs.StringVar(&compare, "compare", "", "add the classes of the published methods in `LIST` (dpi,cc,imc,root) to the agent rows and the summary")
	fs.StringVar(&list, "inputs", "", "read the INPUTs, one a line, from `FILE` (after those given as arguments)")
	fs.BoolVar(&showProgress, "progress", false, "report captures per second on stderr")
	fs.BoolVar(&allowPrivate, "allow-private-redirects", false, "let a redirect of an http(s) input to another host connect to loopback and private addresses, through the proxy")
	inputs, err := cli.ParseInterleaved(fs, args)
	if err != nil {
		return cli.FlagExit(err)
	}
	if list != "" {
		more, err := readInputList(list)
		if err != nil {
			fmt.Fprintf(stderr, "robots survey: --inputs: %v\n", err)
			return cli.ExitUsage
		}
		inputs = append(inputs, more...)
	}
	cfg, msg := surveyArgs(agents, format, out, shard, inputs)
	if msg == "" && page == "" && cli.Given(fs, "html") {
		msg = "--html was given an empty file name"
	}
	if msg == "" {
		if cfg.compare, err = methods.ParseMethods(compare); err != nil {
			msg = "--compare: " + err.Error()
		}
	}
	if msg != "" {
		fmt.Fprintf(stderr, "robots survey: %s\n", msg)
		fs.Usage()
		return cli.ExitUsage
	}
	cfg.progress = showProgress
	cfg.html = page
	cfg.workers = runtime.GOMAXPROCS(0)
	capture.HTTP.AllowPrivateRedirects = allowPrivate
	return survey(cfg, stdout, stderr)
}

// surveyMaxInputList bounds the file --inputs reads: 64 MiB holds half a
// million URLs of Common Crawl's length, more than a crawl's robots.txt
// files.
const surveyMaxInputList = 64 << 20

// readInputList reads the INPUTs of --inputs: one a line, blank lines and
// lines starting with '#' skipped, so that a list longer than a command
// line allows (a crawl's WARC paths) is given whole to every shard.
func readInputList(name string) ([]string, error) {
	f, err := os.Open(name)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	data, err := io.ReadAll(io.LimitReader(f, surveyMaxInputList+1))
	if err != nil {
		return nil, err
	}
	if len(data) > surveyMaxInputList {
		return nil, fmt.Errorf("%s is longer than %d bytes", name, surveyMaxInputList)
	}
	var inputs []string
	for _, line := range strings.Split(string(data), "\n") {
		if line = strings.TrimSpace(line); line != "" && !strings.HasPrefix(line, "#") {
			inputs = append(inputs, line)
		}
	}
	return inputs, nil
}

// surveyArgs checks the arguments, or says in one line why they make no
// run.
func surveyArgs(agents, format, out, shard string, inputs []string) (surveyConfig, string) {
	cfg := surveyConfig{out: out, inputs: inputs, format: format}
	switch format {
	case surveyFormatParquet, surveyFormatJSONL:
	default:
		return cfg, fmt.Sprintf("unknown format %q (want parquet or jsonl)", format)
	}
	if out == "" {
		return cfg, "--out DIR is required"
	}
	if len(inputs) == 0 {
		return cfg, "no INPUT given"
	}
	for _, in := range inputs {
		if in == "" {
			return cfg, "an empty INPUT was given"
		}
		if _, err := capture.Kind(in); err != nil {
			return cfg, err.Error()
		}
	}
	if agents == "" {
		cfg.agents = surveyAgentNames(surveyDefaultAgents)
	} else {
		for _, a := range strings.Split(agents, ",") {
			if a = strings.TrimSpace(a); a != "" {
				cfg.agents = append(cfg.agents, a)
			}
		}
		if len(cfg.agents) == 0 {
			return cfg, "--agents names no agent"
		}
	}
	if shard != "" {
		k, n, ok := parseShard(shard)
		if !ok {
			return cfg, fmt.Sprintf("bad --shard %q (want K/N with 1 ≤ K ≤ N)", shard)
		}
		cfg.shardK, cfg.shardN = k, n
	}
	return cfg, ""
}

// byInput reports whether the run's shards share its inputs rather than
// the captures of each: when there are at least as many inputs as shards,
// so that a shard reads only its own inputs and N shards do the work of
// one run, not N times the decompression.
func (cfg *surveyConfig) byInput() bool {
	return cfg.shardN > 0 && len(cfg.inputs) >= cfg.shardN
}

// ownsInput reports whether the run reads its input of the given position
// among cfg.inputs: every input, unless the shards share the inputs.
func (cfg *surveyConfig) ownsInput(input int) bool {
	return !cfg.byInput() || input%cfg.shardN == cfg.shardK-1
}

// owns reports whether the capture of the given index within the input of
// the given position is this run's to answer: every capture when the run
// is not a shard; every capture of its own inputs when the shards share
// the inputs; else the captures whose index is K-1 modulo N.
func (cfg *surveyConfig) owns(input, index int) bool {
	switch {
	case cfg.shardN == 0:
		return true
	case cfg.byInput():
		return cfg.ownsInput(input)
	}
	return index%cfg.shardN == cfg.shardK-1
}

// ownInputs are the inputs the run reads, in order.
func (cfg *surveyConfig) ownInputs() []string {
	var out []string
	for i, in := range cfg.inputs {
		if cfg.ownsInput(i) {
			out = append(out, in)
		}
	}
	return out
}

// parseShard reads "K/N".
func parseShard(s string) (k, n int, ok bool) {
	ks, ns, found := strings.Cut(s, "/")
	if !found {
		return 0, 0, false
	}
	k, err1 := strconv.Atoi(ks)
	n, err2 := strconv.Atoi(ns)
	if err1 != nil || err2 != nil || n < 1 || k < 1 || k > n {
		return 0, 0, false
	}
	return k, n, true
}

// surveyJob is a capture on its way through the workers; done receives
// its answer.
type surveyJob struct {
	c      *capture.Capture
	weight int64 // what it holds of surveyQueueBytes
	done   chan *surveyResult
}

// survey runs a parsed survey, writing the rows under cfg.out, the
// summary to stdout and, with cfg.html, the page.
func survey(cfg surveyConfig, stdout, stderr io.Writer) int {
	if err := os.MkdirAll(cfg.out, 0o755); err != nil {
		fmt.Fprintf(stderr, "robots survey: %v\n", err)
		return cli.ExitUsage
	}
	var page *surveyPage
	if cfg.html != "" {
		var err error
		if page, err = createSurveyPage(cfg.html); err != nil {
			fmt.Fprintf(stderr, "robots survey: %v\n", err)
			return cli.ExitUsage
		}
		defer page.abandon()
	}
	w, err := newSurveyWriter(cfg)
	if err != nil {
		fmt.Fprintf(stderr, "robots survey: %v\n", err)
		return cli.ExitUsage
	}

	sum := newSurveySummary(cfg.agents)
	prog := newSurveyProgress(stderr, cfg.progress, cfg.ownInputs())
	inputErrs, werr := surveyPipeline(cfg, capture.Open, func(res *surveyResult) error {
		if err := w.write(res); err != nil {
			return err
		}
		sum.add(res)
		if res.row != nil {
			prog.add(res.row.Bytes)
		} else {
			prog.add(0)
		}
		return nil
	})
	prog.finish()
	if err := w.close(); werr == nil {
		werr = err
	}
	if werr != nil {
		fmt.Fprintf(stderr, "robots survey: %v\n", werr)
		return cli.ExitUsage
	}
	for _, e := range inputErrs {
		fmt.Fprintf(stderr, "robots survey: %s\n", e)
	}
	if err := sum.write(stdout); err != nil {
		fmt.Fprintf(stderr, "robots survey: %v\n", err)
		return cli.ExitUsage
	}
	if page != nil {
		if err := page.write(cfg, sum); err != nil {
			fmt.Fprintf(stderr, "robots survey: %v\n", err)
			return cli.ExitUsage
		}
	}
	if len(inputErrs) > 0 {
		return cli.ExitNegative
	}
	return cli.ExitOK
}

// surveyWriter writes a survey's rows under --out in one format.
type surveyWriter interface {
	write(*surveyResult) error
	// close writes what is buffered and closes the files.
	close() error
}

// newSurveyWriter creates the files of cfg.format under cfg.out: each
// table's name, then -K-of-N for a shard, so that the shards of a run may
// share a directory, then the format's extension.
func newSurveyWriter(cfg surveyConfig) (surveyWriter, error) {
	suffix := ""
	if cfg.shardN > 0 {
		suffix = fmt.Sprintf("-%d-of-%d", cfg.shardK, cfg.shardN)
	}
	if cfg.format == surveyFormatJSONL {
		return newSurveyJSONLWriter(cfg.out, suffix+".jsonl")
	}
	return newSurveyParquetWriter(cfg.out, suffix+".parquet")
}

// surveyJSONLWriter writes captures.jsonl, the error rows among the
// captures, and agents.jsonl, from the lines the workers encoded.
type surveyJSONLWriter struct {
	capF, agF *os.File
	capW, agW *bufio.Writer
}

func newSurveyJSONLWriter(dir, suffix string) (*surveyJSONLWriter, error) {
	capF, err := os.Create(filepath.Join(dir, surveyTableCaptures+suffix))
	if err != nil {
		return nil, err
	}
	agF, err := os.Create(filepath.Join(dir, surveyTableAgents+suffix))
	if err != nil {
		capF.Close()
		return nil, err
	}
	return &surveyJSONLWriter{capF: capF, agF: agF, capW: bufio.NewWriterSize(capF, 256<<10), agW: bufio.NewWriterSize(agF, 1<<20)}, nil
}

func (w *surveyJSONLWriter) write(res *surveyResult) error {
	if _, err := w.capW.Write(res.capture); err != nil {
		return err
	}
	_, err := w.agW.Write(res.agents)
	return err
}

func (w *surveyJSONLWriter) close() error {
	var err error
	for _, f := range []func() error{w.capW.Flush, w.agW.Flush, w.capF.Close, w.agF.Close} {
		if e := f(); err == nil && !errors.Is(e, os.ErrClosed) {
			err = e
		}
	}
	return err
}

// surveyPipeline answers the captures of cfg.inputs, opened with open,
// and hands each answer to emit, in input order. Readers, up to
// surveyReaders of them, each read one input at a time and hand its
// captures to cfg.workers workers and, in the same order, to the caller's
// goroutine, which takes the inputs in turn and waits for each answer.
// Each input being read holds its share of the queue: surveyQueuePerWorker
// captures per worker and surveyQueueBytes of bodies, split between the
// readers. An input's share is given back once its last answer is
// emitted, and the next input is opened then, so a slow emit holds the
// readers back, memory does not grow with the input, and no reader of a
// later input can take what the input being written needs. After emit
// fails, the readers stop, the captures under way are answered and
// dropped, and the error is returned. inputErrs says which captures of
// the inputs read could not be read, whichever shard writes their rows,
// in input order.
func surveyPipeline(cfg surveyConfig, open func(string) (capture.Source, error), emit func(*surveyResult) error) (inputErrs []string, err error) {
	workers := max(1, cfg.workers)
	var owned []int
	for i := range cfg.inputs {
		if cfg.ownsInput(i) {
			owned = append(owned, i)
		}
	}
	readers := cfg.readers
	if readers <= 0 {
		readers = surveyReaders(workers, len(owned))
	}
	queue := workers * surveyQueuePerWorker
	share := surveyShare{captures: max(1, queue/readers), bytes: surveyQueueBytes / int64(readers)}
	jobs := make(chan *surveyJob, queue)
	streams := make(chan *surveyStream, readers) // the inputs being read, in input order
	slots := make(chan struct{}, readers)        // an input's share, held from opening to its last answer
	quit := make(chan struct{})
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	go func() {
		var wg sync.WaitGroup
		defer func() {
			wg.Wait()
			close(jobs)
		}()
		defer close(streams)
		for _, i := range owned {
			select {
			case slots <- struct{}{}:
			case <-quit:
				return
			}
			st := &surveyStream{order: make(chan *surveyJob, share.captures), held: semaphore.NewWeighted(share.bytes)}
			select {
			case streams <- st:
			case <-quit:
				return
			}
			wg.Add(1)
			go func() {
				defer wg.Done()
				defer close(st.order)
				st.read(ctx, cfg, i, open, share, jobs, quit)
			}()
		}
	}()
	for w := 0; w < workers; w++ {
		go func() {
			for j := range jobs {
				j.done <- surveyCapture(j.c, cfg.agents, cfg.format == surveyFormatJSONL, cfg.compare...)
			}
		}()
	}
	for st := range streams {
		for j := range st.order {
			res := <-j.done
			if err == nil {
				if err = emit(res); err != nil {
					close(quit)
					cancel()
				}
			}
			st.held.Release(j.weight)
		}
		inputErrs = append(inputErrs, st.errs...)
		<-slots
	}
	return inputErrs, err
}

// surveyWorkersPerReader is how many workers one reader keeps busy: a
// WARC file's reader takes about a quarter of a run's CPU time
// (docs/benchmarks.md), so past about four cores a run of one reader
// would leave cores idle.
const surveyWorkersPerReader = 4

// surveyReaders is how many of a run's inputs are read at once: one per
// surveyWorkersPerReader workers, at least one, at most one per input.
func surveyReaders(workers, inputs int) int {
	return max(1, min(inputs, (workers+surveyWorkersPerReader-1)/surveyWorkersPerReader))
}

// surveyShare is what an input being read may hold of the queue: captures
// read and not yet written, and their bytes.
type surveyShare struct {
	captures int
	bytes    int64
}

// surveyStream is one input being read: its jobs in input order, the
// bytes of its share they hold, and the errors of its captures.
type surveyStream struct {
	order chan *surveyJob
	held  *semaphore.Weighted
	errs  []string // written by its reader; read once order is closed
}

// read reads input i of cfg and sends its captures, those the run owns,
// to jobs and, in the same order, to st.order, until the input ends or
// quit is closed.
func (st *surveyStream) read(ctx context.Context, cfg surveyConfig, i int, open func(string) (capture.Source, error), share surveyShare, jobs chan<- *surveyJob, quit <-chan struct{}) {
	in := cfg.inputs[i]
	index := 0 // the next capture's index in the input
	take := func() (int, bool) {
		n := index
		index++
		return n, cfg.owns(i, n)
	}
	// A job goes to the workers before the caller waits for it, so that a
	// job waited for is always being answered.
	send := func(c *capture.Capture) bool {
		j := &surveyJob{c: c, weight: min(int64(len(c.Body))+surveyCaptureBytes, share.bytes), done: make(chan *surveyResult, 1)}
		if st.held.Acquire(ctx, j.weight) != nil {
			return false // the writer failed
		}
		select {
		case jobs <- j:
		case <-quit:
			return false
		}
		select {
		case st.order <- j:
		case <-quit:
			return false
		}
		return true
	}
	src, err := open(in)
	if err != nil {
		st.errs = append(st.errs, err.Error())
		if n, ok := take(); ok {
			send(&capture.Capture{Index: n, Input: in, Err: err})
		}
		return
	}
	defer src.Close()
	for {
		c, err := src.Next(take)
		if err != nil {
			return
		}
		if c.Err != nil {
			st.errs = append(st.errs, fmt.Sprintf("%s: %s: %v", in, c.File, c.Err))
		}
		if !cfg.owns(i, c.Index) {
			continue
		}
		if !send(c) {
			return
		}
	}
}
