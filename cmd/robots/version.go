package main

import (
	"fmt"
	"io"
	"runtime/debug"
)

const versionSynopsis = `robots version

Prints the version of the module robots was built from, "(devel)" when it
was built from a checkout rather than installed at a version, the commit
when it is known, and the Go version it was built with.`

// runVersion runs "robots version".
func runVersion(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	fs := newFlagSet("version", versionSynopsis, stderr)
	rest, err := parseInterleaved(fs, args)
	if err != nil {
		return flagExit(err)
	}
	if len(rest) > 0 {
		fmt.Fprintln(stderr, "robots version: no arguments expected")
		fs.Usage()
		return exitUsage
	}
	info, ok := debug.ReadBuildInfo()
	if !ok {
		fmt.Fprintln(stderr, "robots version: the binary carries no build information")
		return exitUsage
	}
	_, err = fmt.Fprintln(stdout, versionLine(info))
	if err != nil {
		return exitUsage
	}
	return exitOK
}

// versionLine describes a build: "robots VERSION [commit REV[+modified]] GOVERSION".
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
