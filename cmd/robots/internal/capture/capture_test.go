package capture

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestSurveyManifestLimits: a manifest past surveyMaxManifestBytes, or
// with a line past surveyMaxManifestLine, is refused rather than held; one
// without a file and a site column is no manifest.
func TestSurveyManifestLimits(t *testing.T) {
	man := "file\tsite\nfiles/a.txt\texample.com\n"
	m, err := readManifest(strings.NewReader(man), int64(len(man)))
	require.NoError(t, err)
	site, ok := m.site("files/a.txt")
	assert.True(t, ok)
	assert.Equal(t, "example.com", site)
	_, err = readManifest(strings.NewReader(man), int64(len(man))-1)
	assert.ErrorContains(t, err, "longer than")
	long := "file\tsite\n" + strings.Repeat("x", surveyMaxManifestLine+1) + "\n"
	_, err = readManifest(strings.NewReader(long), surveyMaxManifestBytes)
	assert.Error(t, err)
	m, err = readManifest(strings.NewReader("name\thost\na\tb\n"), surveyMaxManifestBytes)
	assert.NoError(t, err)
	assert.Nil(t, m)
}

// TestSurveyHostOf: a manifest's site is read as a host where it names
// one.
func TestSurveyHostOf(t *testing.T) {
	for site, want := range map[string]string{
		"example.com":                        "example.com",
		"moodle.org_443":                     "moodle.org",
		"lofos.win:9340":                     "lofos.win:9340",
		"www.example.com_8080":               "www.example.com:8080",
		"hundstat.us:443":                    "hundstat.us",
		"wikipedia.org (static part)":        "wikipedia.org",
		"www.nørrebo.dk":                     "www.xn--nrrebo-bya.dk",
		"(ai.robots.txt blocklist template)": "",
		"":                                   "",
		"two/slashes":                        "",
	} {
		host, target := HostOf(site)
		assert.Equal(t, want, host, site)
		if want == "" {
			assert.Empty(t, target, site)
		} else {
			assert.Equal(t, "https://"+want+"/robots.txt", target, site)
		}
	}
}
