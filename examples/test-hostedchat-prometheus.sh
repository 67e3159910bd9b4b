#!/usr/bin/env bash
# A real Prometheus server (Debian's package `prometheus`, which build/test.sh installs) scrapes examples/HostedChat
# through OpenTelemetry's Prometheus exporter (Metrics__PrometheusPort), and its HTTP API (/api/v1/query) answers
# netcoreserver_active_connections 2 for the chat's port once two WebSocket clients are connected, with the scrape
# target up. Without prometheus the test prints SKIP and exits 0. Every wait is bounded; loopback only.
# KEEP_LOGS=1 keeps the work directory (Prometheus's log and data too).
source "$(dirname "${BASH_SOURCE[0]}")/hostedchat-test-lib.sh"

if ! command -v prometheus >/dev/null 2>&1; then
    echo "SKIP: prometheus is not installed (apt-get install prometheus; build/test.sh installs it)"
    exit 0
fi

PORT=$(free_port)
METRICS_PORT=$(free_port "$PORT")
PROMETHEUS_PORT=$(free_port "$PORT" "$METRICS_PORT")
check "the server starts with the Prometheus exporter" "start_server $PORT Metrics__PrometheusPort=$METRICS_PORT"

cat >"$WORK/prometheus.yml" <<YAML
global:
  scrape_interval: 1s
  evaluation_interval: 1s
scrape_configs:
  - job_name: hostedchat
    static_configs:
      - targets: ['127.0.0.1:$METRICS_PORT']
YAML
prometheus --config.file="$WORK/prometheus.yml" --web.listen-address="127.0.0.1:$PROMETHEUS_PORT" \
    --storage.tsdb.path="$WORK/prometheus-data" >"$WORK/prometheus.txt" 2>&1 &
CHILDREN+=($!)
check "Prometheus starts" "wait_for '$WORK/prometheus.txt' 'Server is ready to receive web requests' 30"

# query EXPR: the values of an instant query's series, one a line ("" when none).
query() {
    python3 - "http://127.0.0.1:$PROMETHEUS_PORT/api/v1/query" "$1" <<'PY'
import json, sys, urllib.parse, urllib.request
url = sys.argv[1] + "?" + urllib.parse.urlencode({"query": sys.argv[2]})
try:
    answer = json.load(urllib.request.urlopen(url, timeout=5))
except OSError:
    sys.exit(0)
for series in answer.get("data", {}).get("result", []):
    print(series["value"][1])
PY
}
# query_until EXPR VALUE SECONDS: asks every half second until the query answers VALUE alone.
query_until() {
    local i
    for ((i = 0; i < $3 * 2; i++)); do [[ "$(query "$1")" == "$2" ]] && return 0; sleep 0.5; done
    echo "  $1 = '$(query "$1")', not '$2'"
    return 1
}
check "Prometheus scrapes the exporter (up{job=\"hostedchat\"} is 1)" "query_until 'up{job=\"hostedchat\"}' 1 30"

for name in one two; do
    python3 "$ROOT/examples/hostedchat-client.py" "$PORT" "hello $name" >"$WORK/client-$name.txt" 2>&1 &
    CHILDREN+=($!)
done
check "both clients are served" "wait_for '$WORK/client-one.txt' 'TEXT hello one' 10 && wait_for '$WORK/client-two.txt' 'TEXT hello two' 10"
SERIES="netcoreserver_active_connections{job=\"hostedchat\",network_transport=\"tcp\",network_protocol_name=\"websocket\",server_port=\"$PORT\"}"
check "Prometheus's API answers active_connections 2 for the chat's port" "query_until '$SERIES' 2 30"
check "and accepted_connections 2" "query_until 'netcoreserver_accepted_connections_total{server_port=\"$PORT\"}' 2 30"

stop_server
check "the server exits 0" "[[ $? -eq 0 ]]"
[[ $FAILED -eq 0 ]] || { echo "--- prometheus"; tail -20 "$WORK/prometheus.txt"; }
finish test-hostedchat-prometheus
