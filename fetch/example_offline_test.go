package fetch_test

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"time"

	"github.com/fastrobots/robots/fetch"
)

// An offline cache checks URLs against robots.txt files stored earlier,
// however old, and never goes to the network: a batch job seeds it with
// Put and asks the Checker. An origin it was not given is an error.
func ExampleCacheOptions_offline() {
	cache := fetch.NewCache(nil, fetch.CacheOptions{Offline: true, MaxMemory: -1})
	fetchedAt := time.Date(2019, 6, 1, 0, 0, 0, 0, time.UTC) // when the file was saved
	res, err := cache.Put("https://example.com/", http.StatusOK, []byte("User-agent: *\nDisallow: /private/\n"), fetchedAt)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println("stale:", res.Stale)

	checker := fetch.NewChecker(cache)
	for _, u := range []string{"https://example.com/private/x", "https://example.com/blog/", "https://other.example/"} {
		allowed, err := checker.Allowed(context.Background(), "ExampleBot", u)
		switch {
		case errors.Is(err, fetch.ErrNotSeeded):
			fmt.Println(u, "not seeded")
		case err != nil:
			fmt.Println(u, err)
		default:
			fmt.Println(u, allowed)
		}
	}
	// Output:
	// stale: true
	// https://example.com/private/x false
	// https://example.com/blog/ true
	// https://other.example/ not seeded
}
