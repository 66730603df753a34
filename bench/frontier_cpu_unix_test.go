//go:build unix

package bench

import (
	"syscall"
	"time"
)

// processCPU returns the CPU time the process has used, user and system,
// and true; false where the system does not tell.
func processCPU() (time.Duration, bool) {
	var u syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_SELF, &u) != nil {
		return 0, false
	}
	return time.Duration(u.Utime.Nano() + u.Stime.Nano()), true
}
