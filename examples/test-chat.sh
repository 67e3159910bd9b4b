#!/usr/bin/env bash
# Process-level test of the TCP chat examples: real server and client processes driven through their consoles.
#
# Builds examples/TcpChatServer and examples/TcpChatClient, starts a server on a free port and two clients,
# each with stdin fed from a FIFO, and checks through their stdout that messages, admin lines, a server
# restart, a client reconnect and a server crash followed by a new server on the same port all behave, and that
# every way of quitting exits with 0. The steps live in chat-test-lib.sh, shared with test-sslchat.sh.
# Every wait is bounded (WAIT_SECONDS, 10 s by default). Prints PASS/FAIL lines and a summary; exits 1
# when a check failed. Set KEEP_LOGS=1 to keep the work directory with every process's output.
CHAT=TCP
SERVER_PROJECT=TcpChatServer
CLIENT_PROJECT=TcpChatClient
# shellcheck source=chat-test-lib.sh
source "$(dirname "${BASH_SOURCE[0]}")/chat-test-lib.sh"

build_examples "$SERVER_PROJECT" "$CLIENT_PROJECT"
chat_start
chat_talk
chat_restarts
chat_quit
finish
