package main

import (
	"io"

	"github.com/fastrobots/robots/cmd/robots/internal/cli"
	"github.com/fastrobots/robots/cmd/robots/web"
)

// readRobots returns the robots.txt named by file for the command cmd: the
// embedded example when file is empty, else what cli.ReadInput reads.
func readRobots(cmd, file string, stdin io.Reader, stderr io.Writer) ([]byte, error) {
	if file == "" {
		return web.Example, nil
	}
	return cli.ReadInput(cmd, file, stdin, stderr)
}
