package fetch_test

import (
	"context"
	"errors"
	"fmt"
	"net/http"

	"github.com/fastrobots/robots/fetch"
)

// A crawler of the public web connects only to public addresses. The
// example's site is on loopback, as an internal service would be: its
// robots.txt is refused before any request is sent.
func ExampleFetcher_guard() {
	site := exampleSite()
	defer site.Close()

	f := &fetch.Fetcher{Guard: fetch.PublicOnly}
	res, _ := f.Fetch(context.Background(), site.URL+"/robots.txt")
	fmt.Println(res.Policy, errors.Is(res.Err, fetch.ErrRefusedAddress))
	if refused, ok := errors.AsType[*fetch.AddressError](res.Err); ok {
		fmt.Println(refused)
	}
	// Output:
	// full disallow true
	// refused to connect to 127.0.0.1: a loopback address is not public
}

// The pages a crawler fetches get the same guard: the Transport sends
// them, and fetches their robots.txt, through a guarded copy of
// http.DefaultTransport. The site is on loopback: its robots.txt is
// refused, a full disallow, so the page is refused unsent.
func ExampleGuardTransport() {
	base, err := fetch.GuardTransport(nil, fetch.PublicOnly)
	if err != nil {
		panic(err) // http.DefaultTransport was replaced by another RoundTripper
	}
	client := &http.Client{Transport: fetch.NewTransport(base, fetch.TransportOptions{Agent: "ExampleBot"})}

	site := exampleSite()
	defer site.Close()
	_, err = client.Get(site.URL + "/page")
	fmt.Println(errors.Is(err, fetch.ErrDisallowed))
	// Output:
	// true
}
