#!/usr/bin/env bash
# Process-level test of every example's command line: -h and --help print the usage to stdout and exit 0, a bad
# command line prints it to stderr and exits 2, and neither starts anything (each run is bounded by WAIT_SECONDS).
# All examples are built at once, through a solution filter, which costs one build instead of one per example.
# Set KEEP_LOGS=1 to keep the work directory with every run's output.
# shellcheck source=process-test-lib.sh
source "$(dirname "${BASH_SOURCE[0]}")/process-test-lib.sh"

mapfile -t EXAMPLES < <(cd "$ROOT/examples" && for program in */Program.cs; do dirname "$program"; done)

build_all() { # one build of every example through a solution filter in the work directory
    local filter="$WORK/examples.slnf" projects="" example
    if [[ "${EXAMPLES_BUILT:-0}" == 1 ]]; then
        built_already "${EXAMPLES[@]}"
        return
    fi
    for example in "${EXAMPLES[@]}"; do
        projects+="${projects:+,}\"examples\\\\$example\\\\$example.csproj\""
    done
    printf '{"solution":{"path":"%s","projects":[%s]}}\n' "$ROOT/NetCoreServer.sln" "$projects" >"$filter"
    if dotnet build "$filter" -c Release --nologo -v quiet --artifacts-path "$ARTIFACTS" --disable-build-servers \
        >"$WORK/build.log" 2>&1; then
        pass "${#EXAMPLES[@]} examples build"
    else
        fail "${#EXAMPLES[@]} examples build"
        grep -E 'error' "$WORK/build.log" | sort -u | head -n 20
        finish
        exit 1
    fi
}

run_split() { # run_split EXAMPLE ARGUMENT...: runs the example with stdin closed; sets EXIT, STDOUT and STDERR files
    STDOUT="$WORK/$1.$RUNS.out"
    STDERR="$WORK/$1.$RUNS.err"
    RUNS=$((RUNS + 1))
    timeout "$WAIT_SECONDS" dotnet "$(dll "$1")" "${@:2}" </dev/null >"$STDOUT" 2>"$STDERR"
    EXIT=$?
}

helps() { # helps EXAMPLE OPTION: usage on stdout, nothing on stderr, exit code 0
    run_split "$1" "$2"
    [[ "$EXIT" == 0 ]] || { echo "  $1 $2 exited with $EXIT, expected 0"; return 1; }
    grep -qF "Usage: $1 " "$STDOUT" || { echo "  $1 $2 printed no 'Usage: $1' on stdout"; return 1; }
    [[ $(head -n 1 "$STDOUT") == "$1: "?* ]] || { echo "  $1 $2 does not begin with a summary line"; return 1; }
    [[ ! -s "$STDERR" ]] || { echo "  $1 $2 wrote to stderr:"; head -n 3 "$STDERR"; return 1; }
}

rejects() { # rejects EXAMPLE ARGUMENT...: usage on stderr, nothing on stdout, exit code 2
    run_split "$@"
    [[ "$EXIT" == 2 ]] || { echo "  $1 ${*:2} exited with $EXIT, expected 2"; return 1; }
    grep -qF "Usage: $1 " "$STDERR" || { echo "  $1 ${*:2} printed no 'Usage: $1' on stderr"; return 1; }
    [[ ! -s "$STDOUT" ]] || { echo "  $1 ${*:2} wrote to stdout:"; head -n 3 "$STDOUT"; return 1; }
}

RUNS=0
build_all
for example in "${EXAMPLES[@]}"; do
    check "$example --help prints its usage and exits with 0" helps "$example" --help
    check "$example -h prints its usage and exits with 0" helps "$example" -h
    # Five arguments are too many for every example.
    check "$example rejects a bad command line with its usage and exit code 2" rejects "$example" x x x x x
done
finish
