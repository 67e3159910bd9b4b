#!/usr/bin/env python3
"""A minimal WebSocket client for test-hostedchat.sh (the standard library has none): connects, sends one text
message, prints each text message it receives as "TEXT <msg>", signals readiness with READY, and on a close frame
prints "CLOSE <status>", answers it and exits. Usage: hostedchat-client.py PORT MESSAGE."""
import base64, os, socket, struct, sys

port, message = int(sys.argv[1]), sys.argv[2].encode()
sock = socket.create_connection(("127.0.0.1", port), timeout=30)
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
    masked = bytes(b ^ mask[i % 4] for i, b in enumerate(payload))
    return bytes([0x80 | opcode, 0x80 | len(payload)]) + mask + masked

def read(n):
    global buffer
    while len(buffer) < n:
        chunk = sock.recv(4096)
        if not chunk:
            sys.exit("connection closed without a close frame")
        buffer += chunk
    data, buffer = buffer[:n], buffer[n:]
    return data

sock.sendall(frame(1, message))
print("READY", flush=True)
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
        print("TEXT " + payload.decode(), flush=True)
    elif opcode == 8:
        status = struct.unpack(">H", payload[:2])[0] if len(payload) >= 2 else 1005
        print(f"CLOSE {status}", flush=True)
        sock.sendall(frame(8, payload[:2]))
        sock.close()
        sys.exit(0)
