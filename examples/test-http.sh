#!/usr/bin/env bash
# Process-level test of the HTTP examples: a real server process driven by curl and by the example client's console.
#
# Builds examples/HttpServer and examples/HttpClient, starts the server on a free port and checks, with curl (a
# client nobody here wrote): the cache API (GET, POST, PUT, DELETE, HEAD; the key list as JSON; 404, 400, 405 and
# 413 answers; OPTIONS and TRACE), the static page from www (its Content-Type, a 304 for its ETag, a redirect from /);
# then the client through a FIFO (a POST then a GET show the value, which curl sees too, and the other methods); a
# restart ('!') that keeps the cache and the page; a client timeout while the server is stopped (SIGSTOP); and that
# every way of quitting exits with 0, a refused connect is reported, a port in use and a bad command line are
# refused; then a server on a Unix socket file, driven by curl --unix-socket and by the client given the path, which
# removes the file when it quits. The steps live in http-test-lib.sh, shared with test-https.sh. Every wait is bounded (WAIT_SECONDS, 10 s
# by default). Prints PASS/FAIL lines and a summary; exits 1 when a check failed. Set KEEP_LOGS=1 to keep every
# process's output.
HTTP=HTTP
SERVER_PROJECT=HttpServer
CLIENT_PROJECT=HttpClient
# shellcheck source=http-test-lib.sh
source "$(dirname "${BASH_SOURCE[0]}")/http-test-lib.sh"

sock_answers() { # sock_answers NAME STATUS [CURL OPTION...] PATH: as answers, through the socket file SOCKET
    local name=$1 expected=$2 path=${*: -1} result
    local options=("${@:3:$#-3}")
    result=$(curl -sS --max-time "$WAIT_SECONDS" --unix-socket "$SOCKET" -D "$WORK/$name.headers" -o "$WORK/$name.body" \
        -w '%{http_code} %{size_download}' "${options[@]}" "http://localhost$path" 2>"$WORK/$name.err")
    CURL_EXIT=$?
    read -r STATUS SIZE <<<"$result"
    [[ "$STATUS" == "$expected" ]] \
        || { echo "  curl got status '$STATUS' (exit $CURL_EXIT $(head -c 300 "$WORK/$name.err")), expected $expected"; return 1; }
}

http_socket_file() { # the server on a socket file (its first argument holds '/'), then the client given the path
    local value="over the socket file $TAG"
    SOCKET="$WORK/http.sock"
    launch sockserver dotnet "$SERVER_DLL" "$SOCKET"
    check "a server given a path says it listens on the socket file" saw sockserver "$HTTP server listening on $SOCKET"
    check "the socket file exists" test -S "$SOCKET"
    check "curl --unix-socket gets the static page: 200" sock_answers sockpage 200 /index.html
    check "the page is the file in www, whole" test "$SIZE" == "$(wc -c <"$ROOT/examples/HttpServer/www/index.html")"
    check "curl --unix-socket POSTs a value: 201" sock_answers sockpost 201 --data-binary "$value" "/api/cache?key=sock"
    check "curl --unix-socket GETs it back: 200" sock_answers sockget 200 "/api/cache?key=sock"
    check "the value is the one posted" body_is sockget "$value"

    launch sockclient dotnet "$CLIENT_DLL" --timeout "$CLIENT_TIMEOUT" "$SOCKET"
    check "the client given the path says whom it asks" saw sockclient "$HTTP client of $SOCKET"
    type_in sockclient "GET /api/cache?key=sock"
    check "the client's GET through the socket file shows the value" saw sockclient "$value"
    type_in sockclient "TRACE /sock/$TAG"
    check "the client sends Host: localhost" saw sockclient "Host: localhost"
    type_in sockclient "quit"
    check "the client quits with exit code 0" exits_with sockclient 0

    type_in sockserver ""
    check "the socket file's server quits with exit code 0 on an empty line" exits_with sockserver 0
    check "quitting removed the socket file" test ! -e "$SOCKET"
}

build_examples "$SERVER_PROJECT" "$CLIENT_PROJECT"
http_start
http_api
http_static
http_client
http_restart
http_timeout
http_quit
http_socket_file
finish
