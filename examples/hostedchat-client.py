#!/usr/bin/env python3
"""A minimal WebSocket client for the HostedChat tests (the standard library has none).

hostedchat-client.py PORT MESSAGE [--count N --size S] [--hold FIFO]

Connects, sends MESSAGE (with --count, N messages "MESSAGE i" padded to S bytes), prints each text message it receives
as "TEXT <msg>" (with --count only "RECEIVED N" once all N of its own came back), signals readiness with READY, and on
a close frame prints "COUNT <text messages received>" and "CLOSE <status>", answers it and exits. --hold makes a slow
consumer: a 4 KiB receive buffer, no message sent, and nothing read until a line can be read from FIFO."""
import base64, os, socket, struct, sys

args = sys.argv[1:]
port, message = int(args[0]), args[1].encode()
option = lambda name, default: args[args.index(name) + 1] if name in args else default
count, size, hold = int(option("--count", 1)), int(option("--size", 0)), option("--hold", None)

sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
if hold:
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
sock.settimeout(30)
sock.connect(("127.0.0.1", port))
key = base64.b64encode(os.urandom(16)).decode()
sock.sendall(f"GET / HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
             f"Sec-WebSocket-Key: {key}\r\nSec-WebSocket-Version: 13\r\n\r\n".encode())
buffer = b""
while b"\r\n\r\n" not in buffer:
    buffer += sock.recv(4096)
head, buffer = buffer.split(b"\r\n\r\n", 1)
if not head.startswith(b"HTTP/1.1 101"):
    sys.exit("no upgrade: " + head.decode(errors="replace"))

def frame(opcode, payload):
    mask = os.urandom(4)
    masked = (int.from_bytes(payload, "big") ^ int.from_bytes((mask * (len(payload) // 4 + 1))[:len(payload)], "big")).to_bytes(len(payload), "big")
    length = bytes([0x80 | len(payload)]) if len(payload) < 126 else bytes([0x80 | 126]) + struct.pack(">H", len(payload))
    return bytes([0x80 | opcode]) + length + mask + masked

def read(n):
    global buffer
    while len(buffer) < n:
        chunk = sock.recv(65536)
        if not chunk:
            sys.exit("connection closed without a close frame")
        buffer += chunk
    data, buffer = buffer[:n], buffer[n:]
    return data

if hold:
    print("READY", flush=True)
    with open(hold) as release:
        release.readline()
else:
    for i in range(count):
        text = message if count == 1 else f"{message.decode()} {i}".encode().ljust(size, b".")
        sock.sendall(frame(1, text))
    print("READY", flush=True)
received = own = 0
while True:
    first, second = read(2)
    length = second & 0x7F
    if length == 126:
        length = struct.unpack(">H", read(2))[0]
    elif length == 127:
        length = struct.unpack(">Q", read(8))[0]
    payload = read(length)
    opcode = first & 0x0F
    if opcode == 1:
        received += 1
        if count == 1:
            print("TEXT " + payload.decode(), flush=True)
        elif payload.startswith(message + b" "):
            own += 1
            if own == count:
                print(f"RECEIVED {own}", flush=True)
    elif opcode == 8:
        status = struct.unpack(">H", payload[:2])[0] if len(payload) >= 2 else 1005
        print(f"COUNT {received}", flush=True)
        print(f"CLOSE {status}", flush=True)
        sock.sendall(frame(8, payload[:2]))
        sock.close()
        sys.exit(0)
