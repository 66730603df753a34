package fetch

import (
	"context"

	"github.com/fastrobots/robots"
	"github.com/fastrobots/robots/internal/rawurl"
)

// AllowedBatch appends to allowed whether the crawler agent may fetch
// each of pageURLs, in order, and returns the extended slice. Consecutive
// URLs of one origin share one cache lookup, so grouping a frontier by
// origin is cheaper.
//
// It stops at the first URL that has no origin or is not http or https,
// or when ctx ends while an origin is fetched, and returns the error with
// the answers of the URLs before it.
func (c *Checker) AllowedBatch(ctx context.Context, agent string, pageURLs []string, allowed []bool) ([]bool, error) {
	one := [1]string{agent} // on the stack: nothing keeps the list past the call
	agents := one[:]
	r := originRun{c: c}
	defer r.end()
	for i := 0; i < len(pageURLs); {
		if origin, _, ok := warmSplit(pageURLs[i]); ok {
			if v := c.cache.warmView(origin, agent); v != nil {
				r.enter(v, origin)
				allowed, i = allowedWarmRun(v, len(origin), pageURLs, i, allowed)
				continue
			}
		}
		p, err := readPage(pageURLs[i])
		if err != nil {
			return allowed, err
		}
		if err := r.at(ctx, agents, p.origin); err != nil {
			return allowed, err
		}
		a := r.agent(agents)
		allowed = append(allowed, p.allowedBy(a))
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

// allowedWarmRun answers pageURLs[i], whose origin (pageURLs[i][:at]) has
// the warm view v, and the following URLs of the same origin. It returns
// the index of the first URL it did not answer.
func allowedWarmRun(v *view, at int, pageURLs []string, i int, allowed []bool) ([]bool, int) {
	origin := pageURLs[i][:at]
	allowed = append(allowed, v.check.Allowed(pageURLs[i][at:]))
	for i++; i < len(pageURLs); i++ {
		u := pageURLs[i]
		if len(u) <= at || u[at] != '/' || u[:at] != origin {
			break
		}
		allowed = append(allowed, v.check.Allowed(u[at:]))
	}
	return allowed, i
}

// DecideBatch is AllowedBatch for verdicts: it appends the verdict of
// each of pageURLs to verdicts.
func (c *Checker) DecideBatch(ctx context.Context, agent string, pageURLs []string, verdicts []Verdict) ([]Verdict, error) {
	return batch(c, ctx, agent, pageURLs, verdicts, func(res *Result, a *Agent, p page) Verdict { return verdict(res, a, &p) })
}

func batch[T any](c *Checker, ctx context.Context, agent string, pageURLs []string, out []T,
	answer func(res *Result, a *Agent, p page) T) ([]T, error) {
	one := [1]string{agent}
	agents := one[:]
	r := originRun{c: c}
	defer r.end()
	var p page
	for _, u := range pageURLs {
		if !r.warmAt(u, agent, &p) {
			var err error
			if p, err = readPage(u); err != nil {
				return out, err
			}
			if err := r.at(ctx, agents, p.origin); err != nil {
				return out, err
			}
		}
		out = append(out, answer(r.res, r.agent(agents), p))
	}
	return out, nil
}

// originRun keeps the latest origin's answer while a batch's URLs stay on
// that origin.
type originRun struct {
	c      *Checker
	origin string
	res    *Result
	a      *Agent // resolved lazily when the run began warm
	// For a run that began warm, the run recharges the entry only when its
	// checks grew the rules' automata past metered, as the warm path does.
	kept    robots.PathCheck // the view's, zero when the run began cold
	metered int64
}

// at looks origin up only when it is not the run's already. agents must
// be the same at every call.
func (r *originRun) at(ctx context.Context, agents []string, origin string) error {
	if r.res != nil && origin == r.origin {
		return nil
	}
	r.end()
	res, a, err := r.c.resolve(ctx, agents, origin)
	if err != nil {
		return err
	}
	r.origin, r.res, r.a, r.kept = origin, res, a, robots.PathCheck{}
	return nil
}

// enter counts one hit per run of one origin, however its URLs are
// written.
func (r *originRun) enter(v *view, origin string) {
	if r.res == v.res && r.origin == origin {
		return
	}
	r.end()
	r.c.cache.hit(v)
	r.origin, r.res, r.a = origin, v.res, nil
	r.kept = v.check
	r.metered = r.kept.MemoryBytes()
}

func (r *originRun) agent(agents []string) *Agent {
	if r.a == nil {
		r.a, _ = r.res.agent(agents)
	}
	return r.a
}

// warmAt reads pageURL into *p when the run can answer it without a
// locked lookup: it continues the run's plain origin (p is the page
// before it), or the cache holds its origin warm. Otherwise it returns
// false and leaves *p and the run unchanged.
func (r *originRun) warmAt(pageURL, agent string, p *page) bool {
	if r.res != nil && p.plain {
		if rest, ok := rawurl.SplitOf(pageURL, r.origin); ok {
			*p = page{raw: pageURL, origin: r.origin, rest: rest, plain: true}
			return true
		}
	}
	origin, rest, ok := warmSplit(pageURL)
	if !ok {
		return false
	}
	v := r.c.cache.warmView(origin, agent)
	if v == nil {
		return false
	}
	r.enter(v, origin)
	*p = page{raw: pageURL, origin: r.origin, rest: rawurl.BeforeFragment(rest), plain: true}
	return true
}

// end recharges the run's entry when its checks grew the file's automata.
func (r *originRun) end() {
	switch {
	case r.res == nil:
	case r.kept == robots.PathCheck{} || r.kept.MemoryBytes() != r.metered:
		r.c.recharge(r.origin, r.res)
	}
	r.res = nil
}
