package robots

// Class is what a crawler may fetch of a site, over every possible path.
type Class uint8

const (
	// ClassUndecided: the file's rules have more states than Classify's
	// bounds (automaton.MaxClassifyStates, MaxClassifyBytes) before every
	// path was read; the class is not guessed.
	ClassUndecided Class = iota
	ClassNone            // no path is disallowed
	ClassSome            // some paths are allowed and some disallowed
	ClassAll             // every path is disallowed
)

var classNames = [...]string{ClassUndecided: "undecided", ClassNone: "none", ClassSome: "some", ClassAll: "all"}

// String returns "none", "some", "all" or "undecided", as surveys name
// how much of a site a crawler is disallowed.
func (c Class) String() string {
	if int(c) < len(classNames) {
		return classNames[c]
	}
	return "Class(?)"
}

// Classify says how much of a site the crawler is disallowed, exactly,
// over every path (one that starts with '/' and holds no '#' or NUL),
// from the compiled rules, not by sampling: ClassNone, ClassSome or
// ClassAll, with a path of each verdict some path gets ("" when none
// does; automaton.Classification says which), each confirmed by DecidePath (a witness is a path: "//x"
// is not a URL of host x). A file whose rules would need more than
// automaton.MaxClassifyStates states, or automaton.MaxClassifyBytes of
// their positions, to read through is ClassUndecided, with the witnesses
// found so far. The policy counts:
// under FullDisallow every path is disallowed, under FullAllow none.
// "/" is read first: the witness of the verdict "/" gets is "/" itself,
// so that allowed == "/" says whether "/" is allowed.
func (a *Agent) Classify() (c Class, allowed, disallowed string) {
	switch a.Policy() {
	case FullDisallow:
		return ClassAll, "", "/"
	case FullAllow:
		return ClassNone, "/", ""
	}
	w := a.rules.Classify()
	allowed, disallowed = w.Allowed, w.Disallowed
	// A witness Decide does not confirm would be a guess: not kept.
	if allowed != "" && !a.DecidePath(allowed).Allowed {
		allowed, w.Decided = "", false
	}
	if disallowed != "" && a.DecidePath(disallowed).Allowed {
		disallowed, w.Decided = "", false
	}
	switch {
	case allowed != "" && disallowed != "":
		return ClassSome, allowed, disallowed
	case !w.Decided:
		return ClassUndecided, allowed, disallowed
	case disallowed == "":
		return ClassNone, allowed, ""
	}
	return ClassAll, "", disallowed
}
