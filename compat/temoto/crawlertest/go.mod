module github.com/fastrobots/robots/compat/temoto/crawlertest

go 1.26.0

replace (
	github.com/fastrobots/robots => ../../..
	github.com/fastrobots/robots/compat/temoto => ..
	github.com/temoto/robotstxt => ..
)

require (
	github.com/PuerkitoBio/gocrawl v1.1.0
	github.com/fastrobots/robots v0.0.0
	github.com/gocolly/colly/v2 v2.3.0
)

require (
	github.com/PuerkitoBio/goquery v1.11.0 // indirect
	github.com/PuerkitoBio/purell v1.1.1 // indirect
	github.com/PuerkitoBio/urlesc v0.0.0-20170810143723-de5bf2ad4578 // indirect
	github.com/andybalholm/cascadia v1.3.3 // indirect
	github.com/antchfx/htmlquery v1.3.5 // indirect
	github.com/antchfx/xmlquery v1.5.0 // indirect
	github.com/antchfx/xpath v1.3.5 // indirect
	github.com/bits-and-blooms/bitset v1.24.4 // indirect
	github.com/gobwas/glob v0.2.3 // indirect
	github.com/golang/groupcache v0.0.0-20241129210726-2c02b8208cf8 // indirect
	github.com/golang/protobuf v1.5.4 // indirect
	github.com/jawher/mow.cli v1.1.0 // indirect
	github.com/kennygrant/sanitize v1.2.4 // indirect
	github.com/nlnwa/whatwg-url v0.6.2 // indirect
	github.com/saintfish/chardet v0.0.0-20230101081208-5e3ef4b5456d // indirect
	github.com/temoto/robotstxt v1.1.2 // indirect
	golang.org/x/net v0.62.0 // indirect
	golang.org/x/sync v0.24.0 // indirect
	golang.org/x/text v0.43.0 // indirect
	google.golang.org/appengine v1.6.8 // indirect
	google.golang.org/protobuf v1.36.10 // indirect
)

tool github.com/gocolly/colly/v2/cmd/colly
