package fetch

import (
	"errors"
	"fmt"
)

// ErrNotSeeded is wrapped by the error an offline Cache (CacheOptions.Offline)
// returns for an origin that Put never seeded: an offline cache has no
// answer to give for it, and a verdict would be a guess.
var ErrNotSeeded = errors.New("fetch: origin not seeded in an offline cache")

// notSeeded is what an offline cache answers in place of a fetch.
func notSeeded(origin string) error {
	return fmt.Errorf("%w: %s", ErrNotSeeded, origin)
}
