# Sourced by the process tests that must tell a server its port before it binds it (never run by itself).
# shellcheck shell=bash
# free_port [TAKEN...]: a loopback port nothing is bound to and not one of TAKEN, below the kernel's ephemeral range: a
# port the kernel picked could be taken again by a client socket of a parallel test before the server binds it.
free_port() {
    python3 - "$@" <<'PY'
import random, socket, sys
low = int(open("/proc/sys/net/ipv4/ip_local_port_range").read().split()[0])
low = low if low > 20100 else 32768
for _ in range(200):
    port = random.randrange(20000, low)
    if str(port) in sys.argv[1:]:
        continue
    try:
        socket.socket().bind(("127.0.0.1", port))
        break
    except OSError:
        pass
else:
    sys.exit("free_port: no free port below %d after 200 tries" % low)
print(port)
PY
}
