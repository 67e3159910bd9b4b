#!/usr/bin/env bash
# Process-level test of the HTTPS examples: a real server process driven by curl and by the example client's console.
#
# Runs the same steps as test-http.sh (http-test-lib.sh) over TLS, with the certificates of tools/certificates
# (created when missing) and curl trusting their ca.crt, and adds TLS checks: curl without that CA refuses the
# server's certificate, and the server reports the failed handshake; the name localhost (which the certificate also
# names) works; the example client given another authority (--certificates, --password) rejects the server's
# certificate and says why. Needs curl and openssl (build/test.sh installs them). Every wait is bounded
# (WAIT_SECONDS, 10 s by default). Prints PASS/FAIL lines and a summary; exits 1 when a check failed. Set KEEP_LOGS=1
# to keep every process's output.
HTTP=HTTPS
SERVER_PROJECT=HttpsServer
CLIENT_PROJECT=HttpsClient
# shellcheck source=http-test-lib.sh
source "$(dirname "${BASH_SOURCE[0]}")/http-test-lib.sh"

OTHER_CERTIFICATES="$WORK/other-certificates"
OTHER_PASSWORD="other-$TAG"

build_examples "$SERVER_PROJECT" "$CLIENT_PROJECT"
http_start

# --- the certificate ---------------------------------------------------------------------------------------------
curl -sS --max-time "$WAIT_SECONDS" -o /dev/null "https://127.0.0.1:$PORT/index.html" 2>"$WORK/untrusted.err"
check "curl without the examples' CA refuses the server certificate (exit 60)" test $? == 60
check "the server reports the handshake curl broke off" saw server "HTTPS session caught an error"
check "curl reaches the server as localhost, a name the certificate holds" \
    test "$(curl -sS --max-time "$WAIT_SECONDS" --cacert "$CA" -o /dev/null -w '%{http_code}' "https://localhost:$PORT/index.html")" == 200

http_api
http_static
http_client

# --- another authority: the client rejects the server's certificate -----------------------------------------------
launch mallory dotnet "$CLIENT_DLL" --certificates "$OTHER_CERTIFICATES" --password "$OTHER_PASSWORD" \
    --timeout "$CLIENT_TIMEOUT" 127.0.0.1 "$PORT"
WAIT_SECONDS=60 check "a client with certificates of another authority starts (creating them)" saw mallory "$HTTP client of 127.0.0.1:$PORT"
type_in mallory "GET /api/cache?key=a"
check "that client rejects the server certificate" saw mallory "HTTPS client rejected the server certificate"
check "the rejection names the problem" saw mallory "does not chain up to"
check "the request fails with a connection error, not a response" saw mallory "Error (connection): Could not connect to 127.0.0.1:$PORT"
check "no value reached that client" saw_exactly mallory "new a $TAG" 0
type_in mallory "quit"
check "that client quits with exit code 0" exits_with mallory 0

http_restart
http_timeout
http_quit
finish
