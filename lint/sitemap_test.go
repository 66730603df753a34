package lint

import "testing"

func TestGoogleSitemapFindings(t *testing.T) {
	runCases(t, []lintCase{
		{"absolute", "Sitemap: https://www.example.com/sitemap.xml\n", nil},
		{"http", "Sitemap: http://example.com/s.xml.gz\n", nil},
		{"path", "Sitemap: /sitemap.xml\n", []string{"1:10 sitemap-relative"}},
		{"file name", "Sitemap: sitemap.xml\n", []string{"1:10 sitemap-relative"}},
		{"scheme-relative", "Sitemap: //example.com/sitemap.xml\n", []string{"1:10 sitemap-relative"}},
		{"ftp", "Sitemap: ftp://example.com/sitemap.xml\n", []string{"1:10 sitemap-invalid"}},
		{"no host", "Sitemap: https:///sitemap.xml\n", []string{"1:10 sitemap-invalid"}},
		{"not a URL", "Sitemap: http://exa mple.com/\n", []string{"1:10 sitemap-invalid"}},
		{"empty", "Sitemap:\n", []string{"1:9 sitemap-invalid"}},
		{"missing colon reads the scheme as part of the key", "Sitemap https://example.com/s.xml\n",
			[]string{"1:8 missing-colon", "1:15 sitemap-relative"}},
	})
}
