//go:build js && wasm

// Command wasm is the engine of the robots.txt tester for a page served
// with no server behind it: built with GOOS=js GOARCH=wasm, it gives the
// page window.robotsLocalAPI(path, body), which answers the API requests
// the page would post to robots serve (check, explain, lint) with the
// same JSON, through package api. Load needs a server to fetch through:
// its path, and a request naming an origin, are refused.
//
// cmd/robots/web/build-static.sh builds it into a static copy of the
// tester; docs/serve.md says how to host one.
package main

import (
	"fmt"
	"syscall/js"

	"github.com/fastrobots/robots/cmd/robots/internal/api"
)

func main() {
	js.Global().Set("robotsLocalAPI", js.FuncOf(localAPI))
	select {} // the page calls in for as long as it is open
}

// localAPI is window.robotsLocalAPI(path, body): a Promise of the answer
// robots serve gives to body, a JSON value, posted to path, or rejected
// with an Error holding the message of the answer {"error": ...} the
// server would give.
func localAPI(_ js.Value, args []js.Value) any {
	var path, body string
	if len(args) > 0 {
		path = args[0].String()
	}
	if len(args) > 1 && !args[1].IsUndefined() { // undefined is an empty body, as a POST without one
		body = js.Global().Get("JSON").Call("stringify", args[1]).String()
	}
	answer, msg := local(path, body)
	return promise(func() (js.Value, string) {
		if msg != "" {
			return js.Undefined(), msg
		}
		return js.Global().Get("JSON").Call("parse", string(answer)), ""
	})
}

// local is api.Local, with the message of its error. A panic, which
// robots serve would survive as one failed request, is the message too:
// the page keeps its engine for the next request.
func local(path, body string) (answer []byte, msg string) {
	defer func() {
		if r := recover(); r != nil {
			answer, msg = nil, fmt.Sprintf("internal error: %v", r)
		}
	}()
	answer, err := api.Local(path, []byte(body))
	if err != nil {
		return nil, err.Msg
	}
	return answer, ""
}

// promise returns a Promise settled by settle: resolved with its value,
// or rejected with an Error when it returns a message.
func promise(settle func() (js.Value, string)) js.Value {
	var executor js.Func
	executor = js.FuncOf(func(_ js.Value, args []js.Value) any {
		defer executor.Release()
		resolve, reject := args[0], args[1]
		v, msg := settle()
		if msg != "" {
			reject.Invoke(js.Global().Get("Error").New(msg))
			return nil
		}
		resolve.Invoke(v)
		return nil
	})
	return js.Global().Get("Promise").New(executor)
}
