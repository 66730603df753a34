package fetch

import (
	"context"

	"github.com/fastrobots/robots/internal/rawurl"
)

// AllowedBatch appends to allowed whether the crawler agent may fetch
// each of pageURLs, in order, and returns the extended slice. A run of
// consecutive URLs of one origin is answered with one cache lookup and one
// resolution of the agent: a crawler that groups its frontier by origin
// pays for them once per run, not once per URL.
//
// It stops at the first URL that has no origin or is not http or https,
// or when ctx ends while an origin is fetched, and returns the error: the
// answers returned are those of the URLs before it.
func (c *Checker) AllowedBatch(ctx context.Context, agent string, pageURLs []string, allowed []bool) ([]bool, error) {
	one := [1]string{agent} // on the stack: nothing keeps the list past the call
	agents := one[:]
	r := originRun{c: c}
	defer r.end()
	for i := 0; i < len(pageURLs); {
		p, err := readPage(pageURLs[i])
		if err != nil {
			return allowed, err
		}
		_, a, err := r.at(ctx, agents, p.origin)
		if err != nil {
			return allowed, err
		}
		allowed = append(allowed, p.allowedBy(a))
		// The URLs that follow, while they start with the same plain
		// origin, are checked on a with no more lookup or comparison.
		for i++; i < len(pageURLs) && p.plain; i++ {
			rest, ok := rawurl.SplitOf(pageURLs[i], p.origin)
			if !ok {
				break
			}
			q := page{raw: pageURLs[i], origin: p.origin, rest: rest, plain: true}
			allowed = append(allowed, q.allowedBy(a))
		}
	}
	return allowed, nil
}

// DecideBatch is AllowedBatch for verdicts: it appends the verdict of
// each of pageURLs to verdicts.
func (c *Checker) DecideBatch(ctx context.Context, agent string, pageURLs []string, verdicts []Verdict) ([]Verdict, error) {
	return batch(c, ctx, agent, pageURLs, verdicts, func(res *Result, a *Agent, p page) Verdict { return verdict(res, a, &p) })
}

// batch appends answer's value for each of pageURLs to out, one origin
// run at a time; AllowedBatch and DecideBatch differ only in answer.
func batch[T any](c *Checker, ctx context.Context, agent string, pageURLs []string, out []T,
	answer func(res *Result, a *Agent, p page) T) ([]T, error) {
	one := [1]string{agent} // on the stack: nothing keeps the list past the call
	agents := one[:]
	r := originRun{c: c}
	defer r.end()
	var p page
	for _, u := range pageURLs {
		var err error
		if p, err = readPageOf(u, &p); err != nil {
			return out, err
		}
		res, a, err := r.at(ctx, agents, p.origin)
		if err != nil {
			return out, err
		}
		out = append(out, answer(res, a, p))
	}
	return out, nil
}

// originRun is the state of a batch: the origin of the latest URLs, its
// answer and the agent's resolution on it, kept while the URLs that
// follow are of the same origin.
type originRun struct {
	c      *Checker
	origin string
	res    *Result
	a      *Agent
}

// at returns the answer and the resolution of agents that govern the URLs
// of origin, looking them up only when origin is not the run's. The run's
// agents are the same at every call.
func (r *originRun) at(ctx context.Context, agents []string, origin string) (*Result, *Agent, error) {
	if r.res != nil && origin == r.origin {
		return r.res, r.a, nil
	}
	r.end()
	res, a, err := r.c.resolve(ctx, agents, origin)
	if err != nil {
		return nil, nil, err
	}
	r.origin, r.res, r.a = origin, res, a
	return res, a, nil
}

// end closes the current run: its entry is charged again when its checks
// grew the file's automata.
func (r *originRun) end() {
	if r.res != nil {
		r.c.recharge(r.origin, r.res)
		r.res = nil
	}
}
