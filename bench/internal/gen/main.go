// Command gen writes the benchmark workload files: testdata/realistic.txt
// and testdata/urls.txt, testdata/shop.txt and testdata/shop-urls.txt. Its output depends on nothing but this source: running
// it twice writes the same bytes, and gen_test.go checks that the committed
// files are what it writes.
//
//	cd bench && go run ./internal/gen        # rewrites testdata/
//	cd bench && go run ./internal/gen -dir /tmp/x
package main

import (
	"bytes"
	"flag"
	"fmt"
	"log"
	"os"
	"path/filepath"
	"strings"
)

func main() {
	dir := flag.String("dir", "testdata", "folder to write the workload files into")
	flag.Parse()
	if err := os.MkdirAll(*dir, 0o755); err != nil {
		log.Fatal(err)
	}
	for name, body := range Files() {
		if err := os.WriteFile(filepath.Join(*dir, name), body, 0o644); err != nil {
			log.Fatal(err)
		}
	}
}

// Files returns the generated files by name.
func Files() map[string][]byte {
	return map[string][]byte{
		"realistic.txt": Realistic(),
		"urls.txt":      URLs(),
		"shop.txt":      Shop(),
		"shop-urls.txt": ShopURLs(),
	}
}

const site = "https://www.example-shop.com"

// Realistic returns a robots.txt shaped like a large shop's: sitemaps, a
// header comment, 20+ named crawler groups of varied size (several sharing a
// group), and one '*' group of about 260 rules mixing plain prefixes,
// wildcards, '$' anchors, query-parameter rules, comments and blank lines.
func Realistic() []byte {
	var b bytes.Buffer
	w := func(format string, args ...any) { fmt.Fprintf(&b, format+"\n", args...) }

	w("# robots.txt for www.example-shop.com")
	w("# Questions about crawling: webmaster@example-shop.com")
	w("#")
	w("# Please respect the rules below. Aggressive crawlers are blocked at the edge.")
	w("#")
	w("# This file is maintained by the SEO team together with platform engineering.")
	w("# Changes go through review: every rule below has a reason, given in a comment")
	w("# where it is not obvious. Faceted navigation (sort, filter, price, colour, size)")
	w("# produces an unbounded number of URLs; we keep crawlers on the canonical pages")
	w("# and let them fetch the CSS, JavaScript and images needed to render them.")
	w("#")
	w("# Rate limits: well-behaved crawlers get a crawl delay per group; crawlers that")
	w("# ignore it, or that fetch more than 10 pages per second, are blocked for a day.")
	w("# Partners who need a higher rate can ask for an allowance at the address above.")
	w("#")
	w("# Last reviewed: 2024-03-18")
	w("")
	for _, s := range []string{"sitemap_index.xml", "sitemaps/products.xml.gz", "sitemaps/categories.xml", "sitemaps/blog.xml", "sitemaps/stores.xml"} {
		w("Sitemap: %s/%s", site, s)
	}
	w("")

	// Googlebot: its own group, a mix like the '*' group's but shorter.
	w("# Google")
	w("User-agent: Googlebot")
	for _, r := range []string{
		"Disallow: /checkout/",
		"Disallow: /cart/",
		"Disallow: /account/",
		"Disallow: /customer/",
		"Disallow: /wishlist/",
		"Disallow: /search",
		"Allow: /search/landing/",
		"Disallow: /*?sort=",
		"Disallow: /*&sort=",
		"Disallow: /*?sessionid=",
		"Disallow: /*&sessionid=",
		"Disallow: /*?utm_",
		"Disallow: /*&utm_",
		"Disallow: /*?filter=",
		"Disallow: /*&filter=",
		"Disallow: /*/print$",
		"Disallow: /*.pdf$",
		"Disallow: /api/",
		"Allow: /api/public/",
		"Disallow: /internal/",
		"Disallow: /tmp/",
		"Disallow: /cgi-bin/",
		"Allow: /*.css$",
		"Allow: /*.js$",
		"Allow: /static/",
		"Disallow: /products/*/reviews?page=",
		"Disallow: /category/*?page=",
		"Allow: /category/*?page=1$",
		"Disallow: /*/compare/",
		"Disallow: /en-*/checkout/",
		"Disallow: /de-*/checkout/",
		"Disallow: /fr-*/checkout/",
	} {
		w("%s", r)
	}
	w("")

	w("User-agent: Googlebot-Image")
	w("Allow: /images/")
	w("Allow: /media/catalog/product/")
	w("Disallow: /images/private/")
	w("Disallow: /media/tmp/")
	w("Disallow: /*.svg$")
	w("")

	w("User-agent: Googlebot-News")
	w("Allow: /news/")
	w("Allow: /blog/")
	w("Disallow: /")
	w("")

	w("User-agent: AdsBot-Google")
	w("User-agent: AdsBot-Google-Mobile")
	w("Disallow: /checkout/")
	w("Disallow: /account/")
	w("Allow: /")
	w("")

	// Other search engines: one group each (as many sites write them), with
	// the same core rules, a crawl delay and a few rules of their own.
	common := []string{
		"Disallow: /checkout/", "Disallow: /cart/", "Disallow: /account/", "Disallow: /customer/",
		"Disallow: /wishlist/", "Disallow: /search", "Allow: /search/landing/", "Disallow: /*?sort=",
		"Disallow: /*&sort=", "Disallow: /*?sessionid=", "Disallow: /*&sessionid=", "Disallow: /*?utm_",
		"Disallow: /*&utm_", "Disallow: /*.pdf$", "Disallow: /api/", "Allow: /api/public/",
		"Disallow: /internal/", "Disallow: /tmp/", "Disallow: /products/*/reviews?page=",
		"Disallow: /category/*?page=", "Allow: /*.css$", "Allow: /*.js$",
	}
	engines := []struct {
		agents []string
		delay  int
		extra  []string
	}{
		{[]string{"Bingbot", "msnbot"}, 2, []string{"Disallow: /*/print$", "Disallow: /*/compare/"}},
		{[]string{"Slurp"}, 5, []string{"Disallow: /blog/tag/"}},
		{[]string{"DuckDuckBot"}, 3, nil},
		{[]string{"Applebot"}, 3, []string{"Allow: /images/", "Disallow: /images/private/"}},
		{[]string{"YandexBot", "YandexImages"}, 10, []string{"Clean-param: sessionid&utm_source&utm_medium /", "Host: www.example-shop.com"}},
		{[]string{"Baiduspider", "Sogou web spider"}, 10, []string{"Disallow: /en-*/", "Disallow: /de-*/", "Disallow: /fr-*/"}},
		{[]string{"SeznamBot"}, 20, []string{"Disallow: /*?"}},
		{[]string{"Qwantify", "Exabot"}, 20, []string{"Disallow: /*?"}},
		{[]string{"Mail.RU_Bot", "coccocbot-web"}, 30, nil},
	}
	for i, e := range engines {
		if i == 0 {
			w("# Other search engines")
		}
		for _, a := range e.agents {
			w("User-agent: %s", a)
		}
		w("Crawl-delay: %d", e.delay)
		for j, r := range common {
			if (i+j)%9 == 8 {
				continue // each engine's list differs a little
			}
			w("%s", r)
		}
		for _, r := range e.extra {
			w("%s", r)
		}
		w("")
	}

	w("User-agent: facebookexternalhit")
	w("User-agent: Twitterbot")
	w("User-agent: LinkedInBot")
	w("User-agent: Pinterestbot")
	w("Allow: /products/")
	w("Allow: /blog/")
	w("Allow: /images/")
	w("Disallow: /checkout/")
	w("Disallow: /account/")
	w("")

	w("# SEO tools and AI crawlers: no thanks")
	for _, a := range []string{"AhrefsBot", "SemrushBot", "MJ12bot", "DotBot", "PetalBot", "GPTBot", "CCBot", "ClaudeBot", "Bytespider"} {
		w("User-agent: %s", a)
	}
	w("Disallow: /")
	w("")

	w("User-agent: ia_archiver")
	w("Disallow: /checkout/")
	w("Disallow: /account/")
	w("Disallow: /*?")
	w("")

	w("User-agent: Mediapartners-Google")
	w("Disallow:")
	w("")

	// The '*' group.
	n := 0
	rule := func(kind, value string) {
		w("%s: %s", kind, value)
		n++
	}
	w("# Everyone else")
	w("User-agent: *")
	w("Crawl-delay: 1")
	w("")

	w("# Private areas")
	sections := []string{
		"account", "cart", "checkout", "customer", "wishlist", "compare", "login", "logout",
		"register", "password-reset", "admin", "backend", "api", "internal", "tmp", "cgi-bin",
		"private", "print", "ajax", "feeds", "newsletter", "order-tracking", "returns", "gift-registry",
		"sales", "review", "sendfriend", "catalogsearch", "checkout-v2", "payment",
	}
	why := []string{
		"per-user pages", "session state", "session state", "per-user pages", "per-user pages",
		"no content of its own", "forms", "forms", "forms", "forms, one-time links",
		"back office", "back office", "machine endpoints", "not public", "scratch space",
		"legacy scripts", "not public", "printer-friendly duplicates", "fragments",
		"duplicates of pages", "forms", "per-order pages", "forms", "per-user pages",
		"order data", "forms", "forms", "duplicates of /search", "new checkout", "payment flow",
	}
	for i, s := range sections {
		w("Disallow: /%s/%s# %s", s, strings.Repeat(" ", 20-len(s)), why[i])
		n++
	}
	w("")
	w("# Public pieces of private areas")
	for _, s := range []string{"account/help", "api/public", "customer/service", "checkout/faq", "review/guidelines", "feeds/public"} {
		rule("Allow", "/"+s+"/")
	}
	w("")

	w("# Search and faceted navigation")
	rule("Disallow", "/search")
	rule("Disallow", "/catalogsearch/result/")
	rule("Allow", "/search/landing/")
	params := []string{
		"sort", "order", "dir", "limit", "mode", "sessionid", "sid", "phpsessid", "utm_source",
		"utm_medium", "utm_campaign", "utm_content", "gclid", "fbclid", "filter", "price",
		"color", "size", "brand", "material", "availability", "rating", "q", "ref", "affiliate",
		"currency", "lang", "view", "display", "page_size",
	}
	for i, p := range params {
		rule("Disallow", "/*?"+p+"=")
		rule("Disallow", "/*&"+p+"=")
		if i%7 == 6 {
			w("")
		}
	}
	w("")

	w("# File types")
	for _, ext := range []string{"pdf", "doc", "docx", "xls", "xlsx", "zip", "gz", "tar", "bak", "old", "sql", "log", "ini", "cfg", "swp", "tmp"} {
		rule("Disallow", "/*."+ext+"$")
	}
	for _, ext := range []string{"css", "js", "png", "jpg", "jpeg", "gif", "webp", "svg", "woff", "woff2", "ico"} {
		rule("Allow", "/*."+ext+"$")
	}
	w("")

	w("# Localised checkout and account pages")
	locales := []string{"en-us", "en-gb", "de-de", "de-at", "fr-fr", "fr-be", "it-it", "es-es", "nl-nl", "pl-pl"}
	for _, l := range locales {
		w("# %s: the same as the root site, localised", l)
		for _, s := range []string{"checkout", "cart", "account", "wishlist", "search"} {
			rule("Disallow", "/"+l+"/"+s+"/")
		}
	}
	w("")

	w("# Catalog")
	for _, r := range []string{
		"/products/*/reviews?page=", "/products/*/questions?page=", "/products/*/print$",
		"/products/*?variant=*&variant=", "/category/*?page=", "/category/*/*/*/*/",
		"/brand/*?page=", "/tag/", "/tags/", "/author/", "/*/compare/", "/*/print$",
		"/*/feed$", "/*/amp$", "/*/embed/", "/*/trackback/", "/*?replytocom=",
		"/*?add-to-cart=", "/*?add_to_wishlist=", "/*/quickview/", "/*/ajax/",
		"/media/tmp/", "/media/customer/", "/media/import/", "/media/downloadable/",
	} {
		rule("Disallow", r)
	}
	for _, r := range []string{
		"/category/*?page=1$", "/products/*/reviews$", "/media/catalog/", "/static/", "/assets/",
		"/blog/", "/news/", "/stores/", "/help/", "/about/",
	} {
		rule("Allow", r)
	}
	w("")

	w("# Legacy URLs (old platform)")
	for i := 1; i <= 40; i++ {
		if i%2 == 1 {
			w("# removed in the %d migration, ticket SEO-%d; kept until the old links are gone", 2014+i%9, 1000+i*37)
		}
		switch i % 4 {
		case 0:
			rule("Disallow", fmt.Sprintf("/shop/index.php?cPath=%d", i*7))
		case 1:
			rule("Disallow", fmt.Sprintf("/old-catalog/section-%02d/", i))
		case 2:
			rule("Disallow", fmt.Sprintf("/*/legacy-%d/*.html$", i))
		case 3:
			rule("Disallow", fmt.Sprintf("/promo/%d/*?code=", 2010+i/2))
		}
	}
	w("")

	w("# Misc")
	for _, r := range []string{
		"/index.php/", "/*.php$", "/*.asp$", "/*?print=1", "/*;jsessionid=", "/*%3Fsessionid%3D",
		"/*/*/*/*/*/*/*/", "/*?*?", "/*&&", "/*?p=*&p=", "/ru/", "/cn/", "/jp/", "/kr/",
		"/*/undefined", "/*/null$", "/*[object%20Object]",
	} {
		rule("Disallow", r)
	}
	for _, r := range []string{"/index.php$", "/robots.txt$", "/sitemap", "/.well-known/"} {
		rule("Allow", r)
	}
	w("")
	w("# %d rules in the '*' group", n)
	w("# end of file")
	return b.Bytes()
}

// urls are 64 paths (with queries) a crawler of the shop would check: some
// allowed, some disallowed, some by wildcard or '$' rules, 20 to 120 bytes.
var urls = []string{
	"/products/shoes/running/nike-air-zoom-pegasus-39",
	"/products/shoes/running/nike-air-zoom-pegasus-39?color=black&size=10",
	"/products/bags/leather-weekender-bag-cognac/reviews?page=3",
	"/products/bags/leather-weekender-bag-cognac/reviews",
	"/products/kitchen/cast-iron-skillet-26cm/questions?page=2",
	"/products/home/linen-duvet-cover-king/print",
	"/category/women/dresses?page=2",
	"/category/women/dresses?page=1",
	"/category/men/shirts/casual/linen/short-sleeve/",
	"/category/kids/toys?sort=price_asc&page=4",
	"/category/sale?utm_source=newsletter&utm_medium=email",
	"/brand/acme-outdoor?page=7",
	"/search?q=red+summer+dress&sort=relevance",
	"/search/landing/summer-sale-2024",
	"/checkout/cart/add/product/12345/form_key/abc123",
	"/checkout/faq/shipping-and-returns",
	"/cart/?coupon=WELCOME10",
	"/account/orders/1234567890/invoice",
	"/account/help/change-password",
	"/customer/service/contact-us",
	"/wishlist/index/add/product/4711/",
	"/en-us/checkout/payment/step-2",
	"/de-de/account/login?redirect=%2Fde-de%2Fwishlist",
	"/fr-fr/produits/chaussures/baskets-blanches-cuir",
	"/it-it/search/?q=borsa+in+pelle",
	"/nl-nl/categorie/dames/jurken?page=2&sessionid=9f8e7d6c5b4a",
	"/blog/2023/05/how-to-choose-running-shoes",
	"/blog/2023/05/how-to-choose-running-shoes/amp",
	"/blog/2022/11/gift-guide-for-hikers/feed",
	"/blog/tag/sustainability/",
	"/news/press/2024-annual-report.pdf",
	"/help/shipping/international-delivery-times",
	"/stores/berlin-mitte/opening-hours",
	"/about/careers/software-engineer-search-ranking",
	"/static/css/main.8f3a2b1c.css",
	"/static/js/vendor.4d5e6f.chunk.js",
	"/assets/fonts/inter-var-latin.woff2",
	"/media/catalog/product/cache/1/image/600x/a1b2c3/shoe-side.jpg",
	"/media/customer/avatars/user-88231.png",
	"/media/tmp/catalog/product/upload-9921.tmp",
	"/images/banners/summer-sale-hero-1920x600.webp",
	"/downloads/size-chart-footwear.pdf",
	"/downloads/price-list-2024.xlsx",
	"/api/v2/products?page=3&limit=50",
	"/api/public/store-locator?lat=52.52&lng=13.40",
	"/internal/metrics/prometheus",
	"/shop/index.php?cPath=28_35&osCsid=abcdef123456",
	"/old-catalog/section-05/item-221.html",
	"/outlet/legacy-6/winter-jacket-navy.html",
	"/promo/2015/spring-deals?code=SPRING15",
	"/index.php/catalog/product/view/id/998/",
	"/index.php?main_page=index",
	"/product.php?id=12&sessionid=77aa88bb99cc",
	"/products/toys/wooden-train-set?variant=red&variant=blue",
	"/products/garden/hose-reel-30m?replytocom=4412",
	"/products/garden/hose-reel-30m?add-to-cart=9981",
	"/collections/new-arrivals?fbclid=IwAR3xYz_abcdef",
	"/collections/new-arrivals?gclid=Cj0KCQjw-abcdefghijklmnop",
	"/collections/new-arrivals/quickview/item-42",
	"/gift-cards/digital-gift-card-50-eur",
	"/sitemaps/products.xml.gz",
	"/.well-known/change-password",
	"/.well-known/security.txt",
	"/a/b/c/d/e/f/g/h/deep-nested-path-for-testing",
}

// URLs returns urls.txt: one path per line.
func URLs() []byte {
	for _, u := range urls {
		if len(u) < 20 || len(u) > 120 {
			panic("url length out of range: " + u)
		}
	}
	return []byte(strings.Join(urls, "\n") + "\n")
}
