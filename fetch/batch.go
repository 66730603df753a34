package fetch

import (
	"context"

	"github.com/fastrobots/robots/internal/engine"
	"github.com/fastrobots/robots/internal/rawurl"
)

// AllowedBatch appends to allowed whether the crawler agent may fetch
// each of pageURLs, in order, and returns the extended slice. A run of
// consecutive URLs of one origin is answered with one cache lookup and one
// resolution of the agent: a crawler that groups its frontier by origin
// pays for them once per run, not once per URL. A URL of an origin other
// than the one before it takes the path Allowed takes on a warm cache
// (Checker.allowedWarm): a frontier that serves one URL per origin in turn
// pays for a batch about what it pays for one call per URL.
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

// allowedWarmRun answers pageURLs[i], whose origin's view v the warm
// path found (Cache.warmView, its path at at), and the URLs after it that
// start with the same origin and then a path, each as allowedWarm answers
// it (view.allows). The run (originRun.enter) counts the hit and
// recharges the entry. It returns allowed extended and the index of the
// first URL it did not answer.
func allowedWarmRun(v *view, at int, pageURLs []string, i int, allowed []bool) ([]bool, int) {
	origin := pageURLs[i][:at]
	allowed = append(allowed, v.allows(pageURLs[i][at:]))
	for i++; i < len(pageURLs); i++ {
		u := pageURLs[i]
		if len(u) <= at || u[at] != '/' || u[:at] != origin {
			break
		}
		allowed = append(allowed, v.allows(u[at:]))
	}
	return allowed, i
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

// originRun is the state of a batch: the origin of the latest URLs, its
// answer and the agent's resolution on it, kept while the URLs that
// follow are of the same origin.
type originRun struct {
	c      *Checker
	origin string
	res    *Result
	a      *Agent // nil until asked for (agent) when the run began warm
	// rules, for a run that began warm, is the view's rule set, and
	// metered its meter then: the run recharges the entry only when its
	// checks grew the file, as the warm path does, reading the meter on
	// the line the checks read rather than the answer's.
	rules   engine.Rules
	metered int64
}

// at makes origin the run's, looking its answer and the agents'
// resolution up only when origin is not the run's already. The run's
// agents are the same at every call.
func (r *originRun) at(ctx context.Context, agents []string, origin string) error {
	if r.res != nil && origin == r.origin {
		return nil
	}
	r.end()
	res, a, err := r.c.resolve(ctx, agents, origin)
	if err != nil {
		return err
	}
	r.origin, r.res, r.a, r.rules = origin, res, a, engine.Rules{}
	return nil
}

// enter makes origin, whose view v the warm path found, the run's,
// counting the hit when the run was another origin's (or the same
// origin's former answer): one lookup per run of one origin, however its
// URLs are written.
func (r *originRun) enter(v *view, origin string) {
	if r.res == v.res && r.origin == origin {
		return
	}
	r.end()
	r.c.cache.hit(v)
	r.origin, r.res, r.a = origin, v.res, nil
	r.rules = v.rules
	r.metered = r.rules.Metered()
}

// agent returns the agents' resolution on the run's answer, resolving it
// the first time when the run began warm: the answer keeps it, for the
// view's agent, and gives it at once.
func (r *originRun) agent(agents []string) *Agent {
	if r.a == nil {
		r.a, _ = r.res.agent(agents)
	}
	return r.a
}

// warmAt reads pageURL into *p when the run can answer it without a
// lookup of its own: it continues the run's plain origin (p is the page
// before it), or its origin is one the cache holds fresh with agent's
// resolution kept (Cache.warmView), which enters the run as Decide's warm
// path (decideWarm) would take it. It returns false, and leaves *p and
// the run as they were, for any other URL.
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

// end closes the current run: its entry is charged again when its checks
// grew the file's automata.
func (r *originRun) end() {
	switch {
	case r.res == nil:
	case !r.rules.Kept() || r.rules.Metered() != r.metered:
		r.c.recharge(r.origin, r.res)
	}
	r.res = nil
}
