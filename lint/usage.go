package lint

import (
	"fmt"
	"strings"

	"github.com/fastrobots/robots/compile"
	"github.com/fastrobots/robots/usage"
)

// The keys of the lines that state usage preferences (package usage),
// compared without ASCII case.
const (
	keyContentUsage  = "content-usage"
	keyContentSignal = "content-signal"
)

// isUsageKey reports whether a directive's key is Content-Usage or
// Content-Signal.
func isUsageKey(key string) bool {
	return strings.EqualFold(key, keyContentUsage) || strings.EqualFold(key, keyContentSignal)
}

// checkUsageLine checks one Content-Usage or Content-Signal line on its
// own: where it stands and whether its value says what it seems to. The
// checks that need the groups run after the scan (checkUsageGroups).
func (l *linter) checkUsageLine(num int, tok compile.Token, f fields, g *groups) {
	l.sawUsage = true
	if strings.EqualFold(tok.Key, keyContentSignal) {
		if !g.sawAgent {
			l.report(num, f.key+1, CodeSignalOutsideGroup,
				"Content-Signal before any User-agent line: read here as applying to every group, but Cloudflare's policy puts it inside a group, and crawlers that read it by group may ignore it")
		}
		l.checkSignalValue(num, tok.Value, f.value)
		return
	}
	if !g.sawAgent {
		l.report(num, f.key+1, CodeRuleOutsideGroup,
			"Content-Usage before any User-agent line belongs to no group and is ignored")
		return
	}
	l.checkContentUsageValue(num, tok.Value, f.value)
}

// checkContentUsageValue checks the path and the statement of preference
// of a Content-Usage value; at is the value's 0-based column.
func (l *linter) checkContentUsageValue(num int, value string, at int) {
	path, stmt, ok := usage.SplitContentUsage(value)
	switch {
	case !ok && strings.HasPrefix(value, "/"):
		l.report(num, at+1, CodeUsageMalformed,
			"Content-Usage path %q with no preference after it states nothing", path)
		return
	case !ok:
		l.report(num, at+1, CodeUsageMalformed, "Content-Usage with no preference states nothing")
		return
	case !strings.HasPrefix(value, "/") && pathWithoutSlash(stmt):
		l.report(num, at+1, CodeUsagePathNoSlash,
			"the Content-Usage path %q does not start with '/': the line reads as one preference that does not parse, and states nothing",
			strings.Fields(stmt)[0])
		return
	}
	col := at + strings.LastIndex(value, stmt) + 1
	d, err := usage.ParseDictionary(stmt)
	if err != nil {
		hint := ""
		if _, ok := usage.ParsePreference(strings.ToLower(stmt)); ok {
			hint = "; keys and tokens are lower case"
		}
		l.report(num, col, CodeUsageMalformed,
			"%q is not a dictionary (RFC 9651), such as train-ai=n, search=y: every category is Unknown%s", stmt, hint)
		return
	}
	for _, m := range d {
		l.checkMember(num, col, m)
	}
}

// pathWithoutSlash reports whether a Content-Usage statement is a path
// that lacks its leading '/' followed by a preference: the whole is no
// preference, its first word is no key=value member, and that word
// holds a '/' or starts with '*', or the rest is a preference.
func pathWithoutSlash(stmt string) bool {
	word, rest, found := strings.Cut(strings.ReplaceAll(stmt, "\t", " "), " ")
	if !found {
		return false
	}
	if _, ok := usage.ParsePreference(stmt); ok {
		return false
	}
	if _, ok := usage.ParsePreference(word); ok && strings.Contains(word, "=") {
		return false // two preferences missing their comma, not a path
	}
	if strings.Contains(word, "/") || strings.HasPrefix(word, "*") {
		return true
	}
	_, ok := usage.ParsePreference(strings.TrimLeft(rest, " "))
	return ok
}

// checkMember reports a member of a statement that states less than it
// seems: a key outside the vocabulary, or a known key whose value is not
// the token y or n.
func (l *linter) checkMember(num, col int, m usage.Member) {
	if _, known := usage.CategoryOf(m.Key); known {
		if m.Kind != usage.KindToken || (m.Token != "y" && m.Token != "n") {
			l.report(num, col, CodeUsageMalformed,
				"the value of %s is not the token y or n: the category is Unknown", m.Key)
		}
		return
	}
	msg := fmt.Sprintf("%q is not a category of the vocabulary (%s): it is ignored", m.Key, labels())
	if drafts, ok := usage.RetiredLabels[m.Key]; ok {
		msg += fmt.Sprintf("; it is a label of %s, since dropped", drafts)
	}
	l.report(num, col, CodeUsageUnknownKey, "%s", msg)
}

// labels lists the vocabulary's labels.
func labels() string {
	var s []string
	for _, c := range usage.Categories() {
		s = append(s, c.Label())
	}
	return strings.Join(s, ", ")
}

// checkSignalValue checks each entry of a Content-Signal value: a known
// key with a value other than yes or no, an entry that is not key=value,
// an unknown key, and a key stated both yes and no. at is the value's
// 0-based column.
func (l *linter) checkSignalValue(num int, value string, at int) {
	var seen [len(usage.Signals)]usage.Value
	for n, off := 0, 0; off <= len(value); n++ {
		entry, _, _ := strings.Cut(value[off:], ",")
		col := at + off + len(entry) - len(strings.TrimLeft(entry, " \t")) + 1
		if n == usage.MaxSignalEntries {
			l.report(num, col, CodeUsageMalformed,
				"more than %d Content-Signal entries: the rest are ignored", usage.MaxSignalEntries)
			return
		}
		l.checkSignalEntry(num, col, strings.Trim(entry, " \t"), &seen)
		off += len(entry) + 1
	}
}

// checkSignalEntry checks one Content-Signal entry; seen holds what the
// line's earlier entries stated.
func (l *linter) checkSignalEntry(num, col int, entry string, seen *[len(usage.Signals)]usage.Value) {
	if entry == "" {
		return
	}
	s := usage.ParseContentSignal(entry)
	switch {
	case s.Malformed > 0 && isUseEntry(entry):
		l.report(num, col, CodeUsageMalformed,
			"Content-Signal entry %q names no use level (%s): it states nothing", entry, levelNames())
	case s.Malformed > 0:
		l.report(num, col, CodeUsageMalformed,
			"Content-Signal entry %q is not key=yes or key=no: it states nothing", entry)
	case len(s.Other) > 0:
		l.report(num, col, CodeUsageUnknownKey,
			"Content-Signal key %q is none of %s: it has no meaning and is ignored", s.Other[0].Key, signalKeys())
	}
	for k, v := range s.Values {
		if v != usage.Unknown && seen[k] != usage.Unknown && seen[k] != v {
			l.report(num, col, CodeUsageConflict,
				"%s is stated both yes and no in this line: no wins", usage.SignalKey(k))
		}
		seen[k] = usage.Combine(seen[k], v)
	}
}

// signalKeys lists the Content-Signal keys with a meaning.
func signalKeys() string {
	var s []string
	for _, t := range usage.Signals {
		s = append(s, t.Key)
	}
	return strings.Join(s, ", ")
}

// isUseEntry reports whether a Content-Signal entry is of the use key,
// whose values are levels rather than yes or no.
func isUseEntry(entry string) bool {
	key, _, _ := strings.Cut(entry, "=")
	return strings.EqualFold(strings.TrimSpace(key), usage.UseKey)
}

// levelNames lists the use levels, least permissive first.
func levelNames() string {
	var names []string
	for _, l := range usage.Levels {
		if l.Name != "" { // LevelNone
			names = append(names, l.Name)
		}
	}
	return strings.Join(names, ", ")
}
