# Generic part of the example process tests: sourced by chat-test-lib.sh, test-udpecho.sh and test-udpmulticast.sh,
# never run by itself (so not named test-*.sh, which build/test.sh runs as tests).
#
# Real processes run in the background with stdin fed from a FIFO (launch, type_in, close_stdin) and are checked
# through their output (saw, saw_exactly, exits_with, printed). Every wait is bounded by WAIT_SECONDS (10 s by
# default). Checks print "PASS: ..." or "FAIL: ..." (a failure also shows the last lines of every process); finish
# prints the tally and fails when a check failed. The work directory (builds, FIFOs, outputs) is removed on exit
# unless KEEP_LOGS=1. A script that re-runs itself in another namespace hands the child its work directory in
# PROCESS_TEST_WORK (and its TAG); the child then leaves the directory alone and reports with write_counts instead.
# shellcheck shell=bash
set -u

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
TEST_NAME=$(basename "$0" .sh)
WAIT_SECONDS=${WAIT_SECONDS:-10}
if [[ -n "${PROCESS_TEST_WORK:-}" ]]; then
    WORK=$PROCESS_TEST_WORK
    OWN_WORK=0
else
    WORK=$(mktemp -d "${TMPDIR:-/tmp}/$TEST_NAME.XXXXXX")
    OWN_WORK=1
fi
# A private artifacts path keeps these builds out of the bin/obj folders a concurrent IDE or build may be using.
ARTIFACTS="$WORK/build"
TAG=${TAG:-$$-$RANDOM}
# The builds live outside the repository, so examples that look for repository files (the TLS examples'
# tools/certificates) find them from the current directory.
cd "$ROOT" || exit 1

PASSED=0
FAILED=0
declare -A PID=()   # process name -> pid
declare -A FD=()    # process name -> fd of the FIFO feeding its stdin
declare -A OUT=()   # process name -> file with its stdout and stderr

cleanup() {
    local name pid
    for name in "${!PID[@]}"; do
        pid=${PID[$name]}
        kill -0 "$pid" 2>/dev/null && kill -TERM "$pid" 2>/dev/null
    done
    for name in "${!PID[@]}"; do
        pid=${PID[$name]}
        for _ in $(seq 20); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
        kill -0 "$pid" 2>/dev/null && kill -KILL "$pid" 2>/dev/null
    done
    if ((OWN_WORK == 0)); then
        return
    fi
    if [[ "${KEEP_LOGS:-0}" == 1 ]]; then
        echo "logs kept in $WORK"
    else
        rm -rf "$WORK"
    fi
}
trap cleanup EXIT
trap 'exit 130' INT TERM

pass() { PASSED=$((PASSED + 1)); echo "PASS: $*"; }

fail() {
    FAILED=$((FAILED + 1))
    echo "FAIL: $*"
    local name
    for name in "${!OUT[@]}"; do
        [[ -f "${OUT[$name]}" ]] || continue
        echo "  --- last lines of $name ---"
        tail -n 8 "${OUT[$name]}" | sed 's/^/  | /'
    done
}

check() { # check DESCRIPTION COMMAND...: PASS when COMMAND succeeds
    local description=$1
    shift
    if "$@"; then pass "$description"; else fail "$description"; fi
}

count_of() { # count_of NAME TEXT: lines of NAME's output holding TEXT
    local count
    # The output file appears only once the background process has started; until then the count is 0.
    count=$(grep -cF -- "$2" "${OUT[$1]}" 2>/dev/null)
    echo "${count:-0}"
}

saw() { # saw NAME TEXT [COUNT]: waits until NAME's output holds TEXT on at least COUNT lines
    local name=$1 text=$2 count=${3:-1} i seen
    for ((i = 0; i < WAIT_SECONDS * 10; i++)); do
        # Empty when a signal cut the count short: the trap is about to end the run anyway.
        seen=$(count_of "$name" "$text")
        ((${seen:-0} >= count)) && return 0
        sleep 0.1
    done
    echo "  $name printed '$text' on $(count_of "$name" "$text") lines within $WAIT_SECONDS s, expected at least $count"
    return 1
}

saw_exactly() { # saw_exactly NAME TEXT COUNT: NAME's output holds TEXT on exactly COUNT lines now
    local actual
    actual=$(count_of "$1" "$2")
    [[ "$actual" == "$3" ]] || { echo "  $1 printed '$2' on $actual lines, expected $3"; return 1; }
}

gone() { # gone PID: waits at most WAIT_SECONDS until PID has exited; fails when it is still running
    local i
    for ((i = 0; i < WAIT_SECONDS * 10; i++)); do
        kill -0 "$1" 2>/dev/null || return 0
        sleep 0.1
    done
    ! kill -0 "$1" 2>/dev/null
}

exits_with() { # exits_with NAME CODE: waits until NAME has exited and checks its exit code
    local name=$1 expected=$2 pid=${PID[$1]} code
    if ! gone "$pid"; then
        echo "  $name (pid $pid) is still running after $WAIT_SECONDS s"
        return 1
    fi
    wait "$pid"
    code=$?
    unset "PID[$name]"
    [[ "$code" == "$expected" ]] || { echo "  $name exited with $code, expected $expected"; return 1; }
}

launch() { # launch NAME COMMAND...: runs COMMAND in the background with stdin from a new FIFO
    local name=$1 fifo="$WORK/$1.in" fd open inherited
    shift
    mkfifo "$fifo"
    # Read-write keeps the open from blocking and means writes never get SIGPIPE, even after the process died.
    exec {fd}<>"$fifo"
    open="${FD[*]}"
    FD[$name]=$fd
    OUT[$name]="$WORK/$name.out"
    # The child must not inherit the other processes' FIFO ends, or closing one to send EOF would not work.
    (
        for inherited in $open $fd; do eval "exec $inherited>&-"; done
        exec "$@"
    ) <"$fifo" >"${OUT[$name]}" 2>&1 &
    PID[$name]=$!
}

type_in() { # type_in NAME LINE: types LINE on NAME's console
    printf '%s\n' "$2" >&"${FD[$1]}"
}

close_stdin() { # close_stdin NAME: NAME's console reaches end of input
    local fd=${FD[$1]}
    exec {fd}>&-
    unset "FD[$1]"
}

terminate() { # terminate NAME: sends SIGTERM (the process is expected to quit by itself; see exits_with)
    kill -TERM "${PID[$1]}"
}

kill_process() { # kill_process NAME SIGNAL: sends SIGNAL, waits until NAME has gone and forgets it
    local pid=${PID[$1]}
    kill "-$2" "$pid" 2>/dev/null
    # Bounded like every wait: a process still there after WAIT_SECONDS gets SIGKILL.
    gone "$pid" || kill -KILL "$pid" 2>/dev/null
    wait "$pid" 2>/dev/null
    unset "PID[$1]"
    close_stdin "$1"
}

run_bounded() { # run_bounded NAME INPUT COMMAND...: runs COMMAND to its end (at most WAIT_SECONDS) with INPUT on stdin; sets EXIT
    local name=$1 input=$2
    shift 2
    OUT[$name]="$WORK/$name.out"
    printf '%s' "$input" | timeout "$WAIT_SECONDS" "$@" >"${OUT[$name]}" 2>&1
    EXIT=$?
}

exit_code_is() { # exit_code_is NAME CODE: the last run_bounded ended with CODE
    [[ "$EXIT" == "$2" ]] || { echo "  $1 exited with $EXIT, expected $2"; return 1; }
}

printed() { # printed NAME TEXT: NAME's output holds TEXT (for a process that has ended)
    grep -qF -- "$2" "${OUT[$1]}" || { echo "  $1 did not print '$2'"; return 1; }
}

not_printed() { # not_printed NAME TEXT: NAME's output does not hold TEXT
    ! grep -qF -- "$2" "${OUT[$1]}" || { echo "  $1 printed '$2'"; return 1; }
}

# build/test.sh builds the whole solution first and sets EXAMPLES_BUILT=1: the examples then run from their own bin
# folders and nothing is built twice. Run by hand, a script builds what it needs in its private artifacts path.
if [[ "${EXAMPLES_BUILT:-0}" == 1 ]]; then
    dll() { # dll PROJECT: the example the solution build made
        echo "$ROOT/examples/$1/bin/Release/net10.0/$1.dll"
    }
else
    dll() { # dll PROJECT: the built example
        echo "$ARTIFACTS/bin/$1/release/$1.dll"
    }
fi

built_already() { # built_already PROJECT...: with EXAMPLES_BUILT=1, passes when each was built, else fails and exits
    local project
    for project in "$@"; do
        if [[ -f "$(dll "$project")" ]]; then
            pass "$project built by the solution build"
        else
            fail "$project built by the solution build (no $(dll "$project"))"
            finish
            exit 1
        fi
    done
}

build_examples() { # build_examples PROJECT...: builds examples/PROJECT in Release; exits when one fails
    local project
    if [[ "${EXAMPLES_BUILT:-0}" == 1 ]]; then
        built_already "$@"
        return
    fi
    for project in "$@"; do
        if dotnet build "$ROOT/examples/$project/$project.csproj" -c Release --nologo -v quiet \
            --artifacts-path "$ARTIFACTS" --disable-build-servers >"$WORK/build-$project.log" 2>&1; then
            pass "$project builds"
        else
            fail "$project builds"
            grep -E 'error|Error' "$WORK/build-$project.log" | sort -u | head -n 20
            finish
            exit 1
        fi
    done
}

write_counts() { # write_counts FILE: hands this run's check counts to the script that started it
    echo "$PASSED $FAILED" >"$1"
}

tally() { # the last line of a run; a sourcing library may redefine it
    # Not "N passed, N failed": build/test.sh ends with a line of that form, and this must not be taken for it.
    echo "$TEST_NAME: $PASSED checks passed / $FAILED failed"
}

finish() { # prints the tally; fails when a check failed
    tally
    ((FAILED == 0))
}
