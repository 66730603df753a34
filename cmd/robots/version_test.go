package main

import (
	"runtime"
	"runtime/debug"
	"testing"

	"github.com/fastrobots/robots/cmd/robots/internal/cli"
	"github.com/fastrobots/robots/cmd/robots/internal/cli/clitest"
	"github.com/stretchr/testify/assert"
)

func TestVersionPrintsModuleAndGoVersions(t *testing.T) {
	r := invoke(run, "", "version")
	assert.Equal(t, cli.ExitOK, r.Code, r.Stderr)
	info, ok := debug.ReadBuildInfo()
	if assert.True(t, ok) {
		assert.Equal(t, versionLine(info)+"\n", r.Stdout)
	}
	assert.Contains(t, r.Stdout, " "+runtime.Version()+"\n")
	assert.Empty(t, r.Stderr)
}

func TestVersionLine(t *testing.T) {
	tests := []struct {
		name     string
		version  string
		settings []debug.BuildSetting
		want     string
	}{
		{"checkout", "(devel)", nil, "robots (devel), no commit recorded (built by go run or with -buildvcs=false; go build in a git checkout records it) go1.26.0"},
		{"no version", "", nil, "robots (devel), no commit recorded (built by go run or with -buildvcs=false; go build in a git checkout records it) go1.26.0"},
		{"installed at a version", "v1.2.3", nil, "robots v1.2.3, no commit recorded (built by go run or with -buildvcs=false; go build in a git checkout records it) go1.26.0"},
		{"commit and time", "v0.0.0-20261129030000-abc123", []debug.BuildSetting{{Key: "vcs.revision", Value: "abc123"}, {Key: "vcs.time", Value: "2026-11-29T03:00:00Z"}},
			"robots v0.0.0-20261129030000-abc123 commit abc123 (2026-11-29T03:00:00Z) go1.26.0"},
		{"commit", "(devel)", []debug.BuildSetting{{Key: "vcs.revision", Value: "abc123"}, {Key: "vcs.modified", Value: "false"}},
			"robots (devel) commit abc123 go1.26.0"},
		{"modified", "(devel)", []debug.BuildSetting{{Key: "vcs.revision", Value: "abc123"}, {Key: "vcs.modified", Value: "true"}},
			"robots (devel) commit abc123+modified go1.26.0"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			info := &debug.BuildInfo{GoVersion: "go1.26.0", Main: debug.Module{Path: "github.com/fastrobots/robots", Version: tt.version}, Settings: tt.settings}
			assert.Equal(t, tt.want, versionLine(info))
		})
	}
}

func TestVersionUsage(t *testing.T) {
	clitest.AssertUsageErrors(t, runVersion, "", []clitest.UsageCase{
		{Name: "argument", Args: []string{"now"}, Stderr: "no arguments expected"},
		{Name: "flag", Args: []string{"-x"}, Stderr: "flag provided but not defined: -x"},
	})
	r := invoke(run, "", "help")
	assert.Contains(t, r.Stdout, "  version  print the version of robots")
}
