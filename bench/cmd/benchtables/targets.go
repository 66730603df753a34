package main

import (
	"fmt"
	"io"
	"strings"
)

// fastestPeer, as a Target's Peer, is the peer with the best median
// (BestPeer).
const fastestPeer = "fastest peer"

// A Target bounds one of fastrobots' medians: Bench's Unit, at most
// (AtMost) or at least the bound. The bound is Limit, in Unit, when Peer
// is empty, else Factor times Peer's median of the same figure (Peer is a
// library, or "fastest peer": the peer with the best median).
type Target struct {
	Bench, Unit string
	AtMost      bool
	Limit       float64
	Factor      float64
	Peer        string
}

// Targets are the figures fastrobots aims at, printed in this order.
var Targets = []Target{
	{Bench: "ShopCold", Unit: "ns/op", AtMost: true, Factor: 0.25, Peer: "slyrz"},
	{Bench: "ShopResolve", Unit: "B/op", AtMost: true, Limit: 32 << 10},
	{Bench: "ShopParse", Unit: "MB/s", Limit: 450},
	{Bench: "ShopParse", Unit: "MB/s", Factor: 2.2, Peer: "slyrz"},
	{Bench: "CorpusParse", Unit: "MB/s", Limit: 450},
	{Bench: "Crawl", Unit: "ns/op", AtMost: true, Factor: 0.5, Peer: fastestPeer},
	{Bench: "LongTail", Unit: "ns/op", AtMost: true, Factor: 0.5, Peer: fastestPeer},
	{Bench: "Frontier", Unit: "ns/op", AtMost: true, Factor: 0.25, Peer: fastestPeer},
	{Bench: "Frontier/parallel", Unit: "ns/op", AtMost: true, Factor: 0.25, Peer: fastestPeer},
	{Bench: "CheckNamed", Unit: "ns/op", AtMost: true, Limit: 55},
	{Bench: "CheckStar", Unit: "ns/op", AtMost: true, Limit: 70},
	{Bench: "CheckNamed", Unit: "allocs/op", AtMost: true, Limit: 0},
	{Bench: "CheckStar", Unit: "allocs/op", AtMost: true, Limit: 0},
	{Bench: "Memory", Unit: "B/automaton-star", AtMost: true, Limit: 96 << 10},
	{Bench: "Memory", Unit: "B/automaton-star-compiled", AtMost: true, Limit: 96 << 10},
	{Bench: "Pathological", Unit: "ns/op", AtMost: true, Limit: 50_000},
	{Bench: "CorpusAll", Unit: "panics", AtMost: true, Limit: 0},
	{Bench: "Crawl", Unit: "panics", AtMost: true, Limit: 0},
}

// String states the target: "ShopCold ns/op ≤ 0.25 × slyrz's".
func (t Target) String() string {
	op := "≥"
	if t.AtMost {
		op = "≤"
	}
	if t.Peer == "" && t.Limit == 0 && t.AtMost {
		return fmt.Sprintf("`%s` %s = 0", t.Bench, t.Unit)
	}
	if t.Peer == "" {
		return fmt.Sprintf("`%s` %s %s %s", t.Bench, t.Unit, op, FormatValue(t.Unit, t.Limit))
	}
	peer := t.Peer + "'s"
	if t.Peer == fastestPeer {
		peer = "the fastest peer's"
	}
	return fmt.Sprintf("`%s` %s %s %s × %s", t.Bench, t.Unit, op, FormatNumber(t.Factor), peer)
}

// A Verdict is a Target evaluated on a run.
type Verdict struct {
	Figure  string // fastrobots' median, formatted
	Against string // the limit, or the peer and its median
	Ratio   string // Figure ÷ Against, or "" when Against is 0
	Result  string // "met", "not met", or "no result" when a median is missing
}

// Evaluate computes t on r's medians.
func (t Target) Evaluate(r *Run) Verdict {
	v := Verdict{Figure: Missing, Against: Missing, Ratio: Missing, Result: "no result"}
	mine, haveMine := r.Median(t.Bench, Highlight, t.Unit)
	if haveMine {
		v.Figure = FormatValue(t.Unit, mine)
	}
	ref, bound, ok := t.Limit, t.Limit, true
	if t.Peer == "" {
		v.Against = FormatValue(t.Unit, t.Limit)
	} else {
		peer := t.Peer
		if peer == fastestPeer {
			peer, ref, ok = BestPeer(r, Columns(r), t.Bench, t.Unit)
		} else {
			ref, ok = r.Median(t.Bench, peer, t.Unit)
		}
		if ok {
			v.Against = peer + ": " + FormatValue(t.Unit, ref)
		}
		bound = t.Factor * ref
	}
	if !haveMine || !ok {
		return v
	}
	v.Ratio = ""
	if ref != 0 {
		v.Ratio = FormatRatio(mine / ref)
	}
	v.Result = "not met"
	if (t.AtMost && mine <= bound) || (!t.AtMost && mine >= bound) {
		v.Result = "met"
	}
	return v
}

// WriteTargets writes the targets table for r.
func WriteTargets(w io.Writer, r *Run) {
	fmt.Fprintln(w, "### Targets")
	fmt.Fprintln(w)
	writeRow(w, []string{"target", "fastrobots", "against", "ratio", "verdict"})
	writeRow(w, strings.Split("---,---,---,---,---", ","))
	for _, t := range Targets {
		v := t.Evaluate(r)
		result := v.Result
		if result == "not met" {
			result = "**not met**"
		}
		writeRow(w, []string{t.String(), v.Figure, v.Against, v.Ratio, result})
	}
	fmt.Fprintln(w)
}
