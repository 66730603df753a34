package fetch_test

import (
	"testing"

	"github.com/fastrobots/robots/fetch"
	"github.com/fastrobots/robots/fetch/storetest"
)

func TestMemoryStoreContract(t *testing.T) {
	storetest.Run(t, func(*testing.T) fetch.Store { return fetch.NewMemoryStore() })
}
