#!/usr/bin/env bash
# Process-level test of the SSL chat examples: real server and client processes driven through their consoles.
#
# Runs the same steps as test-chat.sh (chat-test-lib.sh) over TLS, with the certificates of tools/certificates
# (created when missing), and adds TLS checks: both clients present their certificate; openssl s_client, a TLS
# peer nobody here wrote, validates the server against ca.crt, receives the welcome line and chats with the
# clients; a client certificate from another authority is rejected by the server; the client rejects a server
# certificate from another authority and one not issued for the address it connected to; the certificate
# location and password can be overridden by environment variables and arguments.
# Needs openssl (build/test.sh installs it). Every wait is bounded (WAIT_SECONDS, 10 s by default). Prints
# PASS/FAIL lines and a summary; exits 1 when a check failed. Set KEEP_LOGS=1 to keep every process's output.
CHAT=SSL
SERVER_PROJECT=SslChatServer
CLIENT_PROJECT=SslChatClient
# shellcheck source=chat-test-lib.sh
source "$(dirname "${BASH_SOURCE[0]}")/chat-test-lib.sh"

CERTIFICATES="$ROOT/tools/certificates"
# A second authority with its own server and client certificates, created by the examples themselves.
OTHER_CERTIFICATES="$WORK/other-certificates"
OTHER_PASSWORD="other-$TAG"
CLIENT_SUBJECT="CN=NetCoreServer Test Client"

if ! command -v openssl >/dev/null 2>&1; then
    fail "openssl is installed (apt-get install openssl)"
    finish
    exit
fi

build_examples "$SERVER_PROJECT" "$CLIENT_PROJECT"
chat_start
chat_talk

# --- mutual TLS between the examples -------------------------------------------------------------------------------
check "server sees alice's and bob's client certificates" saw server "handshaked! (client certificate $CLIENT_SUBJECT)" 2
check "alice validated the server certificate" saw alice "handshaked a new session with Id"

# --- openssl s_client: validates the server against ca.crt and chats without a client certificate --------------------
launch peer openssl s_client -connect "127.0.0.1:$PORT" -CAfile "$CERTIFICATES/ca.crt" -verify_return_error -quiet
check "s_client receives the welcome line" saw peer "$WELCOME"
check "server handshakes s_client, which has no client certificate" saw server "handshaked! (no client certificate)"
type_in peer "hello from openssl $TAG"
check "alice receives the line typed into s_client" saw alice "hello from openssl $TAG"
check "bob receives the line typed into s_client" saw bob "hello from openssl $TAG"
type_in alice "hello s_client $TAG"
check "s_client receives alice's message" saw peer "hello s_client $TAG"
type_in server "admin to s_client $TAG"
check "s_client receives the admin line" saw peer "(admin) admin to s_client $TAG"
kill_process peer TERM

# --- another authority: its server is rejected by our clients, its client certificate by our server ------------------
# The environment variables point this server elsewhere; the examples create the missing files there.
launch rogue env "NETCORESERVER_CERTIFICATES=$OTHER_CERTIFICATES" "NETCORESERVER_CERTIFICATE_PASSWORD=$OTHER_PASSWORD" \
    dotnet "$SERVER_DLL" 0
WAIT_SECONDS=60 check "a server creates certificates of another authority where the environment says" \
    saw rogue "SSL chat server listening on 127.0.0.1:"
ROGUE_PORT=$(port_of rogue)
start_client mallory "$ROGUE_PORT"
check "a client rejects a server certificate from another authority" saw mallory "rejected the server certificate"
check "the rejection names the problem" saw mallory "does not chain up to 'CN=NetCoreServer Test CA'"
# The client retries every second; the outage is reported once, and no welcome gets through.
sleep 2.5
check "the rejection is reported once per outage, not once per attempt" saw_exactly mallory "rejected the server certificate" 1
check "the rejected server's welcome never reaches the client" saw_exactly mallory "$WELCOME" 0

start_client trudy "$ROGUE_PORT" --certificates "$OTHER_CERTIFICATES" --password "$OTHER_PASSWORD"
check "a client given that authority by --certificates and --password is welcomed" saw trudy "$WELCOME"
check "that server sees the client certificate of its own authority" saw rogue "handshaked! (client certificate $CLIENT_SUBJECT)"

if [[ -f "$OTHER_CERTIFICATES/client.pem" ]]; then
    launch intruder openssl s_client -connect "127.0.0.1:$PORT" -CAfile "$CERTIFICATES/ca.crt" -verify_return_error -quiet \
        -cert "$OTHER_CERTIFICATES/client.pem"
    check "server rejects an s_client certificate from another authority" saw server "Chat SSL server rejected a client certificate"
    check "server reports the failed handshake" saw server "caught an error with code AccessDenied"
    check "the rejected s_client gets no welcome" saw_exactly intruder "$WELCOME" 0
    kill_process intruder TERM
else
    fail "generate.sh wrote $OTHER_CERTIFICATES/client.pem for s_client"
fi

# --- a certificate that is not for the address connected to -----------------------------------------------------------
# The whole of 127.0.0.0/8 is loopback on Linux, but server.crt names only 127.0.0.1 (and localhost, ::1).
start_server elsewhere 0 127.0.0.2
if saw elsewhere "SSL chat server listening on 127.0.0.2:"; then
    launch oscar dotnet "$CLIENT_DLL" 127.0.0.2 "$(port_of elsewhere)"
    check "a client rejects a server certificate not issued for the address it connected to" \
        saw oscar "RemoteCertificateNameMismatch"
    check "a client rejecting the name gets no welcome" saw_exactly oscar "$WELCOME" 0
else
    echo "SKIP: 127.0.0.2 is not a local address here; the name mismatch is not checked"
fi
for name in mallory trudy oscar rogue elsewhere; do
    [[ -n "${PID[$name]:-}" ]] && kill_process "$name" TERM
done

chat_restarts
check "clients present their certificate again after reconnecting" \
    saw server2 "handshaked! (client certificate $CLIENT_SUBJECT)" 2
chat_quit
finish
