#!/usr/bin/env bash
# Process-level test of the HTTP examples: a real server process driven by curl and by the example client's console.
#
# Builds examples/HttpServer and examples/HttpClient, starts the server on a free port and checks, with curl (a
# client nobody here wrote): the cache API (GET, POST, PUT, DELETE, HEAD; the key list as JSON; 404, 400, 405 and
# 413 answers; OPTIONS and TRACE), the static page from www (its Content-Type, a 304 for its ETag, a redirect from /);
# then the client through a FIFO (a POST then a GET show the value, which curl sees too, and the other methods); a
# restart ('!') that keeps the cache and the page; a client timeout while the server is stopped (SIGSTOP); and that
# every way of quitting exits with 0, a refused connect is reported, a port in use and a bad command line are
# refused. The steps live in http-test-lib.sh, shared with test-https.sh. Every wait is bounded (WAIT_SECONDS, 10 s
# by default). Prints PASS/FAIL lines and a summary; exits 1 when a check failed. Set KEEP_LOGS=1 to keep every
# process's output.
HTTP=HTTP
SERVER_PROJECT=HttpServer
CLIENT_PROJECT=HttpClient
# shellcheck source=http-test-lib.sh
source "$(dirname "${BASH_SOURCE[0]}")/http-test-lib.sh"

build_examples "$SERVER_PROJECT" "$CLIENT_PROJECT"
http_start
http_api
http_static
http_client
http_restart
http_timeout
http_quit
finish
