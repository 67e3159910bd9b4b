# HTTP part of the HTTP example process tests (test-http.sh, test-https.sh); sourced, never run by itself. The
# generic machinery (processes, checks, tally) is in process-test-lib.sh.
#
# The sourcing script sets HTTP (the protocol name the examples print, also the URL scheme: HTTP or HTTPS),
# SERVER_PROJECT and CLIENT_PROJECT (folders under examples/); then it calls build_examples "$SERVER_PROJECT"
# "$CLIENT_PROJECT" and the http_* steps, adds its own checks between them, and ends with finish. Servers take
# [port] and listen on 127.0.0.1; clients take [--timeout SECONDS] 127.0.0.1 [port]. curl, a client nobody here
# wrote, trusts the examples' CA (tools/certificates/ca.crt) for HTTPS. Set KEEP_LOGS=1 to keep the work directory.
# shellcheck shell=bash
# shellcheck source=process-test-lib.sh
source "$(dirname "${BASH_SOURCE[0]}")/process-test-lib.sh"

SERVER_DLL=$(dll "$SERVER_PROJECT")
CLIENT_DLL=$(dll "$CLIENT_PROJECT")
SCHEME=${HTTP,,}
CA="$ROOT/tools/certificates/ca.crt"
CURL_TLS=()
[[ "$HTTP" == HTTPS ]] && CURL_TLS=(--cacert "$CA")
ALLOW="Allow: HEAD,GET,POST,PUT,DELETE,OPTIONS,TRACE"
# Short, so the timeout step does not wait long; far above what a request on loopback takes.
CLIENT_TIMEOUT=3

if ! command -v curl >/dev/null 2>&1; then
    fail "curl is installed (apt-get install curl)"
    finish
    exit 1
fi

port_of() { # port_of NAME: the port from the server's "listening on" line
    sed -n "s/^$HTTP server listening on 127\.0\.0\.1:\([0-9][0-9]*\)\$/\1/p" "${OUT[$1]}" | head -n 1
}

fetch() { # fetch NAME [CURL OPTION...] PATH: one curl request to the server at PORT; sets STATUS and SIZE
    local name=$1 path=${*: -1} result
    local options=("${@:2:$#-2}")
    result=$(curl -sS --max-time "$WAIT_SECONDS" "${CURL_TLS[@]}" -D "$WORK/$name.headers" -o "$WORK/$name.body" \
        -w '%{http_code} %{size_download}' "${options[@]}" "$SCHEME://127.0.0.1:$PORT$path" 2>"$WORK/$name.err")
    CURL_EXIT=$?
    read -r STATUS SIZE <<<"$result"
}

answers() { # answers NAME STATUS [CURL OPTION...] PATH: curl's request gets STATUS
    local name=$1 expected=$2
    fetch "$name" "${@:3}"
    [[ "$STATUS" == "$expected" ]] \
        || { echo "  curl got status '$STATUS' (exit $CURL_EXIT $(head -c 300 "$WORK/$name.err")), expected $expected"; return 1; }
}

header_of() { # header_of NAME FIELD: the value of FIELD in NAME's response head (the last one when repeated)
    tr -d '\r' <"$WORK/$1.headers" | sed -n "s/^$2: *//Ip" | tail -n 1
}

header_is() { # header_is NAME FIELD VALUE
    local actual
    actual=$(header_of "$1" "$2")
    [[ "$actual" == "$3" ]] || { echo "  $2 is '$actual', expected '$3'"; return 1; }
}

body_is() { # body_is NAME TEXT: the body is exactly TEXT
    local actual
    actual=$(cat "$WORK/$1.body")
    [[ "$actual" == "$2" && "$SIZE" == "$(printf '%s' "$2" | wc -c)" ]] \
        || { echo "  the body is '$(head -c 300 "$WORK/$1.body")' ($SIZE bytes), expected '$2'"; return 1; }
}

body_has() { # body_has NAME TEXT
    grep -qF -- "$2" "$WORK/$1.body" || { echo "  the body does not hold '$2'"; return 1; }
}

no_body() { # no_body NAME: nothing came after the head
    [[ "$SIZE" == 0 ]] || { echo "  $SIZE body bytes came, expected none"; return 1; }
}

all_threads_stopped() { # all_threads_stopped PID: waits until every thread of PID is stopped (state T)
    local i states
    for ((i = 0; i < WAIT_SECONDS * 10; i++)); do
        # kill -STOP returns before the stop: each thread stops on its next way through the kernel, and one that is
        # running meanwhile (on another core) may still answer a request.
        states=$(cat /proc/"$1"/task/*/stat 2>/dev/null | sed 's/^.*) \(.\).*$/\1/' | sort -u | tr -d '\n')
        [[ "$states" == T ]] && return 0
        sleep 0.1
    done
    echo "  the threads of $1 are in states '$states', expected all T (stopped)"
    return 1
}

start_client() { # start_client NAME PORT: a client of 127.0.0.1:PORT with a short timeout
    launch "$1" dotnet "$CLIENT_DLL" --timeout "$CLIENT_TIMEOUT" 127.0.0.1 "$2"
}

# --- steps ------------------------------------------------------------------------------------------------------

http_start() { # a server on a free port (PORT)
    launch server dotnet "$SERVER_DLL" 0
    # The first TLS run may create the development certificates first.
    WAIT_SECONDS=60 check "server prints the port it listens on" saw server "$HTTP server listening on 127.0.0.1:"
    PORT=$(port_of server)
    if ! [[ "$PORT" =~ ^[0-9]+$ && "$PORT" -gt 0 ]]; then
        fail "server reported a real port (got '$PORT')"
        finish
        exit 1
    fi
    echo "      server listens on port $PORT"
    check "server names its static page" saw server "open $SCHEME://127.0.0.1:$PORT/index.html"

    launch squatter dotnet "$SERVER_DLL" "$PORT"
    check "a second server on the port in use says it is taken" saw squatter "AddressAlreadyInUse"
    check "the second server exits with code 1" exits_with squatter 1
}

http_api() { # the cache API through curl
    local key="grüße ✓" encoded="gr%C3%BC%C3%9Fe%20%E2%9C%93" big="$WORK/big.txt"
    check "GET without a key lists no keys yet" answers list 200 /api/cache
    check "the list is JSON" header_is list Content-Type "application/json; charset=UTF-8"
    check "the list is an empty array" body_is list "[]"

    check "POST stores a new key: 201" answers post 201 --data-binary "value a $TAG" "/api/cache?key=a"
    check "GET returns the stored value: 200" answers get 200 "/api/cache?key=a"
    check "the value comes back as it was posted" body_is get "value a $TAG"
    check "the value is plain text" header_is get Content-Type "text/plain; charset=UTF-8"
    check "PUT replaces the value: 200" answers put 200 -X PUT --data-binary "new a $TAG" "/api/cache?key=a"
    check "GET returns the new value" answers get 200 "/api/cache?key=a"
    check "the new value comes back" body_is get "new a $TAG"
    check "PUT stores a new key: 201" answers put 201 -X PUT --data-binary "value b" "/api/cache?key=b"
    check "a UTF-8 key and value are stored" answers put 201 -X PUT --data-binary "✓ $key" "/api/cache?key=$encoded"
    check "the UTF-8 value comes back byte for byte" answers get 200 "/api/cache?key=$encoded"
    check "the UTF-8 value is the one sent" body_is get "✓ $key"
    check "GET without a key lists the keys" answers list 200 /api/cache
    check "the list holds every key, sorted" body_is list '["a","b","gr\u00FC\u00DFe \u2713"]'

    check "HEAD answers 200" answers head 200 --head "/api/cache?key=a"
    check "HEAD gives the value's length" header_is head Content-Length "$(printf '%s' "new a $TAG" | wc -c)"
    check "HEAD gets no body" no_body head

    check "DELETE answers 200" answers delete 200 -X DELETE "/api/cache?key=b"
    check "DELETE returns the removed value" body_is delete "value b"
    check "GET of the deleted key answers 404" answers get 404 "/api/cache?key=b"
    check "DELETE of a missing key answers 404" answers delete 404 -X DELETE "/api/cache?key=b"
    check "GET of a key never stored answers 404" answers get 404 "/api/cache?key=never-$TAG"
    check "POST without a key answers 400" answers post 400 --data-binary "lost" /api/cache
    check "GET with an empty key answers 400" answers get 400 "/api/cache?key="
    check "PATCH answers 405" answers patch 405 -X PATCH --data-binary "x" "/api/cache?key=a"
    check "the 405 says what is allowed" header_is patch Allow "${ALLOW#Allow: }"
    head -c $((65 * 1024)) /dev/zero | tr '\0' x >"$big"
    check "a value over 64 KiB answers 413" answers big 413 --data-binary "@$big" "/api/cache?key=big"
    check "GET of the rejected key answers 404" answers get 404 "/api/cache?key=big"

    check "OPTIONS answers 200" answers options 200 -X OPTIONS /api/cache
    check "OPTIONS lists the methods" header_is options Allow "${ALLOW#Allow: }"
    check "TRACE answers 200" answers trace 200 -X TRACE -H "X-Trace: $TAG" "/trace/$TAG"
    check "TRACE answers with message/http" header_is trace Content-Type "message/http"
    check "TRACE echoes the request line" body_has trace "TRACE /trace/$TAG HTTP/1.1"
    check "TRACE echoes the request's fields" body_has trace "X-Trace: $TAG"
    check "an unknown path answers 404" answers nothing 404 "/nothing/$TAG"
    check "the server logs each request with its status" saw server "$HTTP PUT /api/cache?key=a -> 200"
}

http_static() { # the static page served from www with AddStaticContent, and its validators
    local etag length
    length=$(wc -c <"$ROOT/examples/HttpServer/www/index.html")
    check "GET /index.html answers 200" answers page 200 /index.html
    check "the page is HTML" header_is page Content-Type "text/html; charset=utf-8"
    check "the page is the file in www, whole" test "$SIZE" == "$length"
    check "the page uses fetch() against the API" body_has page "fetch(url"
    check "the page names the API" body_has page "/api/cache"
    etag=$(header_of page ETag)
    check "the page has an ETag" test -n "$etag"
    check "a request with that ETag in If-None-Match answers 304" answers cached 304 -H "If-None-Match: $etag" /index.html
    check "the 304 has no body" no_body cached
    check "the 304 repeats the ETag" header_is cached ETag "$etag"
    check "another ETag gets the page again" answers cached 200 -H 'If-None-Match: "stale"' /index.html
    check "HEAD /index.html answers 200 without a body" answers pagehead 200 --head /index.html
    check "HEAD gives the page's length" header_is pagehead Content-Length "$length"
    check "HEAD has no body" no_body pagehead
    check "/ redirects: 302" answers root 302 /
    check "/ redirects to /index.html" header_is root Location /index.html
    check "curl following the redirect gets the page" answers followed 200 -L /
    check "a missing file answers 404" answers missing 404 "/missing-$TAG.html"
    check "a path leaving the served directory answers 400" answers escape 400 --path-as-is /../../NetCoreServer.sln
}

http_client() { # the example client through its console, against the server and curl
    local value="hello from the client $TAG" changed="changed by curl $TAG" url="/api/cache?key=fifo-$TAG"
    start_client alice "$PORT"
    check "alice says whom she asks" saw alice "$HTTP client of 127.0.0.1:$PORT"
    type_in alice "POST $url $value"
    check "alice's POST answers 201 Created" saw alice "HTTP/1.1 201 Created"
    type_in alice "GET $url"
    check "alice's GET shows the value she posted" saw alice "$value"
    check "alice prints the response's headers" saw alice "Content-Type: text/plain; charset=UTF-8"
    check "curl sees the value alice posted" answers get 200 "$url"
    check "curl gets alice's value exactly" body_is get "$value"
    check "the server logged alice's POST" saw server "$HTTP POST $url -> 201"

    check "curl replaces alice's value" answers put 200 -X PUT --data-binary "$changed" "$url"
    type_in alice "GET $url"
    check "alice's GET shows the value curl put" saw alice "$changed"
    type_in alice "HEAD $url"
    check "alice's HEAD shows the length without the body" saw alice "Content-Length: ${#changed}" 2
    check "alice's HEAD printed no body" saw_exactly alice "$changed" 1
    type_in alice "PUT $url put by alice $TAG"
    check "alice's PUT of an existing key answers 200 (after two GETs and a HEAD)" saw alice "HTTP/1.1 200 OK" 4
    type_in alice "DELETE $url"
    check "alice's DELETE shows the removed value" saw alice "put by alice $TAG"
    type_in alice "GET $url"
    check "alice's GET of the deleted key answers 404" saw alice "HTTP/1.1 404 Not Found"
    type_in alice "OPTIONS /api/cache"
    check "alice's OPTIONS shows the allowed methods" saw alice "$ALLOW"
    type_in alice "TRACE /alice/$TAG"
    check "alice's TRACE shows her request echoed" saw alice "TRACE /alice/$TAG HTTP/1.1"
    check "alice sends a Host field" saw alice "Host: 127.0.0.1:$PORT"
    type_in alice "FROB /"
    check "alice explains an unknown method" saw alice "Unknown method 'FROB'"
    type_in alice "GET nowhere"
    check "alice explains a URL without '/'" saw alice "GET needs a URL starting with '/'"
}

http_restart() { # '!' restarts the server; the cache and the page stay, the client reconnects by itself
    type_in alice "POST /api/cache?key=kept-$TAG kept over the restart $TAG"
    check "alice stores a value before the restart" saw alice "HTTP/1.1 201 Created" 2
    type_in server "!"
    check "server says it is restarting" saw server "Server restarting..."
    check "server finishes the restart" saw server "Done!"
    check "curl reaches the restarted server, and the cache kept its values" answers get 200 "/api/cache?key=kept-$TAG"
    check "the value is the one stored before the restart" body_is get "kept over the restart $TAG"
    check "the restarted server still serves the page" answers page 200 /index.html
    type_in alice "GET /api/cache?key=kept-$TAG"
    check "alice connects again by herself and gets the kept value" saw alice "kept over the restart $TAG"
    type_in server "hello"
    check "server explains an unknown command" saw server "Unknown command 'hello'"
}

http_timeout() { # a stopped server: the client's request times out, and works again once the server goes on
    kill -STOP "${PID[server]}"
    check "the server is stopped (SIGSTOP)" all_threads_stopped "${PID[server]}"
    type_in alice "GET /api/cache?key=kept-$TAG"
    # On a timeout HttpClientEx closes the connection at once (its state is unknown), so the error comes on time.
    WAIT_SECONDS=$((CLIENT_TIMEOUT + 3)) check "alice reports a timeout while the server is stopped" saw alice "Error (timeout)"
    kill -CONT "${PID[server]}"
    type_in alice "GET /api/cache?key=a"
    check "alice's next request works once the server goes on" saw alice "new a $TAG"
}

http_quit() { # every way of quitting ends the process with exit code 0; a refused connect says so
    start_client bob "$PORT"
    check "bob starts" saw bob "$HTTP client of 127.0.0.1:$PORT"
    start_client carol "$PORT"
    check "carol starts" saw carol "$HTTP client of 127.0.0.1:$PORT"

    type_in alice "quit"
    check "alice quits with exit code 0 on 'quit'" exits_with alice 0
    check "alice says she is done" saw alice "Done!"
    close_stdin bob
    check "bob quits with exit code 0 at the end of input" exits_with bob 0
    terminate carol
    check "carol quits with exit code 0 on SIGTERM" exits_with carol 0

    type_in server ""
    check "server quits with exit code 0 on an empty line" exits_with server 0
    check "server says it is stopping" saw server "Server stopping..."

    run_bounded refused $'GET /api/cache\nquit\n' dotnet "$CLIENT_DLL" --timeout "$CLIENT_TIMEOUT" 127.0.0.1 "$PORT"
    check "a client of a port nobody listens on exits with 0" exit_code_is refused 0
    check "it reports the refused connection" printed refused "Error (connection refused): Could not connect to 127.0.0.1:$PORT"

    launch server2 dotnet "$SERVER_DLL" 0
    check "a second server starts" saw server2 "$HTTP server listening on 127.0.0.1:"
    terminate server2
    check "server quits with exit code 0 on SIGTERM" exits_with server2 0
    launch server3 dotnet "$SERVER_DLL" 0
    check "a third server starts" saw server3 "$HTTP server listening on 127.0.0.1:"
    close_stdin server3
    check "server quits with exit code 0 at the end of input" exits_with server3 0

    launch badserver dotnet "$SERVER_DLL" not-a-port
    check "the server rejects a bad port with exit code 2" exits_with badserver 2
    check "the server prints its usage" saw badserver "Usage: $SERVER_PROJECT"
    launch badclient dotnet "$CLIENT_DLL" --timeout 0
    check "the client rejects a zero timeout with exit code 2" exits_with badclient 2
    check "the client prints its usage" saw badclient "Usage: $CLIENT_PROJECT"
}
