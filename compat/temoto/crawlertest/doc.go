// Package crawlertest runs crawlers that use github.com/temoto/robotstxt
// with this module's replace in force, and asserts Google's verdicts.
package crawlertest
