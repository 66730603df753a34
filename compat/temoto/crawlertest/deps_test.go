package crawlertest

// gocrawl's test suite is run from this module (gocrawl.sh); the import
// keeps it, at the version go.mod names, in the module's requirements.
import _ "github.com/PuerkitoBio/gocrawl"
