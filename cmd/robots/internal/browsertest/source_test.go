package browsertest

import (
	"context"
	"fmt"
	"testing"

	"github.com/chromedp/cdproto/input"
	"github.com/chromedp/chromedp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// editCommand presses a key that runs the browser's editing command
// name ("SelectAll", "Copy", "Paste") in the focused field, as a shortcut
// would.
func (p *page) editCommand(name string) {
	p.t.Helper()
	ctx, cancel := context.WithTimeout(p.ctx, waitTimeout)
	defer cancel()
	for _, typ := range []input.DispatchKeyEventType{input.DispatchKeyEventTypeRawKeyDown, input.DispatchKeyEventTypeKeyUp} {
		params := input.DispatchKeyEventParams{Type: typ}
		if typ != input.DispatchKeyEventTypeKeyUp {
			params.Commands = []string{name}
		}
		_, err := chromedp.Call(ctx, input.DispatchKeyEvent, params)
		require.NoError(p.t, err, name)
	}
}

// paste puts text on the clipboard (copied from a field made for it) and
// pastes it into the field sel, over the selection select leaves: a real
// paste, the browser's own, not a value set by a script.
func (p *page) paste(sel, text, selectJS string) {
	p.t.Helper()
	p.do(chromedp.Evaluate[chromedp.Void](`(() => {
		const c = document.createElement('textarea');
		c.id = 'clipboard-source';
		c.value = ` + jsString(text) + `;
		document.body.appendChild(c);
		c.focus();
		c.select();
	})()`))
	p.editCommand("Copy")
	p.do(chromedp.Evaluate[chromedp.Void](`document.querySelector('#clipboard-source').remove()`),
		chromedp.Focus(chromedp.CSS(sel)),
		chromedp.Evaluate[chromedp.Void](`(e => { `+selectJS+` })(document.querySelector(`+jsString(sel)+`))`))
	p.editCommand("Paste")
	require.Equal(p.t, text, eval[string](p, `window.pasted`), "the browser pasted")
}

// recordPastes keeps in window.pasted the text of the last paste into a
// field of the page.
const recordPastes = `document.addEventListener('paste', (ev) => { window.pasted = ev.clipboardData.getData('text/plain'); }, true)`

// TestSourceLineTellsPastedFromEdited checks the line above the editor
// as the text changes: an edit of the example or of a fetched file is
// "edited here"; a paste over the whole text, a text emptied and typed
// anew, and a paste that leaves none of the file's lines are the user's
// rules, "pasted or typed here", and no longer a site's.
func TestSourceLineTellsPastedFromEdited(t *testing.T) {
	const mine = "User-agent: Bingbot\nDisallow: /private/\n"
	const pastedLine = "Rules pasted or typed here."
	state := func(p *page) string { return eval[string](p, `document.querySelector('#source-state').dataset.state`) }
	all := `e.setSelectionRange(0, e.value.length);`

	p := openPage(t, 1280, 900, "--allow-private")
	p.do(chromedp.Evaluate[chromedp.Void](recordPastes))

	// An edit keeps the example's name.
	p.do(chromedp.SendKeys(chromedp.CSS("#robots"), "# mine\n"))
	p.waitFor(`document.querySelector('#source-state').dataset.state === 'edited'`)
	assert.Equal(t, "Rules from the example file, edited here. They are no site\u2019s rules.", p.text("#source-state"))

	// A whole new file pasted over it is not the example any more.
	p.paste("#robots", mine, all)
	require.Equal(t, mine, eval[string](p, `document.querySelector('#robots').value`))
	assert.Equal(t, "text", state(p))
	assert.Equal(t, pastedLine, p.text("#source-state"))
	// Edited, it stays the user's.
	p.do(chromedp.SendKeys(chromedp.CSS("#robots"), "Allow: /private/ok\n"))
	assert.Equal(t, pastedLine, p.text("#source-state"))

	// The example, emptied and typed anew, even with lines of its own.
	p.do(chromedp.Click(chromedp.CSS("#example-button")))
	p.waitFor(`document.querySelector('#source-state').dataset.state === 'example'`)
	p.do(chromedp.Focus(chromedp.CSS("#robots")))
	p.editCommand("SelectAll")
	p.editCommand("DeleteBackward")
	require.Equal(t, "", eval[string](p, `document.querySelector('#robots').value`))
	p.do(chromedp.SendKeys(chromedp.CSS("#robots"), "User-agent: *\nAllow: /\n"))
	assert.Equal(t, "text", state(p))
	assert.Equal(t, pastedLine, p.text("#source-state"))

	// A paste over all but the last newline leaves none of the example's
	// lines: not the example either.
	p.do(chromedp.Click(chromedp.CSS("#example-button")))
	p.waitFor(`document.querySelector('#source-state').dataset.state === 'example'`)
	p.paste("#robots", mine, `e.setSelectionRange(0, e.value.length - 1);`)
	require.Equal(t, mine+"\n", eval[string](p, `document.querySelector('#robots').value`))
	assert.Equal(t, pastedLine, p.text("#source-state"))

	// A fetched file: edited, it is the site's file edited; replaced by a
	// paste, it is no longer the site's, nor are URLs of other hosts
	// marked as not governed by it.
	origin := robotsOrigin(t, "User-agent: *\nDisallow: /cart\n")
	p.typeInto("#urls", origin.URL+"/cart/1\nhttps://other.example/cart/1")
	p.typeInto("#load-url", origin.URL+"/")
	p.do(chromedp.KeyEvent("\r"))
	p.waitFor(`document.querySelector('#source-state').dataset.state === 'fetched'`)
	p.waitFor(`document.querySelectorAll('#results .foreign-note').length === 1`)
	p.do(chromedp.SendKeys(chromedp.CSS("#robots"), "Allow: /cart/1\n"))
	p.waitFor(`document.querySelector('#source-state').dataset.state === 'edited'`)
	assert.Equal(t, fmt.Sprintf("Rules from %s/robots.txt, fetched (status 200), edited here. The verdicts are for the text in the editor, not for the site\u2019s file.", origin.URL), p.text("#source-state"))
	p.paste("#robots", mine, all)
	assert.Equal(t, "text", state(p))
	assert.Equal(t, pastedLine, p.text("#source-state"))
	assert.True(t, eval[bool](p, `document.querySelector('#load-status .fetch-info').classList.contains('stale')`), "the fetch's details fade")
	p.waitVerdicts(origin.URL+"/cart/1", "https://other.example/cart/1")
	p.waitFor(`document.querySelectorAll('#results .foreign-note').length === 0`)
	assert.Empty(t, p.errors())
}
