package conformance

import "fmt"

// LinesFile is the file of the line Google's reference parser names for
// each case (RobotsMatcher::matching_line after AllowedByRobots), keyed
// by case ID, for every case of the verdict files, the real-world ones
// included; relative to the repository's root.
const LinesFile = "testdata/conformance/lines.jsonl.gz"

// lineRecord is one line of LinesFile.
type lineRecord struct {
	ID   string `json:"id"`
	Line *int   `json:"line"`
}

// Lines reads a file of {"id", "line"} records into a map from case ID to
// line. Every record must hold both, and each ID once.
func Lines(path string) (map[string]int, error) {
	lines := map[string]int{}
	err := Each(path, func(n int, r *lineRecord) error {
		if r.ID == "" || r.Line == nil {
			return fmt.Errorf("%s:%d: a record needs an id and a line", path, n)
		}
		if _, dup := lines[r.ID]; dup {
			return fmt.Errorf("%s:%d: id %q given twice", path, n, r.ID)
		}
		lines[r.ID] = *r.Line
		return nil
	})
	return lines, err
}
