package capture

import (
	"archive/tar"
	"bufio"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"net/url"
	"os"
	"path"
	"path/filepath"
	"strings"

	"github.com/fastrobots/robots"
	"github.com/fastrobots/robots/cmd/robots/internal/cli"
	"github.com/klauspost/compress/gzip"
)

// surveyManifestName is the name of the manifest in a directory or at the
// root of an archive: a TSV file whose header names a file column and a
// site column, as testdata/corpus/manifest.tsv has.
const surveyManifestName = "manifest.tsv"

// surveyMaxManifestBytes bounds the manifest read into memory: it is the
// one part of an input held whole, a row per capture, so that hosts can be
// joined to files read later. The full corpus's manifest is 7 MB for
// 28,515 files; this leaves room for about ten times as many.
const surveyMaxManifestBytes = 64 << 20

// surveyMaxManifestLine bounds one line of a manifest, so that a manifest
// with no line breaks fails at once rather than at surveyMaxManifestBytes.
const surveyMaxManifestLine = 1 << 20

// surveyStatusPlain is the HTTP status a capture read from a plain file
// or an archive member is given: the file is the body of a response that
// was served, with no status recorded beside it.
const surveyStatusPlain = 200

// Capture is one robots.txt read from an input, or an error met where one
// was expected. Exactly one of body and err is meaningful.
type Capture struct {
	Index  int    // position in the run's input order, over every input
	Input  string // the INPUT argument it came from
	File   string // path within the input: a directory's relative path or an archive member's name
	Site   string // the manifest's site value, else the file's name
	Status int
	Size   int64  // the body's full size, which may exceed len(body)
	Body   []byte // at most cli.MaxInputBytes+1 bytes: one past the limit tells that it was cut
	Err    error  // what went wrong; the capture is then an error row
	// Offset is, for an archive error, the uncompressed bytes of the
	// archive read when it was met; for a WARC record, the Offset of the
	// record (of its gzip member in a .warc.gz) in the file.
	Offset int64

	// What a WARC record tells beside the body.
	URL       string // the target URI, when the record gives it
	Host      string // its host
	FetchTime string // WARC-Date, RFC 3339
	Skipped   int    // records of the input skipped before this one (and after, for its last)
	// For a 3xx: where the redirects lead, the status found there and the
	// redirects followed; or why they were not followed. body and size are
	// then the target's.
	RedirectTarget string
	RedirectStatus int
	RedirectHops   int
	RedirectError  string
}

// Source hands out an input's captures in order. next returns
// io.EOF after the last; a capture carrying an error is returned as a
// capture, and a source that cannot go on after it returns io.EOF next.
// take is called with each capture's index before its body is read, so
// that a shard reads only the bodies it answers for.
type Source interface {
	Next(take func() (int, bool)) (*Capture, error)
	Close() error
}

// Kind says how an INPUT argument is read, or why it cannot be: "warc",
// "archive", or "path" (a directory, or a single plain file). A local
// file is a WARC file by its bytes (kind.go), else by its name; an
// http(s) input by the ending of its path.
func Kind(input string) (kind string, err error) {
	lower := strings.ToLower(input)
	if IsHTTP(input) {
		// Its path ends as an archive's or a WARC file's, or it is refused.
		if lower, err = surveyHTTPPath(input); err != nil {
			return "", err
		}
	} else if kind, ok := localKind(input); ok {
		return kind, nil
	}
	switch {
	case strings.HasSuffix(lower, ".warc"), strings.HasSuffix(lower, ".warc.gz"):
		return "warc", nil
	case strings.HasSuffix(lower, ".tar.gz"), strings.HasSuffix(lower, ".tgz"):
		return "archive", nil
	}
	return "path", nil // a directory, or a single plain file
}

// Open opens input for reading captures. The input's state
// (the bytes counted for --progress, its size, the resumes of an http
// input) starts afresh.
func Open(input string) (Source, error) {
	kind, err := Kind(input)
	if err != nil {
		return nil, err
	}
	st := surveyInputStateOf(input, true)
	src, err := openSurveySourceKind(input, kind)
	if err != nil {
		st.done()
		return nil, err
	}
	return &meteredSource{Source: src, st: st}, nil
}

// meteredSource counts, when its input is closed, the bytes of the input
// it did not read as read (see surveyInputState.done).
type meteredSource struct {
	Source
	st *surveyInputState
}

func (m *meteredSource) Close() error {
	m.st.done()
	return m.Source.Close()
}

func openSurveySourceKind(input, kind string) (Source, error) {
	switch kind {
	case "archive":
		return openArchiveSource(input)
	case "warc":
		name := input
		if IsHTTP(input) {
			name, _ = surveyHTTPPath(input)
		}
		_, gz := isWARC(name)
		return openWARCSource(input, gz)
	}
	fi, err := os.Stat(input)
	if err != nil {
		return nil, err
	}
	if !fi.IsDir() {
		return &fileListSource{input: input, root: filepath.Dir(input), files: []string{filepath.Base(input)},
			kinds: []fileKind{sniffFile(input)}, single: fi.Size()}, nil
	}
	return openDirSource(input)
}

// surveyFile is an archive or WARC input, read from its start and, to
// resynchronise or to read a redirect's target again, from an offset.
type surveyFile interface {
	io.ReadSeekCloser
}

// openSurveyFile opens an archive or WARC input, a local file or an
// http(s) URL, and counts the bytes read from it for --progress.
func openSurveyFile(input string) (surveyFile, error) {
	return openSurveyFileCounted(input, true)
}

// openSurveyFileCounted opens an archive or WARC input; with counted
// unset its bytes are not counted for --progress: an archive's pass over
// its member headers, which looks for the manifest before the pass that
// reads the captures, is not counted, so that the share of the input read
// follows the captures. The WARC source's own re-reads (after a bad
// member, for a redirect's target) are counted, each byte once.
func openSurveyFileCounted(input string, counted bool) (surveyFile, error) {
	st := surveyInputStateOf(input, false)
	var f surveyFile
	var err error
	if IsHTTP(input) {
		f, err = openSurveyHTTP(HTTP, input, st)
	} else {
		var lf *os.File
		if lf, err = os.Open(input); err == nil {
			f = lf
			if fi, err := lf.Stat(); err == nil {
				st.setSize(fi.Size())
			}
		}
	}
	if err != nil || !counted {
		return f, err
	}
	return &meteredFile{surveyFile: f, st: st}, nil
}

// manifest maps a file's path, as the manifest writes it, to its site.
type manifest struct {
	sites map[string]string
	seen  map[string]bool // the listed files met so far
	order []string        // listed files in manifest order, for those never met
	tailI int             // the next of order nextMissing looks at
}

// readManifest reads a manifest of at most limit bytes. A TSV without a
// file and a site column is no manifest: nil, and no error.
func readManifest(r io.Reader, limit int64) (*manifest, error) {
	lr := &io.LimitedReader{R: r, N: limit + 1}
	sc := bufio.NewScanner(lr)
	sc.Buffer(make([]byte, 0, 64<<10), surveyMaxManifestLine)
	fileCol, siteCol := -1, -1
	var m *manifest
	for sc.Scan() {
		fields := strings.Split(strings.TrimSuffix(sc.Text(), "\r"), "\t")
		if m == nil {
			for i, f := range fields {
				switch f {
				case "file":
					fileCol = i
				case "site":
					siteCol = i
				}
			}
			if fileCol < 0 || siteCol < 0 {
				return nil, nil
			}
			m = &manifest{sites: map[string]string{}, seen: map[string]bool{}}
			continue
		}
		if len(fields) <= max(fileCol, siteCol) || fields[fileCol] == "" {
			continue
		}
		name := cleanMember(fields[fileCol])
		if _, dup := m.sites[name]; !dup {
			m.order = append(m.order, name)
		}
		m.sites[name] = fields[siteCol]
	}
	if lr.N <= 0 {
		return nil, fmt.Errorf("%s is longer than %d bytes", surveyManifestName, limit)
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("%s: %w", surveyManifestName, err)
	}
	return m, nil
}

// site returns the site of name and whether the manifest lists it, and
// records that it was met.
func (m *manifest) site(name string) (string, bool) {
	s, ok := m.sites[name]
	if ok {
		m.seen[name] = true
	}
	return s, ok
}

// nextMissing returns, one per call once every capture was met, the
// listed files never met, in manifest order; ok is false after the last.
func (m *manifest) nextMissing() (name string, ok bool) {
	for m.tailI < len(m.order) {
		name = m.order[m.tailI]
		m.tailI++
		if !m.seen[name] {
			return name, true
		}
	}
	return "", false
}

// missingCapture is the error row of a listed file that the input does
// not hold, or nil after the last; what says where it was looked for.
func (m *manifest) missingCapture(input, what string, take func() (int, bool)) *Capture {
	name, ok := m.nextMissing()
	if !ok {
		return nil
	}
	index, _ := take()
	return &Capture{Index: index, Input: input, File: name, Site: m.sites[name],
		Err: fmt.Errorf("listed in %s but %s", surveyManifestName, what)}
}

// cleanMember returns an archive member's or a manifest row's path in one
// form: slashes, no leading "./".
func cleanMember(name string) string {
	name = path.Clean(filepath.ToSlash(name))
	return strings.TrimPrefix(name, "./")
}

// siteOfFile is the site of a capture that no manifest lists: its file's
// name without a .txt extension ("example.com.txt" is example.com).
func siteOfFile(name string) string {
	return strings.TrimSuffix(path.Base(filepath.ToSlash(name)), ".txt")
}

// HostOf reads a site value as a host and returns it with the URL of its
// robots.txt, or "" and "" when it names no host. Manifests write a
// description in parentheses for a file of no site, a note after the host
// ("wikipedia.org (static part)"), and some write the port after an
// underscore ("moodle.org_443"); https's port 443 is dropped.
func HostOf(site string) (host, target string) {
	fields := strings.Fields(site)
	if len(fields) == 0 {
		return "", ""
	}
	h := fields[0]
	for i := 0; i < len(h); i++ {
		c := h[i]
		ok := c >= 0x80 || 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' ||
			strings.IndexByte(".-_:@[]", c) >= 0
		if !ok {
			return "", ""
		}
	}
	if i := strings.LastIndexByte(h, '_'); i > 0 && i < len(h)-1 && strings.Trim(h[i+1:], "0123456789") == "" {
		h = h[:i] + ":" + h[i+1:]
	}
	target, err := robots.URLFor("https://" + h + "/")
	if err != nil {
		return "", ""
	}
	u, err := url.Parse(target)
	if err != nil || u.Host == "" {
		return "", ""
	}
	return u.Host, target
}

// readBody reads at most cli.MaxInputBytes+1 bytes of r: Parse and Lint read
// the first cli.MaxInputBytes and see from the extra byte that there was more.
func readBody(r io.Reader) ([]byte, error) {
	return io.ReadAll(io.LimitReader(r, cli.MaxInputBytes+1))
}

// fileListSource reads the files under root, each a capture or, for a
// WARC file, the captures it holds, then reports the files a manifest
// lists that were not found.
type fileListSource struct {
	input string
	root  string
	files []string   // relative to root, slash-separated, in order
	kinds []fileKind // what each file's bytes say it is
	// warcs is set when a file is a WARC file: the files that are none
	// are error rows, not robots.txt bodies.
	warcs bool
	inner Source // the WARC file being read
	man   *manifest
	i     int
	// single is the size of a single plain file, counted for --progress
	// as it is passed, read or not; 0 for a directory, whose files are
	// counted as they are read.
	single int64
}

// openDirSource lists the regular files under dir in lexical order and
// says what each is. With a manifest, only the files it lists are
// captures; the manifest is read first, whole, as it is small beside the
// files.
func openDirSource(dir string) (*fileListSource, error) {
	s := &fileListSource{input: dir, root: dir}
	if f, err := os.Open(filepath.Join(dir, surveyManifestName)); err == nil {
		s.man, err = readManifest(f, surveyMaxManifestBytes)
		f.Close()
		if err != nil {
			return nil, fmt.Errorf("%s: %w", dir, err)
		}
	} else if !errors.Is(err, fs.ErrNotExist) {
		return nil, err
	}
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if !d.Type().IsRegular() {
			return nil
		}
		rel, err := filepath.Rel(dir, p)
		if err != nil {
			return err
		}
		rel = filepath.ToSlash(rel)
		if rel == surveyManifestName {
			return nil
		}
		if s.man != nil {
			if _, ok := s.man.sites[cleanMember(rel)]; !ok {
				return nil // not a capture: a README beside the files
			}
		}
		kind := sniffFile(p)
		s.files = append(s.files, rel)
		s.kinds = append(s.kinds, kind)
		s.warcs = s.warcs || kind == kindWARC || kind == kindWARCGzip
		return nil
	})
	if err != nil {
		return nil, err
	}
	return s, nil
}

func (s *fileListSource) Next(take func() (int, bool)) (*Capture, error) {
	for {
		if s.inner != nil {
			c, err := s.inner.Next(take)
			if err == nil {
				return c, nil
			}
			s.inner.Close()
			s.inner = nil
		}
		if s.i >= len(s.files) {
			break
		}
		rel, kind := s.files[s.i], s.kinds[s.i]
		s.i++
		if c := s.file(rel, kind, take); c != nil {
			return c, nil
		}
	}
	if s.man == nil {
		return nil, io.EOF
	}
	if c := s.man.missingCapture(s.input, "not found", take); c != nil {
		return c, nil
	}
	return nil, io.EOF
}

// file reads the file rel: a plain file is a capture, a WARC file's
// captures are read through s.inner (nil is returned), and a file that
// is neither here is an error row.
func (s *fileListSource) file(rel string, kind fileKind, take func() (int, bool)) *Capture {
	site := siteOfFile(rel)
	if s.man != nil {
		site, _ = s.man.site(cleanMember(rel))
	}
	name := filepath.Join(s.root, filepath.FromSlash(rel))
	var err error
	switch {
	case kind == kindWARC || kind == kindWARCGzip:
		st := surveyInputStateOf(name, true)
		var src *warcSource
		if src, err = openWARCFile(s.input, name, rel, kind == kindWARCGzip); err == nil {
			s.inner = &meteredSource{Source: src, st: st}
			return nil
		}
		st.done()
	case kind == kindGzip:
		err = errGzipNotWARC
	case s.warcs:
		err = errNotWARC
	}
	index, ok := take()
	if s.single > 0 {
		surveyInputBytes.Add(s.single)
	}
	if err != nil {
		return &Capture{Index: index, Input: s.input, File: rel, Site: site, Err: err}
	}
	c := &Capture{Index: index, Input: s.input, File: rel, Site: site, Status: surveyStatusPlain}
	if !ok {
		return c
	}
	c.Body, c.Size, c.Err = readFileBody(name)
	if s.single == 0 {
		surveyInputBytes.Add(c.Size)
	}
	return c
}

func (s *fileListSource) Close() error {
	if s.inner != nil {
		return s.inner.Close()
	}
	return nil
}

// readFileBody reads a plain file's body and its full size.
func readFileBody(name string) ([]byte, int64, error) {
	f, err := os.Open(name)
	if err != nil {
		return nil, 0, err
	}
	defer f.Close()
	body, err := readBody(f)
	if err != nil {
		return nil, 0, err
	}
	size := int64(len(body))
	if len(body) > cli.MaxInputBytes {
		if fi, err := f.Stat(); err == nil {
			size = fi.Size()
		}
	}
	return body, size, nil
}

// archiveSource streams the members of a .tar.gz. The archive is read
// once when its manifest comes before every capture member; when a
// capture comes first, a first pass reads the headers alone up to the
// manifest (decompressing, skipping the bodies) and a second pass reads
// the captures, so that no capture waits in memory for its host.
type archiveSource struct {
	input string
	f     surveyFile
	zr    *gzip.Reader
	count *countingReader
	tr    *tar.Reader
	man   *manifest
	done  bool
	// broken is set when the stream failed: the members past the failure
	// were never seen, so the manifest's files not met are not reported
	// one by one; the error row stands for them.
	broken bool
}

// countingReader counts the bytes read through it: the offset of an
// error in the uncompressed archive.
type countingReader struct {
	r io.Reader
	n int64
}

func (c *countingReader) Read(p []byte) (int, error) {
	n, err := c.r.Read(p)
	c.n += int64(n)
	return n, err
}

// openArchiveSource opens a .tar.gz and finds its manifest.
func openArchiveSource(name string) (*archiveSource, error) {
	s := &archiveSource{input: name}
	if err := s.open(false); err != nil {
		return nil, err
	}
	// Read members up to the first capture: a manifest before it is read
	// here and the pass goes on; otherwise the pass starts again after the
	// manifest is looked for.
	for {
		hdr, err := s.tr.Next()
		if err != nil {
			// An empty or unreadable archive: the capture pass reports it.
			return s, s.rewind()
		}
		if hdr.Typeflag != tar.TypeReg {
			continue
		}
		if cleanMember(hdr.Name) == surveyManifestName {
			s.man, err = readManifest(s.tr, surveyMaxManifestBytes)
			if err != nil {
				s.f.Close()
				return nil, fmt.Errorf("%s: %w", name, err)
			}
			return s, s.rewind()
		}
		break // a capture before any manifest
	}
	for {
		hdr, err := s.tr.Next()
		if err != nil {
			return s, s.rewind() // no manifest, or none readable: hosts from file names
		}
		if hdr.Typeflag == tar.TypeReg && cleanMember(hdr.Name) == surveyManifestName {
			s.man, err = readManifest(s.tr, surveyMaxManifestBytes)
			if err != nil {
				s.f.Close()
				return nil, fmt.Errorf("%s: %w", name, err)
			}
			return s, s.rewind()
		}
	}
}

// rewind starts reading the archive from its first byte, for the pass
// that reads the captures.
func (s *archiveSource) rewind() error { return s.open(true) }

// open starts reading the archive from its first byte; counted says
// whether the pass's bytes are counted for --progress.
func (s *archiveSource) open(counted bool) error {
	if s.f != nil {
		s.f.Close()
	}
	f, err := openSurveyFileCounted(s.input, counted)
	if err != nil {
		return err
	}
	zr, err := gzip.NewReader(bufio.NewReaderSize(f, 256<<10))
	if err != nil {
		f.Close()
		return fmt.Errorf("%s: %w", s.input, err)
	}
	s.f, s.zr = f, zr
	s.count = &countingReader{r: zr}
	s.tr = tar.NewReader(s.count)
	return nil
}

func (s *archiveSource) Next(take func() (int, bool)) (*Capture, error) {
	for !s.done {
		hdr, err := s.tr.Next()
		if err == io.EOF {
			s.done = true
			break
		}
		if err != nil {
			s.done, s.broken = true, true
			index, _ := take()
			return &Capture{Index: index, Input: s.input, Err: err, Offset: s.count.n}, nil
		}
		if hdr.Typeflag != tar.TypeReg {
			continue
		}
		name := cleanMember(hdr.Name)
		if name == surveyManifestName {
			continue
		}
		site := siteOfFile(name)
		if s.man != nil {
			var listed bool
			if site, listed = s.man.site(name); !listed {
				continue // not a capture: a README beside the files
			}
		}
		index, ok := take()
		c := &Capture{Index: index, Input: s.input, File: name, Site: site, Status: surveyStatusPlain, Size: hdr.Size}
		if !ok {
			return c, nil
		}
		c.Body, err = readBody(s.tr)
		if err != nil {
			s.done, s.broken = true, true // a tar stream does not resynchronise after a broken member
			c.Body, c.Err, c.Offset = nil, err, s.count.n
		}
		return c, nil
	}
	if s.man == nil || s.broken {
		return nil, io.EOF
	}
	if c := s.man.missingCapture(s.input, "not in the archive", take); c != nil {
		return c, nil
	}
	return nil, io.EOF
}

func (s *archiveSource) Close() error {
	if s.f == nil {
		return nil
	}
	return s.f.Close()
}
