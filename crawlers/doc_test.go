package crawlers_test

import (
	"os"
	"strings"
	"testing"

	"github.com/fastrobots/robots/crawlers"
)

// docRow is a row of the table in docs/crawlers.md.
func docRow(c crawlers.Crawler) string {
	ai := ""
	if c.AI {
		ai = "yes"
	}
	return "| `" + c.Token + "` | " + c.Operator + " | " + c.Purpose.String() + " | " + ai + " | " +
		c.Robots.String() + " | " + strings.ReplaceAll(c.Says, "|", "\\|") + " | " + c.URL + " |"
}

// TestDocsTable checks that docs/crawlers.md prints the table as it is:
// every row, in order, and no other.
func TestDocsTable(t *testing.T) {
	b, err := os.ReadFile("../docs/crawlers.md")
	if err != nil {
		t.Fatal(err)
	}
	_, table, found := strings.Cut(string(b), "\n| Token | Operator |")
	if !found {
		t.Fatal("docs/crawlers.md has no table of tokens")
	}
	table, _, _ = strings.Cut(table, "\n\n")
	var rows []string
	for _, line := range strings.Split(table, "\n") {
		if strings.HasPrefix(line, "| `") {
			rows = append(rows, line)
		}
	}
	all := crawlers.All()
	if os.Getenv("CRAWLERS_PRINT_ROWS") != "" {
		for _, c := range all {
			t.Log(docRow(c))
		}
	}
	if len(rows) != len(all) {
		t.Fatalf("docs/crawlers.md has %d rows, the table %d", len(rows), len(all))
	}
	for i, c := range all {
		if want := docRow(c); rows[i] != want {
			t.Errorf("row %d:\n got %s\nwant %s", i+1, rows[i], want)
		}
	}
}
