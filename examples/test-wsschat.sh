#!/usr/bin/env bash
# Process-level test of the secure WebSocket chat examples: real server and client processes driven through their
# consoles.
#
# Runs the same steps as test-wschat.sh over TLS, with the certificates of tools/certificates (created when missing):
# the chat steps of chat-test-lib.sh, the chat page served over HTTPS to curl trusting the examples' ca.crt, curl's
# upgrade request over TLS, and headless Chromium (if installed; the examples' authority is not one it knows, so it
# ignores certificate errors) chatting with the console clients. Then it checks that a client given another authority
# rejects the server's certificate and gets no welcome. Needs curl and openssl (and, for the Chromium step, node,
# chromium and tests/interop's npm packages; build/test.sh installs them). Every wait is bounded. Prints PASS/FAIL
# lines and a summary; exits 1 when a check failed. Set KEEP_LOGS=1 to keep every process's output.
CHAT=WSS
SERVER_PROJECT=WssChatServer
CLIENT_PROJECT=WssChatClient
# shellcheck source=wschat-test-lib.sh
source "$(dirname "${BASH_SOURCE[0]}")/wschat-test-lib.sh"

build_examples "$SERVER_PROJECT" "$CLIENT_PROJECT"
chat_start
chat_talk
wschat_page
wschat_upgrade
wschat_browser

# --- another authority: its certificates are created by the client itself; the server's is then rejected -------------
launch mallory dotnet "$CLIENT_DLL" --certificates "$WORK/other-certificates" --password "other-$TAG" 127.0.0.1 "$PORT"
WAIT_SECONDS=60 check "a client given another authority rejects the server certificate" \
    saw mallory "Chat WSS client rejected the server certificate"
check "the rejection names the problem" saw mallory "does not chain up to"
check "the rejected server's welcome never reaches that client" saw_exactly mallory "$WELCOME" 0
kill_process mallory TERM

chat_restarts
chat_quit
finish
