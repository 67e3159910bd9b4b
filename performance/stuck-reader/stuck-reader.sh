#!/usr/bin/env bash
# The multicast server beside one client that never reads (4 KiB receive buffer) and 10 readers: prints the server's
# RSS every 5 s. Usage: stuck-reader.sh PROTOCOL [SECONDS] [extra MulticastServer options, e.g. --event-loops 1]
# tcp and uds are read by the C mcast_load (built from ../shared/peers when cc is there), the others by our
# MulticastClient. Loopback only; every process stops by itself.
set -euo pipefail
cd "$(dirname "$0")/../.."
protocol=${1:-tcp}; seconds=${2:-60}; shift $(( $# < 2 ? $# : 2 ))
bin=performance/MulticastServer/bin/Release/net10.0/NetCoreServer.Performance.MulticastServer
client=performance/MulticastClient/bin/Release/net10.0/NetCoreServer.Performance.MulticastClient
[ -x "$bin" ] && [ -x "$client" ] || for p in MulticastServer MulticastClient; do dotnet build performance/$p -c Release -nologo -clp:ErrorsOnly >/dev/null; done
port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')
path=/tmp/stuck-reader-$$.sock
peers=../shared/peers; load=""
if [[ $protocol == tcp || $protocol == uds ]] && command -v cc >/dev/null && [ -f $peers/mcast_load.c ]; then
    load=/tmp/stuck-reader-mcast_load; cc -O2 -pthread -o $load $peers/mcast_load.c
fi
where=(--port "$port"); [ "$protocol" = uds ] && where=(--path "$path")
"$bin" --protocol "$protocol" "${where[@]}" -s 32 --lifetime $((seconds + 20)) "$@" >/dev/null 2>&1 &
server=$!
trap 'kill $server 2>/dev/null; rm -f $path' EXIT
sleep 2
# The stuck client: connects (upgrades over ws/wss), then never reads.
python3 - "$protocol" "$port" "$path" $((seconds + 10)) <<'PY' &
import socket, ssl, sys, time
protocol, port, path, life = sys.argv[1], int(sys.argv[2]), sys.argv[3], int(sys.argv[4])
s = socket.socket(socket.AF_UNIX if protocol == "uds" else socket.AF_INET, socket.SOCK_STREAM)
s.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
s.connect(path if protocol == "uds" else ("127.0.0.1", port))
if protocol in ("ssl", "wss"):
    context = ssl.create_default_context(); context.check_hostname = False; context.verify_mode = ssl.CERT_NONE
    s = context.wrap_socket(s)
if protocol in ("ws", "wss"):
    s.sendall(b"GET / HTTP/1.1\r\nHost: localhost\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
              b"Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n")
    head = b""
    while not head.endswith(b"\r\n\r\n"):
        head += s.recv(1)
time.sleep(life)
PY
stuck=$!
sleep 1
if [ -n "$load" ]; then
    if [ "$protocol" = uds ]; then "$load" -u "$path" -c 10 -s 32 -z "$seconds" >/tmp/stuck-reader-load.json &
    else "$load" -h 127.0.0.1 -p "$port" -c 10 -s 32 -z "$seconds" >/tmp/stuck-reader-load.json & fi
else
    "$client" --protocol "$protocol" "${where[@]}" -c 10 -s 32 -z "$seconds" --json >/tmp/stuck-reader-load.json 2>/dev/null &
fi
reader=$!
rss() { awk '/VmRSS/ {printf "%d", $2 / 1024}' /proc/$server/status; }
echo "protocol $protocol $*: rss 0 s $(rss) MiB"
for ((t = 5; t <= seconds; t += 5)); do sleep 5; echo "  $t s $(rss) MiB"; done
wait $reader || true
kill $stuck 2>/dev/null || true
sleep 5
echo "  5 s after every client left: $(rss) MiB"
echo "  readers: $(tail -c 400 /tmp/stuck-reader-load.json)"
