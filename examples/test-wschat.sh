#!/usr/bin/env bash
# Process-level test of the WebSocket chat examples: real server and client processes driven through their consoles.
#
# Builds examples/WsChatServer and examples/WsChatClient and runs the chat steps of test-chat.sh (chat-test-lib.sh)
# over WebSocket: messages and admin lines, a server restart, a client reconnect, a server crash followed by a new
# server on the same port, every way of quitting. Between them it checks what only the WebSocket examples do
# (wschat-test-lib.sh): the chat page and its script served over HTTP, curl's upgrade request answered with RFC 6455's
# accept value, and headless Chromium (if installed) loading the page and chatting with the console clients.
# Needs curl (and, for the Chromium step, node, chromium and tests/interop's npm packages; build/test.sh installs
# them). Every wait is bounded. Prints PASS/FAIL lines and a summary; exits 1 when a check failed. Set KEEP_LOGS=1 to
# keep the work directory with every process's output.
CHAT=WS
SERVER_PROJECT=WsChatServer
CLIENT_PROJECT=WsChatClient
# shellcheck source=wschat-test-lib.sh
source "$(dirname "${BASH_SOURCE[0]}")/wschat-test-lib.sh"

build_examples "$SERVER_PROJECT" "$CLIENT_PROJECT"
chat_start
chat_talk
wschat_page
wschat_upgrade
wschat_browser
chat_restarts
chat_quit
finish
