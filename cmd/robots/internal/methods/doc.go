// Package methods reads a robots.txt body as the published surveys of AI
// crawler restrictions read it, so that a survey can say how far each
// published figure moves under the exact reading (robots.Agent.Classify,
// the survey's class). Each method is written from the code its
// publication used, at the commit named below; the behaviour is theirs,
// the code is this package's.
//
// Every method answers with the survey's class names: None (no path
// disallowed), Some, All (every path disallowed), or Uncounted, a body the
// method leaves out of its counts for the agent.
//
// # dpi
//
// The Data Provenance Initiative's "Consent in Crisis" (Longpre et al.,
// 2024): src/web_analysis/parse_robots.py of
// Data-Provenance-Initiative/Data-Provenance-Collection at
// 257a06352ae3d10dc9e1ad05b2586074a469945e (parse_robots_txt,
// interpret_agent, interpret_robots).
//
//   - Lines are Python's splitlines, stripped of white space. Only
//     "User-agent:", "Allow:" and "Disallow:" are read, spelt so, case and
//     all: "User-Agent:", "user-agent:" or "Disallow :" are not.
//   - A User-agent line makes its value the only current agent, so of
//     consecutive User-agent lines only the last gets the rules that
//     follow; a blank line or a comment line ends the current agent.
//     Groups naming the same value add up.
//   - The agent's rules are those of the value equal to it as written
//     ("gptbot" and "GPTBot/1.0" are other agents), else those of "*",
//     else none.
//   - interpret_agent's classes map one to one: values holding '?' are set
//     aside; no Disallow, a single empty Disallow, or Allow values equal to
//     the Disallow values is "none"; a Disallow value "/" with no Allow is
//     "all" (a comment after it makes it another value); anything else is
//     "some", whatever the paths match.
//   - Uncounted: a body parse_robots_txt raises on, which the analysis
//     drops (its dictionary keeps the keys "ERRORS" and "Sitemaps" beside
//     the agents', and a group naming one of them can index a list as a
//     dictionary or the reverse).
//
// # cc
//
// Common Crawl's robots.txt experiments (commoncrawl/robotstxt-experiments,
// behind the IIPC WAC 2025 poster): the rule sets
// src/cc-pyspark/robotstxt_statistics.py extracts (--extract_rulesets),
// classed by classify_robotstxt_rules in
// src/jupyter/metrics-top-k-sample.ipynb, at
// 874a7e727fdab4a1c96a6e196a9724c13eb03832 (the commit adding the poster;
// neither reading changes up to ce24ddafe1d809984703fa090c23948af95eec33).
//
//   - Lines end at '\n' only. A first line of HTML ("<html", "<!DOCTYPE
//     html", any case, after a BOM) makes the job skip the body. Comment
//     and blank lines are skipped and end no group. Keys are read in any
//     case, with white space before the colon; a value ends at '\r' or '#'.
//   - User-agent lines add to the current agents until the first Allow or
//     Disallow line of the body; after it each User-agent line starts them
//     anew (the job's inblock flag is never cleared), so in later groups
//     only the last User-agent line gets the rules.
//   - The agent's rule set is that of the value equal to it in any case
//     (the whole value), else that of "*".
//   - disallow-all ("all") is a rule set of exactly one line, "Disallow:
//     /"; allow-all ("none") one of exactly "Allow: /", "Allow: *",
//     "Allow: /*", "Allow:" or "Disallow:"; allow-part ("some") any other,
//     "Disallow: /" twice or with an Allow included.
//   - Uncounted: a skipped body, and one where neither the agent nor "*"
//     has a rule: the notebook counts it in no class of the columns that
//     include the "*" rules.
//
// # imc
//
// "Somesite I Used To Crawl" (Liu et al., IMC 2025):
// robotstxt-parser/robots_analysis_final.py of ucsdsysnet/ai-crawler-imc-25
// at 4de8f33036e4de1634fe9c97d41a869a3c5e67f2 (the file as added in
// 7288024765234005e5a06b2b204bc87b6046b567; get_all_paths_from_robots,
// get_judgement_amortized).
//
//   - The probed paths are "/", a dummy path, and each rule line's path as
//     the study finds it: a line holding "allow: " in any case (so
//     "disallow: ", and in a comment too) gives its second word; else a
//     line holding "allow:" gives what lies between its first and second
//     colon. Every group's lines give paths, whichever group applies.
//   - Each path, one trailing '$' removed, is appended to the site's name
//     and checked by Google's parser (this module's engine, which reaches
//     Google's verdicts) for the agent, as Google picks its group.
//   - fully_disallowed ("all"): "/" and every path disallowed;
//     no_restrictions ("none"): all allowed; partially_disallowed ("some"):
//     both verdicts seen. A file allowing paths no probe reaches ("Allow:
//     *.js", whose probe reads as "/") is read as "all"; a file disallowing
//     only such paths as "none".
//
// # root
//
// "/" alone, by Google's parser: "none" when "/" is allowed, "all" when
// not, as a survey checking the site's root reads it (the survey's
// root_allowed column). Root never says "some".
//
// # What carries over
//
// Each method here reads a body. Which captures a study read (HTTP
// statuses, MIME types, redirects, the crawl's frequent agents) stays the
// caller's, as does the text decoding its fetch did (Python requests'
// response.text for dpi): here a body is read as UTF-8, a byte that is not
// UTF-8 standing for itself, never white space nor a line end.
package methods
