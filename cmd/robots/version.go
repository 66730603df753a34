package main

import (
	"fmt"
	"io"
	"runtime/debug"

	"github.com/fastrobots/robots/cmd/robots/internal/cli"
)

const versionSynopsis = `robots version

Prints the version of the module robots was built from ("(devel)" when it
was built from a checkout rather than installed at a version), the commit
and its time when the binary records them, and the Go version it was
built with. go build in a git checkout records the commit; go run and
-buildvcs=false do not, and the line says so.`

// runVersion runs "robots version".
func runVersion(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	fs := cli.NewFlagSet("version", versionSynopsis, stderr)
	rest, err := cli.ParseInterleaved(fs, args)
	if err != nil {
		return cli.FlagExit(err)
	}
	if len(rest) > 0 {
		fmt.Fprintln(stderr, "robots version: no arguments expected")
		fs.Usage()
		return cli.ExitUsage
	}
	info, ok := debug.ReadBuildInfo()
	if !ok {
		fmt.Fprintln(stderr, "robots version: the binary carries no build information")
		return cli.ExitUsage
	}
	_, err = fmt.Fprintln(stdout, versionLine(info))
	if err != nil {
		return cli.ExitUsage
	}
	return cli.ExitOK
}

// versionLine describes a build: "robots VERSION commit REV[+modified]
// (TIME) GOVERSION", or with "no commit recorded (...)" in place of the
// commit when the binary carries none.
func versionLine(info *debug.BuildInfo) string {
	version := info.Main.Version
	if version == "" {
		version = "(devel)"
	}
	s := "robots " + version
	if rev := buildSetting(info, "vcs.revision"); rev != "" {
		s += " commit " + rev
		if buildSetting(info, "vcs.modified") == "true" {
			s += "+modified"
		}
		if t := buildSetting(info, "vcs.time"); t != "" {
			s += " (" + t + ")"
		}
	} else {
		s += ", no commit recorded (built by go run or with -buildvcs=false; go build in a git checkout records it)"
	}
	return s + " " + info.GoVersion
}

// buildSetting returns the value of the build setting key, or "".
func buildSetting(info *debug.BuildInfo, key string) string {
	for _, s := range info.Settings {
		if s.Key == key {
			return s.Value
		}
	}
	return ""
}
