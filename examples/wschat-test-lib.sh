# WebSocket part of the WebSocket chat example process tests (test-wschat.sh, test-wsschat.sh); sourced, never run
# by itself. The chat steps (start, talk, restarts, quit) are chat-test-lib.sh's, which the WebSocket examples pass
# like the TCP and SSL ones; this adds what only they have: the chat page they serve, the upgrade as curl (a client
# nobody here wrote) sees it, and headless Chromium chatting through the page with the console clients.
#
# The sourcing script sets CHAT (WS or WSS), SERVER_PROJECT and CLIENT_PROJECT, as for chat-test-lib.sh. curl trusts
# the examples' CA (tools/certificates/ca.crt) for WSS. The Chromium step needs node, Debian's chromium and the npm
# packages of tests/interop (build/test.sh installs all three); where one is missing it says SKIP and checks nothing.
# shellcheck shell=bash
# shellcheck source=chat-test-lib.sh
source "$(dirname "${BASH_SOURCE[0]}")/chat-test-lib.sh"

SCHEME=http
CURL_TLS=()
if [[ "$CHAT" == WSS ]]; then
    SCHEME=https
    CURL_TLS=(--cacert "$ROOT/tools/certificates/ca.crt")
fi
INTEROP="$ROOT/tests/interop"

if ! command -v curl >/dev/null 2>&1; then
    fail "curl is installed (apt-get install curl)"
    finish
    exit 1
fi

wschat_page() { # the server prints where its page is and serves it, with its script, over HTTP(S)
    local page="$SCHEME://127.0.0.1:$PORT/chat/index.html" status
    check "server prints the chat page's address" saw server "Chat page: $page"
    status=$(curl -sS --max-time "$WAIT_SECONDS" "${CURL_TLS[@]}" -o "$WORK/page.html" -w '%{http_code}' "$page" 2>"$WORK/page.err")
    check "curl gets the chat page (200)" test "$status" == 200
    check "the page is the chat page" grep -q "<title>NetCoreServer chat</title>" "$WORK/page.html"
    status=$(curl -sS --max-time "$WAIT_SECONDS" "${CURL_TLS[@]}" -o "$WORK/chat.js" -w '%{http_code} %{content_type}' \
        "$SCHEME://127.0.0.1:$PORT/chat/chat.js" 2>>"$WORK/page.err")
    check "curl gets the page's script as JavaScript" test "${status%%;*}" == "200 text/javascript" -o "${status%%;*}" == "200 application/javascript"
    check "the script opens a WebSocket to the server" grep -q "new WebSocket(serverUrl)" "$WORK/chat.js"
}

wschat_upgrade() { # curl asks to upgrade with RFC 6455's sample key and gets RFC 6455's sample accept value
    # curl does not speak WebSocket after the 101: it only prints the answer's head, then waits until --max-time.
    curl -sS --http1.1 --max-time 2 "${CURL_TLS[@]}" -D "$WORK/upgrade.headers" -o /dev/null \
        -H "Connection: Upgrade" -H "Upgrade: websocket" -H "Sec-WebSocket-Version: 13" \
        -H "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==" "$SCHEME://127.0.0.1:$PORT/" 2>/dev/null
    check "the server switches protocols for curl's upgrade request" grep -q "^HTTP/1.1 101" "$WORK/upgrade.headers"
    check "the accept value is the one RFC 6455 gives for its sample key" \
        grep -qi "^Sec-WebSocket-Accept: s3pPLMBiTxaQ9kYGzzhZRbK+xOo=" "$WORK/upgrade.headers"
    # alice, bob, and now curl.
    check "the server counts curl's connection as a chat session" saw server "connected! (upgraded /" 3
}

wschat_browser() { # Chromium loads the page and chats with alice and bob through the server
    local chromium=${CHROMIUM:-/usr/bin/chromium}
    if ! command -v node >/dev/null 2>&1 || [[ ! -x "$chromium" ]] || [[ ! -d "$INTEROP/node_modules/playwright-core" ]]; then
        echo "SKIP: node, $chromium or tests/interop/node_modules is missing (build/test.sh installs them); Chromium is not checked"
        return
    fi
    launch browser node "$INTEROP/chat-browser.js" "$SCHEME://127.0.0.1:$PORT/chat/index.html" \
        --send "hello from chromium $TAG" --expect "hello from alice to the page $TAG" --expect "hello from chromium $TAG" --timeout 30
    WAIT_SECONDS=30 check "Chromium loads the page and its WebSocket connects" saw browser "page connected"
    check "Chromium sends a message from the page" saw browser "page sent hello from chromium $TAG"
    check "alice receives the page's message" saw alice "hello from chromium $TAG"
    check "bob receives the page's message" saw bob "hello from chromium $TAG"
    type_in alice "hello from alice to the page $TAG"
    check "the page shows alice's message" saw browser "page saw hello from alice to the page $TAG"
    check "the page shows its own message, relayed back by the server" saw browser "page saw hello from chromium $TAG"
    check "the page showed the welcome first" saw browser "page messages [\"Welcome to the $CHAT chat!"
    WAIT_SECONDS=30 check "the Chromium driver exits with 0" exits_with browser 0
}
