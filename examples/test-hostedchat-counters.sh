#!/usr/bin/env bash
# dotnet-counters, the real tool, reads the library's meter from a running examples/HostedChat: while it collects, two
# WebSocket clients connect, and its samples show netcoreserver.active_connections at 2 with the server's tags,
# accepted_connections and websocket.upgrades adding up to 2. (An observable counter's rate starts at the tool's
# second sample, so the clients' bytes, sent at once, are not checked.) The tool is the repository's local tool
# (.config/dotnet-tools.json, `dotnet tool restore`); where it cannot be restored the test prints SKIP and exits 0. Every wait is bounded; loopback only. KEEP_LOGS=1 keeps logs.
source "$(dirname "${BASH_SOURCE[0]}")/hostedchat-test-lib.sh"

if ! (cd "$ROOT" && { dotnet tool run dotnet-counters --version || { dotnet tool restore && dotnet tool run dotnet-counters --version; }; }) >"$WORK/tool.txt" 2>&1; then
    echo "SKIP: dotnet-counters could not be restored (dotnet tool restore): $(tail -1 "$WORK/tool.txt")"
    exit 0
fi

PORT=$(free_port)
check "the server starts" "start_server $PORT"

# The collection starts first, so the connections it sees accepted are the test's two; the clients connect once the
# tool's session is up. 10 s of samples, one a second.
(cd "$ROOT" && exec timeout 60 dotnet tool run dotnet-counters collect -p "$SERVER" --counters NetCoreServer --format json \
    -o "$WORK/counters.json" --duration 00:00:00:10 --refresh-interval 1) >"$WORK/collect.txt" 2>&1 &
COLLECT=$!
CHILDREN+=($COLLECT)
check "dotnet-counters attaches to the server" "wait_for '$WORK/collect.txt' 'Starting a counter session' 30"
for name in one two; do
    python3 "$ROOT/examples/hostedchat-client.py" "$PORT" "hello $name" >"$WORK/client-$name.txt" 2>&1 &
    CHILDREN+=($!)
done
check "both clients are served" "wait_for '$WORK/client-one.txt' 'TEXT hello one' 10 && wait_for '$WORK/client-two.txt' 'TEXT hello two' 10"
wait "$COLLECT"
check "dotnet-counters ends after its 10 s and saves the samples" "[[ $? -eq 0 && -s '$WORK/counters.json' ]]"

# The samples of this server's series (its tags, its port), by instrument: "active 2 2 ...", "accepted 2 0 ...".
SAMPLES=$(python3 - "$WORK/counters.json" "$PORT" <<'PY'
import json, sys
events = json.load(open(sys.argv[1]))["Events"]
tags = f"network.protocol.name=websocket,network.transport=tcp,server.address=127.0.0.1,server.port={sys.argv[2]}"
for label, name, extra in [("active", "active_connections", ""), ("accepted", "accepted_connections", ""),
                           ("upgraded", "websocket.upgrades", "netcoreserver.upgrade.result=accepted,")]:
    print(label, *(f"{e['value']:g}" for e in events if e["name"].startswith(f"netcoreserver.{name} (") and e["tags"] == extra + tags))
PY
)
echo "$SAMPLES"
sum() { grep "^$1 " <<<"$SAMPLES" | tr ' ' '\n' | tail -n +2 | python3 -c 'import sys; print(f"{sum(float(l) for l in sys.stdin):g}")'; }
check "active_connections, tagged with the server's endpoint, ends at 2" "[[ \"\$(grep ^active <<<\"\$SAMPLES\" | awk '{print \$NF}')\" == 2 ]]"
check "accepted_connections adds up to the 2 connections made" "[[ \$(sum accepted) == 2 ]]"
check "websocket.upgrades{upgrade.result=accepted} adds up to the 2 upgrades" "[[ \$(sum upgraded) == 2 ]]"

stop_server
check "the server exits 0" "[[ $? -eq 0 ]]"
[[ $FAILED -eq 0 ]] || { echo "--- dotnet-counters"; cat "$WORK/collect.txt"; head -c 2000 "$WORK/counters.json"; }
finish test-hostedchat-counters
