package main

import (
	"bytes"
	"fmt"
	"strings"
)

// Shop returns shop.txt: the robots.txt of a large online shop whose '*'
// group is written in wildcards, as shops on hosted platforms write them.
// Its shape is pinned by gen_test.go: 32 user-agent lines, 599 allow and
// disallow rules, 395 of them with a '*' and 142 with a '$', and a '*'
// group of 260 rules (two blocks that merge, one at the top and one at the
// end) for any crawler that no group names. Faceted search (colour, size,
// sort, price, ... as query parameters anywhere in the query), session and
// tracking parameters, cart, checkout and account pages, file types
// anchored with '$', localised sections, and groups of their own for the
// large crawlers (two of them in two blocks that merge, several sharing a
// group), with comments and sitemaps.
func Shop() []byte {
	var b bytes.Buffer
	w := func(format string, args ...any) { fmt.Fprintf(&b, format+"\n", args...) }
	rules := func(rs ...string) {
		for _, r := range rs {
			w("%s", r)
		}
	}

	w("# robots.txt for www.example-shop.com")
	w("#")
	w("# Faceted navigation produces billions of URLs: every filter (colour, size,")
	w("# brand, price, ...) can be combined with every other, in any order, with any")
	w("# sorting and page size. Crawlers are kept on the canonical category and product")
	w("# pages, and may fetch the CSS, JavaScript, fonts and images needed to render them.")
	w("#")
	w("# Rules are grouped by purpose; each group of crawlers below starts from the same")
	w("# core list, edited over the years for what each one does on the site. The list")
	w("# for everyone else is split in two: the storefront migrated in 2024 and its")
	w("# rules were added at the end of the file.")
	w("#")
	w("# Questions about crawling: seo@example-shop.com (include your crawler's name,")
	w("# its IP ranges and the URLs concerned). Crawlers that ignore these rules, or")
	w("# that fetch more than 5 pages per second, are blocked at the edge for a day.")
	w("#")
	w("# Last reviewed: 2024-09-02 (SEO-4127)")
	w("")
	for _, s := range []string{"sitemap.xml", "sitemaps/products-1.xml.gz", "sitemaps/products-2.xml.gz", "sitemaps/categories.xml", "sitemaps/content.xml"} {
		w("Sitemap: %s/%s", site, s)
	}
	w("")

	w("User-agent: *")
	shopStarTop(w, rules)
	w("")

	w("# Google: the core list, plus assets with cache-busting queries, and the")
	w("# first page of each category listing (later pages are reached by links)")
	w("User-agent: Googlebot")
	rules(shopCore(0, 0)...)
	rules(
		"Allow: /*.css$", "Allow: /*.js$", "Allow: /*.css?v=*", "Allow: /*.js?v=*",
		"Allow: /media/catalog/product/", "Allow: /static/",
		"Disallow: /*/quick-view$", "Disallow: /*/print$", "Disallow: /products/*/reviews?*page=",
		"Allow: /products/*/reviews$", "Disallow: /category/*?page=", "Allow: /category/*?page=1$",
		"Disallow: /*/compare/*", "Disallow: /*?*preview=", "Disallow: /*/amp$",
	)
	w("")

	w("# Product photos only; customer uploads and resized variants stay out")
	w("User-agent: Googlebot-Image")
	rules("Allow: /media/catalog/product/", "Allow: /*.jpg$", "Allow: /*.webp$", "Allow: /*.png$",
		"Allow: /*.avif$", "Disallow: /media/customer/", "Disallow: /media/tmp/", "Disallow: /*.svg$",
		"Disallow: /*?*width=")
	w("")

	w("# The magazine and press releases are news; nothing else is")
	w("User-agent: Googlebot-News")
	rules("Allow: /magazine/", "Allow: /press/", "Disallow: /")
	w("")

	w("# Landing-page checks for ads: campaign URLs carry gclid and must be fetched")
	w("User-agent: AdsBot-Google")
	w("User-agent: AdsBot-Google-Mobile")
	rules("Disallow: /checkout/", "Disallow: /account/", "Disallow: /*?*sessionid=",
		"Disallow: /*;jsessionid=", "Allow: /*?*gclid=", "Allow: /")
	w("")

	w("# AdSense on the magazine: may read every page")
	w("User-agent: Mediapartners-Google")
	w("Disallow:")
	w("")

	w("# Other search engines: the same core rules, each with a few of its own")
	engines := []struct {
		agents []string
		skip   int // rules of the core left out, every skip-th
		delay  int
		extra  []string
	}{
		{[]string{"Bingbot", "msnbot"}, 0, 1, []string{
			"Allow: /*.css$", "Allow: /*.js$", "Disallow: /*/print$", "Disallow: /*/quick-view$",
			"Disallow: /category/*?page=", "Allow: /category/*?page=1$", "Disallow: /*/compare/*",
		}},
		{[]string{"DuckDuckBot"}, 4, 2, []string{"Allow: /*.css$", "Allow: /*.js$", "Disallow: /*/print$", "Disallow: /*/quick-view$"}},
		{[]string{"Applebot"}, 3, 2, []string{"Allow: /*.css$", "Allow: /*.js$", "Allow: /media/catalog/product/*.jpg$", "Disallow: /*/print$"}},
		{[]string{"YandexBot", "YandexImages"}, 3, 5, []string{
			"Disallow: /*?*yclid=", "Disallow: /*&*yclid=", "Disallow: /*?*_openstat=", "Clean-param: utm_source&utm_medium&utm_campaign /",
		}},
		{[]string{"Baiduspider"}, 2, 10, []string{"Disallow: /*/reviews$", "Disallow: /en-*/", "Disallow: /de-*/"}},
	}
	for _, e := range engines {
		for _, a := range e.agents {
			w("User-agent: %s", a)
		}
		w("Crawl-delay: %d", e.delay)
		core := shopCore(e.skip, 4)
		rules(core...)
		rules(e.extra...)
		w("")
	}

	w("# Link previews: product pages and the magazine, shared on social networks")
	for _, a := range []string{"facebookexternalhit", "Twitterbot", "LinkedInBot", "Pinterestbot"} {
		w("User-agent: %s", a)
	}
	rules("Allow: /products/", "Allow: /magazine/", "Allow: /*.jpg$", "Disallow: /checkout/", "Disallow: /account/", "Disallow: /*?*sessionid=")
	w("")

	w("# SEO tools and AI crawlers: no thanks (ask us for a data export instead)")
	for _, a := range []string{"AhrefsBot", "SemrushBot", "MJ12bot", "DotBot", "PetalBot", "GPTBot", "CCBot", "ClaudeBot", "Bytespider"} {
		w("User-agent: %s", a)
	}
	w("Disallow: /")
	w("")

	w("# The archive may keep the catalog, without parameters")
	w("User-agent: ia_archiver")
	rules("Disallow: /checkout/", "Disallow: /account/", "Disallow: /*?", "Allow: /$")
	w("")

	w("# Product feeds go through the merchant API; the crawler sees the site as is")
	w("User-agent: Amazonbot")
	rules("Disallow: /checkout/", "Disallow: /*?*sort=", "Disallow: /*.pdf$")
	w("")

	w("# Googlebot: the sale pages come and go; keep the expired ones out")
	w("User-agent: Googlebot")
	rules("Disallow: /sale/*/expired$", "Disallow: /sale/*/preview$", "Disallow: /sale/*?*preview=",
		"Allow: /sale/", "Allow: /sale/$", "Disallow: /*/gift-finder?*step=")
	w("")

	w("User-agent: Bingbot")
	rules("Disallow: /sale/*/expired$", "Disallow: /*?*msclkid=", "Allow: /sale/", "Allow: /sale/$")
	w("")

	w("# Everyone else, continued: added with the 2024 storefront")
	w("User-agent: *")
	shopStarBottom(w, rules)
	w("")
	w("# end of file")
	return b.Bytes()
}

// shopFacets are the faceted-search parameters: filters a shopper combines
// freely, each disallowed wherever it sits in the query.
var shopFacets = []string{
	"color", "size", "brand", "price", "material", "fit", "style", "pattern", "gender",
	"rating", "availability", "discount", "width", "length", "season", "heel_height",
	"sleeve", "neckline", "occasion", "collection", "care", "origin", "shop_by", "cat",
}

// shopSorts are the parameters that reorder or re-page a listing.
var shopSorts = []string{"sort", "order", "dir", "limit", "page_size", "view", "mode", "display"}

// shopLandings are the top-level sections whose landing page is allowed
// exactly, while deeper pages follow the other rules.
var shopLandings = []string{
	"category", "collections", "products", "brands", "magazine", "press", "stores", "help",
	"about", "careers", "gift-cards", "sale", "outlet", "new-in", "bestsellers", "lookbook",
	"women", "men", "kids", "home",
}

// shopTracking are session and campaign parameters.
var shopTracking = []string{
	"/*?*sessionid=", "/*?sid=", "/*&sid=", "/*;jsessionid=", "/*PHPSESSID=", "/*?osCsid=",
	"/*&osCsid=", "/*?utm_", "/*&utm_", "/*?*gclid=", "/*?*fbclid=", "/*?*msclkid=",
	"/*?ref=", "/*&ref=", "/*?affiliate=*", "/*?*mc_cid=", "/*?_ga=", "/*?*srsltid=",
}

// shopCore returns the rules the search engines' groups share, leaving out
// every skip-th (from offset) when skip > 0, so that each engine's list
// differs a little, as lists copied and edited by hand do.
func shopCore(skip, offset int) []string {
	core := []string{
		"Disallow: /cart", "Disallow: /checkout/", "Disallow: /account/", "Disallow: /customer/",
		"Disallow: /wishlist/", "Disallow: /*/cart/", "Disallow: /*/checkout/", "Disallow: /*/account/",
		"Disallow: /*add-to-cart=*", "Disallow: /search", "Allow: /search/landing/",
		"Disallow: /api/", "Allow: /api/public/", "Disallow: /*.pdf$", "Disallow: /*.json$",
		"Allow: /$", "Disallow: /account$", "Disallow: /login$", "Disallow: /register$",
		"Disallow: /orders/", "Disallow: /returns/", "Disallow: /cgi-bin/", "Disallow: /tmp/",
		"Disallow: /admin/", "Disallow: /newsletter/",
	}
	for _, p := range shopFacets[:16] {
		core = append(core, "Disallow: /*?*"+p+"=")
	}
	for _, p := range shopSorts[:4] {
		core = append(core, "Disallow: /*"+p+"=*")
	}
	for _, t := range shopTracking[:12] {
		core = append(core, "Disallow: "+t)
	}
	if skip == 0 {
		return core
	}
	var out []string
	for i, r := range core {
		if (i+offset)%skip != 0 {
			out = append(out, r)
		}
	}
	return out
}

// shopStarTop writes the first block of the '*' group.
func shopStarTop(w func(string, ...any), rules func(...string)) {
	w("# Cart, checkout and account: per-visitor pages")
	rules(
		"Disallow: /cart", "Disallow: /cart/", "Disallow: /checkout/", "Disallow: /checkout",
		"Disallow: /account/", "Disallow: /customer/", "Disallow: /wishlist/", "Disallow: /orders/",
		"Disallow: /*/cart/", "Disallow: /*/checkout/", "Disallow: /*/account/", "Disallow: /*/wishlist/",
		"Disallow: /*add-to-cart=*", "Disallow: /*?add_to_wishlist=", "Disallow: /*/compare/",
		"Disallow: /login", "Disallow: /logout", "Disallow: /register", "Disallow: /*/login$",
		"Disallow: /password-reset/", "Disallow: /order-tracking/", "Disallow: /returns/*/label$",
		"Allow: /account/help/", "Allow: /checkout/faq/", "Allow: /customer/service/",
	)
	w("")
	w("# Faceted search: any filter, anywhere in the query (\"/*?*color=\" matches")
	w("# ?color=red as well as ?size=m&color=red), and the same filters written as")
	w("# path segments by the old theme (/jackets/color-navy/)")
	for _, p := range shopFacets {
		w("Disallow: /*?*%s=", p)
	}
	for _, p := range shopFacets[:12] {
		w("Disallow: /*/*%s-*/", p)
	}
	w("# Sorting and paging")
	for _, p := range shopSorts {
		w("Disallow: /*%s=*", p)
	}
	rules("Allow: /*?page=", "Disallow: /*?page=*&", "Allow: /*?page=1$", "Disallow: /*?*p=*&*p=")
	w("")
	w("# Sessions and campaign tracking: the same page under another URL")
	for _, t := range shopTracking {
		w("Disallow: %s", t)
	}
	w("")
	w("# Site search: results pages are thin and endless; curated landing pages are not")
	rules("Disallow: /search", "Disallow: /search/", "Disallow: /*/search?", "Disallow: /catalogsearch/",
		"Disallow: /*?q=", "Disallow: /*&q=", "Allow: /search/landing/", "Allow: /search/landing/*$")
	w("")
	w("# Files: documents out, what pages need to render in")
	for _, ext := range []string{"pdf", "doc", "docx", "xls", "xlsx", "csv", "zip", "json", "txt", "log", "bak", "sql"} {
		if ext == "pdf" {
			w("Disallow: *.%s$", ext)
			continue
		}
		w("Disallow: /*.%s$", ext)
	}
	rules("Allow: /robots.txt$", "Allow: /llms.txt$")
	for _, ext := range []string{"css", "js", "mjs", "png", "jpg", "jpeg", "gif", "webp", "avif", "svg", "woff", "woff2", "ico"} {
		w("Allow: /*.%s$", ext)
	}
	rules("Allow: /*.css?v=*", "Allow: /*.js?v=*", "Allow: /sitemap*.xml$", "Allow: /sitemaps/*.xml.gz$")
	w("")
	w("# Catalog: reviews and questions are paged and sorted; variants are")
	w("# selected on the product page itself")
	rules(
		"Disallow: /products/*/reviews?*page=", "Disallow: /products/*/questions", "Disallow: /products/*/print$",
		"Disallow: /products/*?variant=*&*variant=", "Disallow: /*/quick-view$", "Disallow: /*/quickview/",
		"Disallow: /category/*?page=", "Disallow: /category/*/*/*/*/", "Disallow: /brand/*?page=",
		"Disallow: /*/amp$", "Disallow: /*/feed$", "Disallow: /*/embed/", "Disallow: /*/print$",
		"Disallow: /*?print=", "Disallow: /tag/", "Disallow: /*/tags/", "Disallow: /*/reviews/*/helpful$",
		"Allow: /category/*?page=1$", "Allow: /products/*/reviews$", "Allow: /products/*.html$",
		"Allow: /media/catalog/", "Allow: /static/", "Allow: /assets/",
	)
	w("")
	w("# Localised storefronts: the same private pages under each locale")
	for _, l := range []string{"en-us", "en-gb", "de-de", "fr-fr", "it-it", "es-es", "nl-nl", "pl-pl"} {
		rules("Disallow: /"+l+"/checkout/", "Disallow: /"+l+"/account/", "Disallow: /"+l+"/search")
	}
	rules("Disallow: /*-*/cart/", "Disallow: /*-*/wishlist/")
	w("")
	w("# Landing pages: crawled as they are, never with an empty query")
	rules("Allow: /$", "Disallow: /*?$", "Disallow: /*&$")
	for _, p := range shopLandings {
		w("Allow: /%s/$", p)
	}
	w("")
	w("# Old platform, redirected; kept until the old links are gone")
	for i := 1; i <= 12; i++ {
		switch i % 3 {
		case 0:
			w("Disallow: /shop/index.php?cPath=%d", i*7)
		case 1:
			w("Disallow: /old-catalog/section-%02d/", i)
		case 2:
			w("Disallow: /*/legacy-%d/*.html$", i)
		}
	}
	rules("Disallow: /index.php/", "Disallow: /*.php$", "Allow: /index.php$", "Disallow: /*.asp$", "Disallow: /cgi-bin/",
		"Disallow: /admin/", "Disallow: /newsletter/")
}

// shopStarBottom writes the second block of the '*' group, which merges
// with the first.
func shopStarBottom(w func(string, ...any), rules func(...string)) {
	rules(
		"Disallow: /collections/*sort_by*", "Disallow: /*/collections/*sort_by*",
		"Disallow: /collections/*+*", "Disallow: /collections/*%2B*", "Disallow: /*/collections/*+*",
		"Disallow: /*/collections/*%2B*", "Disallow: /*/blogs/*+*", "Disallow: /*/blogs/*%2B*",
		"Disallow: */collections/*filter*&*filter*", "Disallow: /blogs/*+*", "Disallow: /blogs/*%2B*",
		"Disallow: /*?*oseid=*", "Disallow: /*preview_theme_id*", "Disallow: /*preview_script_id*",
		"Disallow: /policies/", "Disallow: /*/policies/", "Disallow: /*/*?*ls=*&ls=*",
		"Disallow: /*/*?*ls%3D*%3Fls%3D*", "Disallow: /*/*?*ls%3d*%3fls%3d*", "Disallow: /checkouts/",
		"Disallow: /carts", "Disallow: /a/downloads/-/*",
		"Disallow: /recommendations/products", "Disallow: /*/recommendations/products",
		"Disallow: /products/*-remote", "Disallow: /*/products/*-remote",
		"Disallow: /cdn/wpm/*.js", "Disallow: /.well-known/", "Allow: /.well-known/security.txt$",
	)
	w("")
	w("# Product page actions: forms, not content")
	rules("Disallow: /*/share$", "Disallow: /*/email-a-friend$", "Disallow: /*/notify-me$",
		"Disallow: /*/reviews/*/report$", "Disallow: /*/size-guide$")
	w("")
	w("# Gift finder and store locator: endless combinations")
	rules("Disallow: /gift-finder?*step=", "Disallow: /stores/*?*lat=", "Disallow: /stores/*?*radius=",
		"Allow: /stores/$", "Allow: /stores/*/$")
}

// shopURLs are 64 paths (with queries) a crawler of shop.txt would check:
// listings with filters, sorting and tracking parameters, product pages,
// assets and documents, private pages, localised pages.
var shopURLs = []string{
	"/category/women/dresses",
	"/category/women/dresses?page=1",
	"/category/women/dresses?page=2",
	"/category/women/dresses?color=red",
	"/category/women/dresses?page=2&color=red&size=m",
	"/category/men/shoes/sneakers?sort=price_asc",
	"/category/men/shoes/sneakers?brand=acme&sort=newest",
	"/category/kids/toys?price=10-25&availability=in_stock",
	"/category/home/bedding/duvet-covers/king/linen/",
	"/category/sale?utm_source=newsletter&utm_medium=email",
	"/category/outdoor/jackets/color-navy/",
	"/products/acme-trail-runner-2-black-p10442.html",
	"/products/acme-trail-runner-2-black-p10442.html?variant=3",
	"/products/acme-trail-runner-2/reviews",
	"/products/acme-trail-runner-2/reviews?sort=helpful&page=3",
	"/products/linen-duvet-cover-king/questions?page=2",
	"/products/linen-duvet-cover-king/print",
	"/products/cast-iron-skillet-26cm?variant=red&variant=blue",
	"/products/cast-iron-skillet-26cm/quick-view",
	"/products/wool-scarf-grey?gclid=Cj0KCQjw-abcdefghijkl",
	"/products/wool-scarf-grey?fbclid=IwAR3xYz_abcdef",
	"/collections/new-arrivals?sort_by=price-ascending",
	"/collections/summer+linen?page=2",
	"/collections/jackets/products/down-parka-remote",
	"/collections/all?filter.v.color=red&filter.v.size=m",
	"/search?q=red+summer+dress",
	"/search/landing/summer-sale-2024",
	"/de-de/search?q=lederjacke&sort=relevance",
	"/cart",
	"/cart/add?id=10442&quantity=1",
	"/checkout/shipping?step=2",
	"/checkout/faq/returns-and-refunds",
	"/account/orders/1234567890/invoice",
	"/account/help/reset-your-password",
	"/customer/service/contact-us?topic=delivery",
	"/en-gb/checkout/payment/step-2",
	"/fr-fr/produits/chaussures/baskets-blanches-cuir",
	"/nl-nl/cart/?coupon=WELKOM10",
	"/it-it/account/login?redirect=%2Fit-it%2Fwishlist",
	"/wishlist/index/add/product/4711/",
	"/magazine/2024/05/how-to-choose-running-shoes",
	"/magazine/2024/05/how-to-choose-running-shoes/amp",
	"/magazine/2023/11/gift-guide-for-hikers/feed",
	"/press/2024-annual-report.pdf",
	"/downloads/size-chart-footwear.pdf?v=2",
	"/downloads/price-list-2024.xlsx",
	"/static/css/main.8f3a2b1c.css",
	"/static/js/vendor.4d5e6f.chunk.js?v=20240318",
	"/assets/fonts/inter-var-latin.woff2",
	"/media/catalog/product/cache/1/image/600x/a1b2c3/shoe-side.jpg",
	"/media/customer/avatars/user-88231.png",
	"/api/v2/products?page=3&limit=50",
	"/api/public/store-locator?lat=52.52&lng=13.40",
	"/stores/berlin-mitte/opening-hours?lang=en",
	"/stores/berlin-mitte/?lat=52.52&radius=10",
	"/gift-finder?step=3&budget=50",
	"/sale/winter-2023/expired",
	"/sale/spring-2024/shoes?sort=discount",
	"/shop/index.php?cPath=21&osCsid=abcdef123456",
	"/old-catalog/section-04/item-221.html",
	"/outlet/legacy-5/winter-jacket-navy.html?ref=old-newsletter",
	"/product.php?id=12&PHPSESSID=77aa88bb99cc",
	"/policies/terms-of-service",
	"/.well-known/security.txt",
}

// ShopURLs returns shop-urls.txt: one path per line.
func ShopURLs() []byte {
	return []byte(strings.Join(shopURLs, "\n") + "\n")
}
