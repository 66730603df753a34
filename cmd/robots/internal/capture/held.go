package capture

// A WARC input read as a stream (warcSource.stream) is not read again
// from a redirect's target: the bodies its redirects lead to are held as
// they are read, and each 3xx capture is answered at the input's end
// from them, as a local file's is from the target's record read again.
// A body is held when a redirect read before it leads to its URL, in a
// chain of at most MaxRedirectHops; and each robots.txt body is held a
// while, the oldest given up first, for a redirect read after its
// target. A target whose body was given up, or never held, is read
// again from its offset when the server answers Range requests; else its
// capture's redirect_error is index_full.

// MaxHeldBodyBytes bounds the bodies a WARC input read as a stream holds
// for its redirects: their bytes, their URLs' and RedirectEntryBytes each.
// A body a redirect leads to is held while the bound allows and kept to
// the input's end; a robots.txt body no redirect led to yet is given up,
// oldest first, to make room. 32 MiB holds about 10,000 robots.txt bodies
// of the median size.
const MaxHeldBodyBytes = 32 << 20

// heldBody is what a redirect needs of its target's response: its body
// as payloadOf reads it.
type heldBody struct {
	url  string
	body []byte
	size int64
	err  error
	cost int64
	// wanted is set when a redirect read leads here: the body is kept to
	// the input's end.
	wanted bool
}

// streamed records, for an input read as a stream, what a redirect may
// need of the response just read and indexed at target, of the URL path
// path: the chain it continues, or its body, taken from c when c holds it
// already (a capture of this shard) or read with payload.
func (s *warcSource) streamed(target, path string, status int, location string, c *Capture, payload func(*Capture) error) {
	wanted := s.wanted[target]
	delete(s.wanted, target)
	if status >= 300 && status <= 399 {
		if wanted && location != "" {
			s.wantChain(location)
		}
		return
	}
	if !wanted && path != "/robots.txt" {
		return
	}
	h := &heldBody{url: target}
	if c == nil {
		c = &Capture{}
		c.Err = payload(c)
	}
	h.body, h.size, h.err = c.Body, c.Size, c.Err
	s.hold(h, wanted)
}

// wantChain follows the redirects from next through the responses read:
// the body it ends at is kept, or, when it leads to a URL not read yet,
// that URL is wanted.
func (s *warcSource) wantChain(next string) {
	for range MaxRedirectHops {
		e, ok := s.index[next]
		switch {
		case !ok:
			s.want(next)
			return
		case e.status < 300 || e.status > 399:
			if h := s.held[next]; h != nil {
				h.wanted = true
			}
			return
		case e.location == "":
			return
		}
		next = e.location
	}
}

// want records that a redirect leads to url, while the redirect index's
// bound allows.
func (s *warcSource) want(url string) {
	if s.wanted[url] {
		return
	}
	cost := int64(len(url)) + RedirectEntryBytes
	if cost > s.budget {
		return
	}
	s.budget -= cost
	s.wanted[url] = true
}

// hold holds h, giving up the oldest bodies no redirect wants to make
// room, or does not when it finds none.
func (s *warcSource) hold(h *heldBody, wanted bool) {
	h.cost = int64(len(h.body)+len(h.url)) + RedirectEntryBytes
	for h.cost > s.heldLeft && s.dropOldest() {
	}
	if h.cost > s.heldLeft {
		return
	}
	h.wanted = wanted
	s.heldLeft -= h.cost
	s.held[h.url] = h
	if !wanted {
		s.heldFIFO = append(s.heldFIFO, h)
	}
}

// dropOldest gives up the oldest body no redirect wants, and reports
// whether there was one.
func (s *warcSource) dropOldest() bool {
	for len(s.heldFIFO) > 0 {
		h := s.heldFIFO[0]
		s.heldFIFO[0] = nil
		s.heldFIFO = s.heldFIFO[1:]
		if h.wanted {
			continue
		}
		delete(s.held, h.url)
		s.heldLeft += h.cost
		return true
	}
	return false
}
