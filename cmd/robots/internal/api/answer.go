package api

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"strconv"
)

// An answer can be far larger than its request: each URL's result names
// the rule that decided it, which may be a long line of the robots.txt,
// and explains may list many rules. So an answer is encoded, an element
// at a time, into a buffer that refuses to grow past a bound proportional
// to what the request brought (its body, and the robots.txt fetched for
// it); past the bound the request gets a 413 instead, and past the
// deadline a 503, since nothing has been sent yet. Only a whole answer is
// sent, with its length.

// Bounds of an answer.
const (
	// AnswerBytesPerInputByte is how many bytes of answer each byte of
	// the request body and of the robots.txt fetched for it may bring.
	AnswerBytesPerInputByte = 32
	// AnswerBaseBytes is the part of the bound that does not grow with
	// the request: room for the fields each result has, whatever its
	// size.
	AnswerBaseBytes = 1 << 20
)

// AnswerLimit returns the bound on the answer to a request that brought
// input bytes.
func AnswerLimit(input int) int {
	return AnswerBytesPerInputByte*input + AnswerBaseBytes
}

// errAnswerTooLarge is returned by answerBuffer's writes past its limit.
var errAnswerTooLarge = errors.New("answer too large")

// answerBuffer holds an answer being encoded, up to its limit.
type answerBuffer struct {
	buf   bytes.Buffer
	enc   *json.Encoder // writes to the buffer itself
	limit int
}

// raw appends s as it is.
func (b *answerBuffer) raw(s string) error {
	if b.buf.Len()+len(s) > b.limit {
		return errAnswerTooLarge
	}
	b.buf.WriteString(s)
	return nil
}

// Write appends what the encoder writes: one value and its newline at
// once, which need not fit, since the newline is taken back.
func (b *answerBuffer) Write(p []byte) (int, error) {
	if b.buf.Len()+len(p)-1 > b.limit {
		return 0, errAnswerTooLarge
	}
	return b.buf.Write(p)
}

// value appends v encoded as JSON, without the newline an Encoder ends
// it with.
func (b *answerBuffer) value(v any) error {
	if b.enc == nil {
		b.enc = NewJSONEncoder(b)
	}
	if err := b.enc.Encode(v); err != nil {
		return err
	}
	b.buf.Truncate(b.buf.Len() - 1)
	return nil
}

// member appends "name":v, after a comma unless first.
func (b *answerBuffer) member(name string, v any, first bool) error {
	sep := ","
	if first {
		sep = ""
	}
	if err := b.raw(sep + strconv.Quote(name) + ":"); err != nil {
		return err
	}
	return b.value(v)
}

// Answer is what an endpoint answers: it encodes itself into b, checking
// ctx between elements.
type Answer interface {
	encode(ctx context.Context, b *answerBuffer) error
}

// PlainAnswer is an answer of bounded size, encoded in one piece.
type PlainAnswer struct{ V any }

func (a PlainAnswer) encode(_ context.Context, b *answerBuffer) error { return b.value(a.V) }

// objectAnswer is an object whose last member is an array, encoded an
// element at a time: {"head1":...,"headN":...,"name":[items]}. Heads
// whose value is nil are left out.
type objectAnswer struct {
	heads []namedValue
	name  string
	// count is the number of items; item returns the i-th, or an error.
	count int
	item  func(i int) (any, error)
}

// namedValue is a member of an object.
type namedValue struct {
	name  string
	value any
}

func (a objectAnswer) encode(ctx context.Context, b *answerBuffer) error {
	if err := b.raw("{"); err != nil {
		return err
	}
	first := true
	for _, h := range a.heads {
		if h.value == nil {
			continue
		}
		if err := b.member(h.name, h.value, first); err != nil {
			return err
		}
		first = false
	}
	sep := ","
	if first {
		sep = ""
	}
	if err := b.raw(sep + strconv.Quote(a.name) + ":["); err != nil {
		return err
	}
	for i := range a.count {
		if err := ctx.Err(); err != nil {
			return err
		}
		v, err := a.item(i)
		if err != nil {
			return err
		}
		if i > 0 {
			if err := b.raw(","); err != nil {
				return err
			}
		}
		if err := b.value(v); err != nil {
			return err
		}
	}
	return b.raw("]}\n")
}

// Encode encodes a within ctx and at most limit bytes, or returns
// the error to answer instead.
func Encode(ctx context.Context, a Answer, limit int) ([]byte, *Error) {
	b := &answerBuffer{limit: limit}
	err := a.encode(ctx, b)
	if err == nil && !bytes.HasSuffix(b.buf.Bytes(), []byte("\n")) {
		err = b.raw("\n")
	}
	switch {
	case err == nil:
		return b.buf.Bytes(), nil
	case errors.Is(err, errAnswerTooLarge):
		return nil, TooLargeAnswer(limit)
	case ctx.Err() != nil:
		return nil, DeadlineOr(ctx, nil)
	}
	var apiErr *Error
	if errors.As(err, &apiErr) {
		return nil, apiErr
	}
	return nil, &Error{http.StatusInternalServerError, err.Error()}
}

// TooLargeAnswer is the answer to a request whose answer would pass limit.
func TooLargeAnswer(limit int) *Error {
	return &Error{http.StatusRequestEntityTooLarge, fmt.Sprintf(
		"the answer would be larger than %d bytes (%d bytes per byte of the request and of the robots.txt fetched, plus %d): send fewer URLs or agents in one request",
		limit, AnswerBytesPerInputByte, AnswerBaseBytes)}
}

// DeadlineOr returns the answer for a request whose deadline passed when
// it has, else err.
func DeadlineOr(ctx context.Context, err *Error) *Error {
	if ctx.Err() != nil {
		return &Error{http.StatusServiceUnavailable, "the request did not finish within the server's time limit"}
	}
	return err
}
