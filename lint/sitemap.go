package lint

import (
	"net/url"
	"strings"
)

// checkSitemap reports a sitemap value that is not an absolute http or
// https URL: a robots.txt has no base to resolve a relative one against,
// and Google asks for a fully qualified URL.
func (l *linter) checkSitemap(num int, value string, col int) {
	if value == "" {
		l.report(num, col, CodeSitemapInvalid, "a Sitemap line with no URL")
		return
	}
	u, err := url.Parse(value)
	switch {
	case err != nil:
		l.report(num, col, CodeSitemapInvalid, "%q is not a URL: %v", value, unwrap(err))
	case u.Scheme == "":
		l.report(num, col, CodeSitemapRelative,
			"%q is not absolute: a sitemap URL must name its scheme and host, such as https://www.example.com/sitemap.xml", value)
	case u.Scheme != "http" && u.Scheme != "https":
		l.report(num, col, CodeSitemapInvalid, "%q: a sitemap URL must be http or https", value)
	case u.Host == "":
		l.report(num, col, CodeSitemapInvalid, "%q has no host", value)
	}
}

// unwrap returns the reason of a url.Error without the operation and URL
// it repeats.
func unwrap(err error) string {
	if e, ok := err.(*url.Error); ok {
		err = e.Err
	}
	return strings.TrimSpace(err.Error())
}
