// A length-prefixed message client written with Node's own net module, for the framing interop test: it sends
// --count messages of random sizes (up to --max bytes), each behind a 4-byte big-endian length, cut into random
// pieces across writes, reads the echoed messages back the same way, and prints one JSON line:
// {"sent":N,"received":N,"mismatches":N}. Exits 1 when anything is missing or different, 2 on a timeout.
'use strict';
const net = require('net');
const crypto = require('crypto');

const args = process.argv.slice(2);
const option = (name, fallback) => {
  const i = args.indexOf(`--${name}`);
  return i >= 0 ? args[i + 1] : fallback;
};
const port = Number(option('port'));
const count = Number(option('count', '500'));
const max = Number(option('max', '3000'));
const timeout = Number(option('timeout', '30'));

const messages = Array.from({ length: count }, () => crypto.randomBytes(Math.floor(Math.random() * (max + 1))));
const wire = Buffer.concat(messages.flatMap((m) => {
  const header = Buffer.alloc(4);
  header.writeUInt32BE(m.length);
  return [header, m];
}));

let pending = Buffer.alloc(0);
let received = 0;
let mismatches = 0;
const timer = setTimeout(() => {
  console.log(JSON.stringify({ sent: count, received, mismatches, timeout: true }));
  process.exit(2);
}, timeout * 1000);

const socket = net.connect(port, '127.0.0.1', () => {
  // Random pieces, each its own write, so the server sees messages split and joined every way.
  let offset = 0;
  const next = () => {
    if (offset >= wire.length)
      return;
    const size = 1 + Math.floor(Math.random() * 700);
    const piece = wire.subarray(offset, Math.min(offset + size, wire.length));
    offset += piece.length;
    if (socket.write(piece))
      setImmediate(next);
    else
      socket.once('drain', next);
  };
  next();
});

socket.on('data', (chunk) => {
  pending = Buffer.concat([pending, chunk]);
  while (pending.length >= 4) {
    const length = pending.readUInt32BE(0);
    if (pending.length < 4 + length)
      break;
    const message = pending.subarray(4, 4 + length);
    if (received >= count || !message.equals(messages[received]))
      mismatches++;
    received++;
    pending = pending.subarray(4 + length);
  }
  if (received >= count) {
    clearTimeout(timer);
    console.log(JSON.stringify({ sent: count, received, mismatches }));
    socket.end();
    process.exitCode = mismatches === 0 && received === count ? 0 : 1;
  }
});

socket.on('error', (error) => {
  console.log(JSON.stringify({ sent: count, received, mismatches, error: error.message }));
  process.exit(1);
});
