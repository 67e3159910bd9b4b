#!/usr/bin/env bash
# The project's test command (README, .ci/run): installs the real peers the tests drive, builds, runs the
# NUnit suite, the example process tests and the docs build, and ends with one line "N passed, N failed[, N skipped]".
#   bash build/test.sh          the default leg (CI): everything, the stress scenarios on part of their matrix
#   bash build/test.sh --long   the default leg with the whole stress matrix: by hand, and before a release
#   bash build/test.sh --quick  an incremental build and the core tests that need no peer, no process and no
#                               long wait, about two minutes: while working (docs/guides/testing.md)
set -uo pipefail
cd "$(dirname "$0")/.."
ROOT=$(pwd)
RESULTS="$ROOT/artifacts/test-results"
rm -rf "$RESULTS" && mkdir -p "$RESULTS"

LEG=default
case "${1:-}" in
    --quick) LEG=quick ;;
    --long) LEG=long ;;
    "") ;;
    *) echo "usage: bash build/test.sh [--quick|--long]" >&2; exit 2 ;;
esac
export NETCORESERVER_TEST_LEG=$LEG

# Real peers nobody here wrote: installed by the script, never assumed.
# command -> Debian package
declare -A package=([socat]=socat [curl]=curl [openssl]=openssl [unshare]=util-linux [ip]=iproute2 [strace]=strace
    [wrk]=wrk [h2load]=nghttp2-client [node]=nodejs [npm]=npm [chromium]=chromium [redis-server]=redis-server [python3]=python3
    [prometheus]=prometheus)
missing=()
for tool in "${!package[@]}"; do
    command -v "$tool" >/dev/null 2>&1 || missing+=("${package[$tool]}")
done
if [ "$LEG" != quick ] && ((${#missing[@]})); then
    echo "Installing test peers: ${missing[*]}"
    SUDO=""
    [ "$(id -u)" = 0 ] || SUDO="sudo"
    $SUDO apt-get update -qq >/dev/null && $SUDO env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${missing[@]}" >/dev/null \
        || echo "warning: could not install ${missing[*]}; tests that need them will be skipped"
fi

# The WebSocket peers from npm (the ws package, playwright-core driving the chromium above), at the versions of
# tests/interop/package-lock.json; the interop tests skip when they are missing.
if [ "$LEG" != quick ] && command -v npm >/dev/null 2>&1; then
    (cd tests/interop && npm ci --no-audit --no-fund --loglevel=error >/dev/null) \
        || echo "warning: npm ci in tests/interop failed; the WebSocket interop tests will be skipped"
fi

# The quick leg builds only what its tests need.
target=NetCoreServer.sln
[ "$LEG" = quick ] && target=tests/NetCoreServer.Tests/NetCoreServer.Tests.csproj
if ! dotnet build "$target" -c Release -nologo -clp:ErrorsOnly; then
    echo "build failed"
    echo "0 passed, 1 failed"
    exit 1
fi

# NUnit suites. Each run leaves a TRX (exact counters whatever the console prints) and its exit code; the tally at
# the end reads them, so suites can run side by side.
# run_suite PROJECT NAME [VAR=VALUE ...]: runs one test project (in an environment with the given variables).
run_suite() {
    local project=$1 name=$2
    shift 2
    echo "== $name"
    env "$@" timeout 1800 dotnet test "$project" -c Release --no-build -nologo \
        --logger "trx;LogFileName=$name.trx" --logger "console;verbosity=minimal" --results-directory "$RESULTS" \
        --blame-crash --blame-crash-dump-type mini --blame-hang-timeout 300s --blame-hang-dump-type mini ${FILTER:+--filter "$FILTER"} -- NUnit.DefaultTimeout=120000
    echo $? >"$RESULTS/$name.exit"
}

# check NAME COMMAND...: one pass/fail line for a check that is not an NUnit suite (an example script, the docs).
check() {
    local name=$1
    shift
    echo "== $name"
    if "$@"; then echo "pass $name" >>"$RESULTS/checks"; else echo "fail $name" >>"$RESULTS/checks"; echo "FAILED: $name"; fi
}

passed=0; failed=0; skipped=0
failures=()

# Adds one suite's TRX counters and its failed tests (with the first line of their message) to the tally.
tally_suite() {
    local name=$1 trx="$RESULTS/$1.trx" code
    code=$(cat "$RESULTS/$name.exit" 2>/dev/null || echo 1)
    # A test host that crashed (or a run cut short) leaves a TRX whose counters show no failure: the exit code tells.
    if ((code != 0)) && ! grep -q '<UnitTestResult [^>]*outcome="Failed"' "$trx" 2>/dev/null; then
        failed=$((failed + 1))
        failures+=("$name: the test run did not complete (exit code $code; a crashed test host is reported in its log)")
    fi
    if [ -f "$trx" ]; then
        local counters total p f e t a
        counters=$(grep -o '<Counters [^>]*>' "$trx" | head -1)
        get() { echo "$counters" | grep -o " $1=\"[0-9]*\"" | grep -o '[0-9][0-9]*' || echo 0; }
        total=$(get total); p=$(get passed); f=$(get failed); e=$(get error); t=$(get timeout); a=$(get aborted)
        passed=$((passed + p)); failed=$((failed + f + e + t + a))
        skipped=$((skipped + total - p - f - e - t - a))
        # perl-base is part of every Debian system.
        while IFS= read -r test; do
            [ -n "$test" ] && failures+=("$name: $test")
        done < <(perl -0777 -ne '
            while (/<UnitTestResult [^>]*?testName="([^"]*)"[^>]*?outcome="(Failed|Error|Timeout|Aborted)"(.*?)<\/UnitTestResult>/sg) {
                my ($test, $body) = ($1, $3);
                my ($message) = $body =~ /<Message>\s*([^\n<]{0,300})/;
                $message //= "";
                for ($test, $message) { s/&quot;/"/g; s/&lt;/</g; s/&gt;/>/g; s/&apos;/\x27/g; s/&amp;/&/g; }
                print "$test -- $message\n";
            }' "$trx")
    else
        failed=$((failed + 1))
        failures+=("$name: no test results were written")
    fi
}

# Every suite and check of this run, then the failures again just above the last line, "N passed, N failed[, N
# skipped]"; the exit code says the same.
summarize() {
    local exit name result
    for exit in "$RESULTS"/*.exit; do
        [ -f "$exit" ] && tally_suite "$(basename "$exit" .exit)"
    done
    if [ -f "$RESULTS/checks" ]; then
        while read -r result name; do
            case $result in
                pass) passed=$((passed + 1)) ;;
                skip) skipped=$((skipped + 1)) ;;
                *) failed=$((failed + 1)); failures+=("$name") ;;
            esac
        done <"$RESULTS/checks"
    fi
    for failure in "${failures[@]}"; do echo "FAILED: $failure"; done
    local summary="$passed passed, $failed failed"
    ((skipped > 0)) && summary="$summary, $skipped skipped"
    echo "$summary"
    ((failed == 0))
}

if [ "$LEG" = quick ]; then
    # The core suite without its long real-clock waits, stress, memory and thread-starvation measures, and without
    # the tests of peers and processes (TestLeg.IsQuick skips those wherever they are).
    FILTER="FullyQualifiedName!~.Interop.&FullyQualifiedName!~.Performance.&TestCategory!=Isolated"
    FILTER+="&FullyQualifiedName!~TimeoutTests&FullyQualifiedName!~ClientDisconnectOrderTests"
    run_suite tests/NetCoreServer.Tests/NetCoreServer.Tests.csproj NetCoreServer.Tests.Quick
    summarize
    exit
fi

# The programs tests start (the examples, performance/KestrelServer) are run from what this build made.
export NETCORESERVER_SOLUTION_BUILT=1

# Four lanes side by side, each logging to a file shown whole when all are done: the suite spends most of its time
# waiting (timeouts, peers, child processes), not computing. The fixtures that measure the whole process (category
# Isolated: memory, allocation, thread starvation, stress) run in a test process of their own, one at a time.
core_lane() {
    FILTER="TestCategory!=Isolated" run_suite tests/NetCoreServer.Tests/NetCoreServer.Tests.csproj NetCoreServer.Tests
}
isolated_lane() {
    FILTER="TestCategory=Isolated" run_suite tests/NetCoreServer.Tests/NetCoreServer.Tests.csproj NetCoreServer.Tests.Isolated
}
other_lane() {
    local project name
    for project in tests/*/*.csproj; do
        # Test projects only: a library they share (tests/NetCoreServer.TestSupport) has no tests and writes no TRX.
        grep -q '<IsTestProject>true</IsTestProject>' "$project" || continue
        name=$(basename "$project" .csproj)
        [ "$name" = NetCoreServer.Tests ] && continue
        run_suite "$project" "$name"
    done
    # The UDP suite again with every socket served by a receive thread of its own (OptionReceiveThread).
    run_suite tests/NetCoreServer.Udp.Tests/NetCoreServer.Udp.Tests.csproj NetCoreServer.Udp.Tests.ReceiveThread NETCORESERVER_TEST_UDP_RECEIVE_THREAD=1
}
examples_lane() {
    local script
    # Examples driven as processes, on the binaries the solution build made.
    for script in examples/test-*.sh; do
        [ -f "$script" ] && check "$script" env EXAMPLES_BUILT=1 timeout 300 bash "$script"
    done

    # The API reference and the guides (docs/docfx.json, from the Release build above) into artifacts/docs: one check.
    # docfx is a local tool (.config/dotnet-tools.json); any warning (a broken link, an unresolved reference) fails it.
    echo "== docs (docfx)"
    if ! dotnet tool restore >/dev/null 2>&1; then
        echo "skipped: the docfx tool could not be restored (dotnet tool restore)"
        echo "skip docs" >>"$RESULTS/checks"
    else
        check "docs: docfx build (see artifacts/test-results/docfx.log)" docfx_build
    fi
}
docfx_build() {
    timeout 300 dotnet docfx docs/docfx.json --warningsAsErrors >"$RESULTS/docfx.log" 2>&1 && return
    grep -E 'warning|error' "$RESULTS/docfx.log" | head -20
    return 1
}

started=$SECONDS
for lane in core isolated other examples; do
    (
        lane_start=$SECONDS
        "${lane}_lane"
        echo "== lane $lane: $((SECONDS - lane_start)) s"
    ) >"$RESULTS/lane-$lane.log" 2>&1 &
done
wait
for lane in core isolated other examples; do cat "$RESULTS/lane-$lane.log"; done
echo "== tests: $((SECONDS - started)) s"

summarize
