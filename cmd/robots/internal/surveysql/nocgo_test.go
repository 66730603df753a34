//go:build !cgo

package surveysql

import (
	"os"
	"testing"
)

// TestSurvey stands for the DuckDB tests, which need cgo: it skips,
// naming what to install, or fails under CI=true, where a skipped test
// would pass unseen.
func TestSurvey(t *testing.T) {
	msg := "cgo is off: DuckDB's driver needs it; install a C and C++ compiler (apt-get install build-essential) and set CGO_ENABLED=1"
	if os.Getenv("CI") == "true" {
		t.Fatal(msg)
	}
	t.Skip(msg)
}
