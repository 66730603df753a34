//go:build !unix

package bench

import "time"

// processCPU reports that the system does not tell the process's CPU time.
func processCPU() (time.Duration, bool) { return 0, false }
