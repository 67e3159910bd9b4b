#!/usr/bin/env bash
# Process-level test of the line chat examples (message framing): the chat checks the TCP chat passes, then raw
# peers that split a line across writes, join two lines in one write, and send a line over 4 KiB.
# Every wait is bounded (WAIT_SECONDS, 10 s by default). Prints PASS/FAIL lines and a summary; exits 1 when a check
# failed. Set KEEP_LOGS=1 to keep the work directory with every process's output.
CHAT=Line
SERVER_PROJECT=LineChatServer
CLIENT_PROJECT=LineChatClient
# shellcheck source=chat-test-lib.sh
source "$(dirname "${BASH_SOURCE[0]}")/chat-test-lib.sh"

build_examples "$SERVER_PROJECT" "$CLIENT_PROJECT"
chat_start
chat_talk

# A raw peer (bash's /dev/tcp): half a line, a pause, the rest with a second line joined to it.
exec 7<>"/dev/tcp/127.0.0.1/$PORT"
printf 'split across' >&7
sleep 0.3
printf ' two writes %s\njoined second %s\n' "$TAG" "$TAG" >&7
check "alice receives the split line as one line" saw alice "split across two writes $TAG"
check "bob receives the line joined to it as a line of its own" saw bob "joined second $TAG"
check "the server saw the split line once, whole" saw_exactly server "Incoming: split across two writes $TAG" 1
check "the server never saw half a line" saw_exactly server "Incoming:  two writes $TAG" 0

# A line over 4 KiB closes its sender, and only its sender.
head -c 5000 /dev/zero | tr '\0' 'x' >&7
check "the server closes the sender of a line over 4 KiB" saw server "disconnected (ProtocolError)"
exec 7>&-
type_in bob "still here $TAG"
check "alice still receives bob after that" saw alice "still here $TAG"

chat_restarts
chat_quit
finish
