module github.com/fastrobots/robots/cmd/robots/internal/browsertest

go 1.26.0

replace github.com/fastrobots/robots => ../../../..

tool github.com/fastrobots/robots/cmd/robots

require (
	github.com/chromedp/chromedp v0.23.0
	github.com/stretchr/testify v1.12.1
)

require (
	github.com/chromedp/cdproto v0.159.0
	github.com/fastrobots/robots v0.0.0-00010101000000-000000000000 // indirect
	github.com/go-json-experiment/json v0.0.0-20260213210345-44df1a37e875 // indirect
	go.yaml.in/yaml/v3 v3.0.5 // indirect
	golang.org/x/net v0.62.0 // indirect
	golang.org/x/sync v0.24.0 // indirect
	golang.org/x/text v0.43.0 // indirect
)
