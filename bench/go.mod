module github.com/fastrobots/robots/bench

go 1.26.0

require (
	github.com/benjaminestes/robots/v2 v2.0.5
	github.com/fastrobots/robots v0.0.0
	github.com/fastrobots/robots/compat/temoto v0.0.0
	github.com/jimsmart/grobotstxt v1.0.3
	github.com/maypok86/otter/v2 v2.4.0
	github.com/samclarke/robotstxt v0.0.0-20171127213916-2817654b7988
	github.com/slyrz/robots v0.0.0-20150806122829-7ebb2b6fc59f
	github.com/stretchr/testify v1.12.1
	github.com/temoto/robotstxt v1.1.2
)

require (
	github.com/benjaminestes/robots v1.0.0 // indirect
	go.yaml.in/yaml/v3 v3.0.5 // indirect
	golang.org/x/net v0.62.0 // indirect
	golang.org/x/sync v0.24.0 // indirect
	golang.org/x/text v0.43.0 // indirect
)

replace github.com/fastrobots/robots => ../

replace github.com/fastrobots/robots/compat/temoto => ../compat/temoto
