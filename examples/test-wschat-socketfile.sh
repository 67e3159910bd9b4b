#!/usr/bin/env bash
# Process-level test of the WebSocket chat examples on a Unix socket file: the server given a path (its argument holds
# '/') serves the chat there, and the client given the same path chats through it (the chat steps of chat-test-lib.sh
# with CHAT_ENDPOINT=path); curl --unix-socket gets the page and its upgrade answered with RFC 6455's accept value.
# Needs curl (build/test.sh installs it). Every wait is bounded. Set KEEP_LOGS=1 to keep the work directory.
CHAT=WS
CHAT_ENDPOINT=path
SERVER_PROJECT=WsChatServer
CLIENT_PROJECT=WsChatClient
# shellcheck source=chat-test-lib.sh
source "$(dirname "${BASH_SOURCE[0]}")/chat-test-lib.sh"

wschat_socket_page() { # curl through the socket file: the chat page, then an upgrade with RFC 6455's sample key
    local status
    status=$(curl -sS --max-time "$WAIT_SECONDS" --unix-socket "$ENDPOINT" -o "$WORK/page.html" -w '%{http_code}' \
        "http://localhost/chat/index.html" 2>"$WORK/page.err")
    check "curl --unix-socket gets the chat page (200)" test "$status" == 200
    check "the page is the chat page" grep -q "<title>NetCoreServer chat</title>" "$WORK/page.html"
    curl -sS --http1.1 --max-time 2 --unix-socket "$ENDPOINT" -D "$WORK/upgrade.headers" -o /dev/null \
        -H "Connection: Upgrade" -H "Upgrade: websocket" -H "Sec-WebSocket-Version: 13" \
        -H "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==" "http://localhost/" 2>/dev/null
    check "the server switches protocols for curl's upgrade through the socket file" grep -q "^HTTP/1.1 101" "$WORK/upgrade.headers"
    check "the accept value is the one RFC 6455 gives for its sample key" \
        grep -qi "^Sec-WebSocket-Accept: s3pPLMBiTxaQ9kYGzzhZRbK+xOo=" "$WORK/upgrade.headers"
}

if ! command -v curl >/dev/null 2>&1; then
    fail "curl is installed (apt-get install curl)"
    finish
    exit 1
fi
build_examples "$SERVER_PROJECT" "$CLIENT_PROJECT"
chat_start
chat_talk
wschat_socket_page
chat_restarts
chat_quit
finish
