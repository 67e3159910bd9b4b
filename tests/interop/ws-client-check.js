#!/usr/bin/env node
// The npm `ws` package's client against an echo server (ours, in the NUnit interop tests): one connection that
// sends a text message, a binary message, a large compressible text message and a ping, then closes with a status
// and a reason, and reports what came back, as one JSON object on standard output.
//
//   node ws-client-check.js URL [--deflate] [--ca CA.pem]
//
// --deflate offers permessage-deflate (the package's default offer); without it nothing is offered. --ca trusts that
// authority for wss:// (the server's certificate is verified against it, host name included). The report:
//   { "extensions": what the server accepted ("" for none), "protocol": the subprotocol,
//     "text": the echoed text, "textIsBinary": bool, "binary": hex of the echoed binary, "binaryIsBinary": bool,
//     "largeLength": length of the echoed large text, "largeMatches": bool, "pong": the pong's payload,
//     "closeCode": the server's close status, "closeReason": its reason, "events": every step in order }
// Exit code 0 when the whole exchange completed (whatever the values), 1 on an error or after 20 seconds.
'use strict';

const fs = require('fs');
const WebSocket = require('ws');

const args = process.argv.slice(2);
const url = args[0];
if (!url) {
    console.error('usage: node ws-client-check.js URL [--deflate] [--ca CA.pem]');
    process.exit(2);
}
const deflate = args.includes('--deflate');
const caIndex = args.indexOf('--ca');
const ca = caIndex >= 0 ? fs.readFileSync(args[caIndex + 1]) : undefined;

// What the test compares: a text with characters beyond ASCII, every byte value, and a large compressible text.
const TEXT = 'hello from ws, h\u00e9llo \u2713 \ud83d\ude00';
const BINARY = Buffer.from(Array.from({ length: 512 }, (_, i) => i % 256));
const LARGE = 'the quick brown fox jumps over the lazy dog. '.repeat(4000);
const PING = 'ping-42';

const report = { events: [] };
const socket = new WebSocket(url, ['chat'], { perMessageDeflate: deflate, ca });

const deadline = setTimeout(() => finish(1, 'no complete exchange within 20 s'), 20000);

function finish(code, error) {
    clearTimeout(deadline);
    if (error)
        report.error = error;
    process.stdout.write(JSON.stringify(report) + '\n', () => process.exit(code));
}

// Each step waits for the previous echo, so the order of the report is the order of the exchange.
const replies = [];
let waiting = null;
function next() {
    return new Promise((resolve) => {
        if (replies.length) resolve(replies.shift());
        else waiting = resolve;
    });
}
function deliver(reply) {
    report.events.push(reply.kind);
    if (waiting) {
        const resolve = waiting;
        waiting = null;
        resolve(reply);
    } else {
        replies.push(reply);
    }
}

socket.on('message', (data, isBinary) => deliver({ kind: isBinary ? 'binary' : 'text', data, isBinary }));
socket.on('pong', (data) => deliver({ kind: 'pong', data }));
socket.on('close', (code, reason) => {
    report.events.push('close');
    report.closeCode = code;
    report.closeReason = reason.toString('utf8');
    finish(0);
});
socket.on('error', (error) => finish(1, error.message));
socket.on('unexpected-response', (_, response) => finish(1, `handshake refused with HTTP ${response.statusCode}`));

socket.on('open', async () => {
    report.events.push('open');
    report.extensions = socket.extensions;
    report.protocol = socket.protocol;

    socket.send(TEXT);
    const text = await next();
    report.text = text.data.toString('utf8');
    report.textIsBinary = text.isBinary;

    socket.send(BINARY);
    const binary = await next();
    report.binary = Buffer.from(binary.data).toString('hex');
    report.binaryIsBinary = binary.isBinary;

    socket.send(LARGE);
    const large = await next();
    report.largeLength = large.data.length;
    report.largeMatches = large.data.toString('utf8') === LARGE;

    socket.ping(PING);
    const pong = await next();
    report.pong = pong.data.toString('utf8');

    socket.close(4000, 'done here');
});
