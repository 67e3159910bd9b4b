#!/usr/bin/env bash
# NetCoreServer's own benchmark programs, each server built twice (on NetCoreServer's library and on ours), driven
# by NetCoreServer's own clients and by the neutral C load `echo_load -w 32`, over loopback.
#
#   performance/ncs-compare.sh /tmp/ncs-src                      # 10 rounds, 5 s per run
#   ROUNDS=6 SECONDS_PER_RUN=5 performance/ncs-compare.sh /tmp/ncs-src
#
# The argument is a checkout of https://github.com/chronoxor/NetCoreServer (git clone, or `git archive` of a mirror);
# put it outside this repository: nothing of it is copied here. The build goes to $NCS_SCRATCH (/tmp/ncs-compare):
#   ncs-lib/            NetCoreServer's library, its source/NetCoreServer/*.cs compiled as they are;
#   ncs-<Program>/      TcpEchoServer/Client, WsEchoServer/Client, SslEchoServer/Client, HttpTraceServer/Client:
#                       the checkout's performance/<Program>/Program.cs on NetCoreServer's library;
#   ours-<Server>/      the same four server Program.cs files on ours (a ProjectReference to
#                       source/NetCoreServer/NetCoreServer.csproj: our API is source-compatible, the files are unchanged);
#   options/Options.cs  a small stand-in for NDesk.Options (OptionSet, OptionException), which the programs use and
#                       the package registry here does not serve; written by this script, not taken from anywhere;
#   echo_load           ../shared/peers/echo_load.c built with cc -O2 -pthread ($ECHO_LOAD_SRC).
# All projects target net10.0 (set in a generated Directory.Build.props), Release, warnings not errors.
#
# Then, for each of $ROUNDS rounds and each case, NetCoreServer's server then ours (the order alternates by round),
# each freshly started on a free port with the checkout's tools/certificates as working directory (the SSL programs
# load server.pfx and client.pfx from there):
#   tcp, ws, ssl with 1 and $MANY_CLIENTS clients: <Proto>EchoClient -c N -m $ECHO_MESSAGES -s $MESSAGE_SIZE -z S
#     (every client keeps $ECHO_MESSAGES messages in flight and sends each with its own SendAsync);
#   http with 1 and $MANY_CLIENTS clients: HttpTraceClient -c N -m $HTTP_MESSAGES -z S;
#   load32 with 1 and $MANY_CLIENTS clients against the TCP servers: echo_load -w 32 -m $ECHO_MESSAGES -s 32 -z S
#     (one write per 32-byte message, the same shape as the .NET client's, from a client that costs little CPU).
# Each run records the client's messages/s (its "Message throughput" line, or echo_load's msg_per_s) and the server's
# CPU (utime + stime of /proc/PID/stat) from just before the client starts to just after it exits, divided by the
# client's total messages: nanoseconds of server CPU per message. It prints every run, then per case the medians,
# the per-round values and ours/NetCoreServer within each round with their median, for messages/s and for CPU per
# message (lower is better there). The machine is shared: the load average is printed before and after, and only
# medians and paired ratios are meant to be read.
#
# A server is stopped by closing its standard input (the programs stop on an empty console line; end of input reads
# as one), then SIGTERM, then SIGKILL; it also stops when this script dies (its stdin writer closes). Every client
# runs under `timeout`. A run whose client reports errors or no messages is flagged, and the script then exits 1.
#
# Environment: ROUNDS (10), SECONDS_PER_RUN (5), MESSAGE_SIZE (32), ECHO_MESSAGES (1000), HTTP_MESSAGES (1),
# MANY_CLIENTS (100), CASES (all: "tcp ws ssl http load32"), NCS_SCRATCH (/tmp/ncs-compare), NCS_BENCH_OUT
# (artifacts/ncs-compare: client outputs, server logs, results.tsv, cpu.tsv), ECHO_LOAD_SRC, SKIP_BUILD (1 = reuse
# the last build). Needs the .NET SDK, cc and python3 (for a free port).
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
SCRIPT=ncs-compare.sh
NCS_SRC="${1:-}"
ROUNDS="${ROUNDS:-10}"
SECONDS_PER_RUN="${SECONDS_PER_RUN:-5}"
MESSAGE_SIZE="${MESSAGE_SIZE:-32}"
ECHO_MESSAGES="${ECHO_MESSAGES:-1000}"
HTTP_MESSAGES="${HTTP_MESSAGES:-1}"
MANY_CLIENTS="${MANY_CLIENTS:-100}"
CASES="${CASES:-tcp ws ssl http load32}"
SCRATCH="${NCS_SCRATCH:-/tmp/ncs-compare}"
OUT="${NCS_BENCH_OUT:-$ROOT/artifacts/ncs-compare}"
ECHO_LOAD_SRC="${ECHO_LOAD_SRC:-$ROOT/../shared/peers/echo_load.c}"
ADDRESS=127.0.0.1

START_TIMEOUT=30                                            # seconds for a server to print "Server starting...Done!"
STOP_TIMEOUT=10                                             # seconds for a server to exit after its input closes
CLIENT_TIMEOUT=$((SECONDS_PER_RUN + 90))                    # start-up, connect, run, disconnect

export DOTNET_NOLOGO=1 DOTNET_CLI_TELEMETRY_OPTOUT=1

if [[ -z "$NCS_SRC" || ! -f "$NCS_SRC/source/NetCoreServer/TcpServer.cs" ]]; then
    echo "usage: $SCRIPT NETCORESERVER_CHECKOUT   (a checkout of github.com/chronoxor/NetCoreServer, outside this repository)" >&2
    exit 2
fi
NCS_SRC="$(cd "$NCS_SRC" && pwd)"
case "$NCS_SRC/" in
    "$ROOT"/*) echo "$SCRIPT: put the NetCoreServer checkout outside this repository ($ROOT)" >&2; exit 2 ;;
esac
case "$SCRATCH/" in
    "$ROOT"/*) echo "$SCRIPT: NCS_SCRATCH must be outside this repository ($ROOT)" >&2; exit 2 ;;
esac
for setting in ROUNDS SECONDS_PER_RUN MESSAGE_SIZE ECHO_MESSAGES HTTP_MESSAGES MANY_CLIENTS; do
    if ! [[ "${!setting}" =~ ^[1-9][0-9]*$ ]]; then
        echo "$SCRIPT: $setting must be a positive whole number, not '${!setting}'" >&2
        exit 2
    fi
done
for tool in dotnet cc python3 timeout; do
    if ! command -v "$tool" > /dev/null; then
        echo "$SCRIPT: $tool is not installed" >&2
        exit 2
    fi
done

# shellcheck source=performance/compare-lib.sh
source "$ROOT/performance/compare-lib.sh"
BASELINE=ncs

mkdir -p "$OUT" "$SCRATCH"
rm -f "$OUT"/*.out "$OUT"/*.log
RESULTS="$OUT/results.tsv"
CPU_RESULTS="$OUT/cpu.tsv"
printf 'round\tcase\tserver\tmsg_per_s\n' > "$RESULTS"
printf 'round\tcase\tserver\tserver_cpu_ns_per_msg\n' > "$CPU_RESULTS"
CERTS="$NCS_SRC/tools/certificates"

# ---- build -------------------------------------------------------------------------------------------------------

write_scratch_projects() {
    cat > "$SCRATCH/Directory.Build.props" << 'EOF'
<Project>
  <PropertyGroup>
    <TargetFramework>net10.0</TargetFramework>
    <Configuration Condition="'$(Configuration)' == ''">Release</Configuration>
    <Nullable>disable</Nullable>
    <ImplicitUsings>disable</ImplicitUsings>
    <TreatWarningsAsErrors>false</TreatWarningsAsErrors>
    <NoWarn>$(NoWarn);1591;CS0618;SYSLIB0057;SYSLIB0039</NoWarn>
    <EnableDefaultCompileItems>false</EnableDefaultCompileItems>
  </PropertyGroup>
</Project>
EOF
    mkdir -p "$SCRATCH/options" "$SCRATCH/ncs-lib"
    # A stand-in for the part of NDesk.Options the programs use: "a|long=" takes a value, "h|?|help" is a flag.
    cat > "$SCRATCH/options/Options.cs" << 'EOF'
namespace NDesk.Options
{
    using System;
    using System.Collections;
    using System.Collections.Generic;
    using System.IO;

    public sealed class OptionException : Exception
    {
        public OptionException(string message) : base(message) { }
    }

    public sealed class OptionSet : IEnumerable<string>
    {
        private readonly List<(string[] Names, bool TakesValue, Action<string> Action, string Prototype)> _options = new();

        public void Add(string prototype, Action<string> action)
        {
            bool takesValue = prototype.EndsWith("=", StringComparison.Ordinal);
            _options.Add((prototype.TrimEnd('=').Split('|'), takesValue, action, prototype));
        }

        public List<string> Parse(IEnumerable<string> arguments)
        {
            var rest = new List<string>();
            using var e = arguments.GetEnumerator();
            while (e.MoveNext())
            {
                string argument = e.Current;
                if (argument.Length < 2 || argument[0] != '-')
                {
                    rest.Add(argument);
                    continue;
                }
                string name = argument.TrimStart('-');
                string inline = null;
                int split = name.IndexOfAny(new[] { '=', ':' });
                if (split >= 0)
                {
                    inline = name.Substring(split + 1);
                    name = name.Substring(0, split);
                }
                var option = _options.Find(o => Array.IndexOf(o.Names, name) >= 0);
                if (option.Names == null)
                    throw new OptionException("Unknown option: " + argument);
                if (!option.TakesValue)
                {
                    option.Action(name);
                    continue;
                }
                if (inline == null)
                {
                    if (!e.MoveNext())
                        throw new OptionException("Missing value for option " + argument);
                    inline = e.Current;
                }
                option.Action(inline);
            }
            return rest;
        }

        public void WriteOptionDescriptions(TextWriter writer)
        {
            foreach (var option in _options)
                writer.WriteLine("  " + option.Prototype);
        }

        public IEnumerator<string> GetEnumerator()
        {
            foreach (var option in _options)
                yield return option.Prototype;
        }

        IEnumerator IEnumerable.GetEnumerator() => GetEnumerator();
    }
}
EOF
    cat > "$SCRATCH/ncs-lib/NetCoreServer.csproj" << EOF
<Project Sdk="Microsoft.NET.Sdk">
  <PropertyGroup>
    <AssemblyName>NetCoreServer</AssemblyName>
    <RootNamespace>NetCoreServer</RootNamespace>
  </PropertyGroup>
  <ItemGroup>
    <Compile Include="$NCS_SRC/source/NetCoreServer/*.cs" />
  </ItemGroup>
</Project>
EOF
}

write_program() { # write_program SIDE PROGRAM: a project compiling the checkout's PROGRAM on SIDE's library (ncs|ours)
    local side="$1" program="$2" library
    if [[ "$side" == ncs ]]; then library="$SCRATCH/ncs-lib/NetCoreServer.csproj"
    else library="$ROOT/source/NetCoreServer/NetCoreServer.csproj"; fi
    mkdir -p "$SCRATCH/$side-$program"
    cat > "$SCRATCH/$side-$program/$program.csproj" << EOF
<Project Sdk="Microsoft.NET.Sdk">
  <PropertyGroup>
    <OutputType>Exe</OutputType>
    <AssemblyName>$program</AssemblyName>
  </PropertyGroup>
  <ItemGroup>
    <Compile Include="$NCS_SRC/performance/$program/Program.cs" />
    <Compile Include="$SCRATCH/options/Options.cs" />
  </ItemGroup>
  <ItemGroup>
    <ProjectReference Include="$library" />
  </ItemGroup>
</Project>
EOF
}

program_dll() { # program_dll SIDE PROGRAM
    echo "$SCRATCH/$1-$2/bin/Release/net10.0/$2.dll"
}

build_all() {
    write_scratch_projects
    local program projects=()
    for program in TcpEchoServer WsEchoServer SslEchoServer HttpTraceServer; do
        write_program ncs "$program"
        write_program ours "$program"
        projects+=("$SCRATCH/ncs-$program/$program.csproj" "$SCRATCH/ours-$program/$program.csproj")
    done
    for program in TcpEchoClient WsEchoClient SslEchoClient HttpTraceClient; do
        write_program ncs "$program"
        projects+=("$SCRATCH/ncs-$program/$program.csproj")
    done
    # One solution, so the shared libraries build once.
    echo "Building NetCoreServer's programs on both libraries in $SCRATCH..."
    local log="$OUT/build.log" failed=0
    rm -f "$SCRATCH"/all.sln "$SCRATCH"/all.slnx
    (cd "$SCRATCH" && dotnet new sln -n all --format sln --force && dotnet sln all.sln add "${projects[@]}") >> "$log" 2>&1 || failed=1
    if (( ! failed )) && ! dotnet build "$SCRATCH/all.sln" -c Release -nologo -v quiet >> "$log" 2>&1; then
        failed=1
    fi
    if (( failed )); then
        echo "$SCRIPT: the build failed:" >&2
        { grep -E "error" "$log" || tail -n 30 "$log"; } | sort -u | head -n 30 | sed 's/^/  /' >&2
        exit 1
    fi
    if ! cc -O2 -pthread -o "$SCRATCH/echo_load" "$ECHO_LOAD_SRC" >> "$log" 2>&1; then
        echo "$SCRIPT: building $ECHO_LOAD_SRC failed (see $log)" >&2
        exit 1
    fi
}

if [[ "${SKIP_BUILD:-0}" != 1 ]]; then
    : > "$OUT/build.log"
    build_all
fi

# ---- runs --------------------------------------------------------------------------------------------------------

free_port() {
    python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1]); s.close()'
}

server_cpu_ticks() { # utime + stime of server_pid, in clock ticks
    awk '{ print $14 + $15 }' "/proc/$server_pid/stat"
}

stdin_fd=""
start_server() { # start_server SIDE PROGRAM LOG: starts it on a free PORT with a fifo as its input; sets server_pid
    local side="$1" program="$2" log="$3" fifo waited=0
    PORT="$(free_port)"
    fifo="$OUT/stdin.fifo"
    rm -f "$fifo"
    mkfifo "$fifo"
    exec {stdin_fd}<> "$fifo"                                   # held open: the server's console never ends early
    (cd "$CERTS" && exec dotnet "$(program_dll "$side" "$program")" -p "$PORT") < "$fifo" > "$log" 2>&1 &
    server_pid=$!
    until grep -q "Server starting...Done!" "$log" 2>/dev/null; do
        if ! kill -0 "$server_pid" 2>/dev/null || (( waited >= START_TIMEOUT * 10 )); then
            echo "$SCRIPT: $side $program did not start:" >&2
            sed 's/^/  /' "$log" >&2
            return 1
        fi
        sleep 0.1
        waited=$((waited + 1))
    done
    rm -f "$fifo"                                               # the server has it open; the name is not needed
}

end_server() { # closes the server's input (it stops as on an empty line), waits, then stop_server's SIGTERM/SIGKILL
    local waited=0
    if [[ -n "$stdin_fd" ]]; then
        exec {stdin_fd}>&-
        stdin_fd=""
    fi
    while [[ -n "$server_pid" ]] && kill -0 "$server_pid" 2>/dev/null && (( waited < STOP_TIMEOUT * 10 )); do
        sleep 0.1
        waited=$((waited + 1))
    done
    stop_server
}

CLK_TCK="$(getconf CLK_TCK)"
failures=0

# run_case ROUND CASE SIDE CLIENTS: one server, one client run; appends to RESULTS and CPU_RESULTS
run_case() {
    local round="$1" case="$2" side="$3" clients="$4" server client_out cpu_before cpu_after rate total errors
    local name="$case-$clients"
    case "$case" in
        tcp|load32) server=TcpEchoServer ;;
        ws) server=WsEchoServer ;;
        ssl) server=SslEchoServer ;;
        http) server=HttpTraceServer ;;
    esac
    client_out="$OUT/r$round-$name-$side.out"
    start_server "$side" "$server" "$OUT/r$round-$name-$side.log"
    cpu_before="$(server_cpu_ticks)"
    local status=0
    case "$case" in
        load32)
            timeout -k 5 "$CLIENT_TIMEOUT" "$SCRATCH/echo_load" -h "$ADDRESS" -p "$PORT" -c "$clients" \
                -m "$ECHO_MESSAGES" -s 32 -w 32 -z "$SECONDS_PER_RUN" > "$client_out" 2>&1 || status=$?
            ;;
        http)
            (cd "$CERTS" && timeout -k 5 "$CLIENT_TIMEOUT" dotnet "$(program_dll ncs HttpTraceClient)" -a "$ADDRESS" \
                -p "$PORT" -c "$clients" -m "$HTTP_MESSAGES" -z "$SECONDS_PER_RUN") > "$client_out" 2>&1 || status=$?
            ;;
        *)
            local client
            client="${server/Server/Client}"
            (cd "$CERTS" && timeout -k 5 "$CLIENT_TIMEOUT" dotnet "$(program_dll ncs "$client")" -a "$ADDRESS" \
                -p "$PORT" -c "$clients" -m "$ECHO_MESSAGES" -s "$MESSAGE_SIZE" -z "$SECONDS_PER_RUN") \
                > "$client_out" 2>&1 || status=$?
            ;;
    esac
    cpu_after="$(server_cpu_ticks 2>/dev/null || echo "$cpu_before")"
    end_server
    if [[ "$case" == load32 ]]; then
        rate="$(sed -n 's/.*"msg_per_s":\([0-9.]*\).*/\1/p' "$client_out")"
        total="$(sed -n 's/.*"total_messages":\([0-9]*\).*/\1/p' "$client_out")"
        errors="$(sed -n 's/.*"errors":\([0-9]*\).*"corrupt":\([0-9]*\).*/\1+\2/p' "$client_out")"
        errors=$(( ${errors:-1} ))
    else
        rate="$(sed -n 's/^Message throughput: \([0-9]*\) msg\/s.*/\1/p' "$client_out")"
        total="$(sed -n 's/^Total messages: \([0-9]*\).*/\1/p' "$client_out")"
        errors="$(sed -n 's/^Errors: \([0-9]*\).*/\1/p' "$client_out")"
    fi
    rate="${rate:-0}" total="${total:-0}" errors="${errors:-?}"
    local cpu_ns
    cpu_ns="$(awk -v b="$cpu_before" -v a="$cpu_after" -v t="$total" -v hz="$CLK_TCK" \
        'BEGIN { if (t > 0) printf "%.0f", (a - b) / hz * 1e9 / t; else print 0 }')"
    local flag=""
    if [[ "$status" != 0 || "$errors" != 0 || "$rate" == 0 ]]; then
        flag="   <-- exit $status, errors $errors (see $client_out)"
        failures=$((failures + 1))
    fi
    printf '  round %2d  %-10s %-4s %10s msg/s  %7s ns server CPU/msg%s\n' "$round" "$name" "$side" "$rate" "$cpu_ns" "$flag"
    printf '%s\t%s\t%s\t%s\n' "$round" "$name" "$side" "$rate" >> "$RESULTS"
    printf '%s\t%s\t%s\t%s\n' "$round" "$name" "$side" "$cpu_ns" >> "$CPU_RESULTS"
}

echo "NetCoreServer ($(git -C "$NCS_SRC" rev-parse --short HEAD 2>/dev/null || echo "checkout $NCS_SRC")) against ours ($(git -C "$ROOT" rev-parse --short HEAD)); $ROUNDS rounds of $SECONDS_PER_RUN s, cases: $CASES"
load_average before
names=()
for round in $(seq 1 "$ROUNDS"); do
    for case in $CASES; do
        for clients in "$MANY_CLIENTS" 1; do
            [[ $round == 1 ]] && names+=("$case-$clients")
            if (( round % 2 )); then order="ncs ours"; else order="ours ncs"; fi
            for side in $order; do
                run_case "$round" "$case" "$side" "$clients"
            done
        done
    done
done
load_average after

echo
echo "Messages/s (higher is better):"
summary_table NetCoreServer "${names[@]}"
echo
echo "Server CPU per message, nanoseconds (lower is better; ratios are ours/NetCoreServer):"
RESULTS="$CPU_RESULTS"
summary_table NetCoreServer "${names[@]}"
if (( failures )); then
    echo "$SCRIPT: $failures run(s) flagged above" >&2
    exit 1
fi
