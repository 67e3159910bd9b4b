#!/usr/bin/env node
// A WebSocket echo server made of the npm `ws` package: the peer our WsClient/WssClient tests talk to, and the
// baseline of performance/ws-vs-node.sh. Every message goes back as it came (text as text, binary as binary).
//
//   node ws-echo-server.js [--port N] [--address A] [--deflate] [--tls CERT.pem KEY.pem] [--quiet] [--lifetime S]
//
// Prints "ws echo server listening on ADDRESS:PORT" once it accepts connections (port 0 picks a free one). Unless
// --quiet, it also prints one line per event, which the tests read to check what our client sent:
//   connected extensions=<Sec-WebSocket-Extensions it answered, or none>
//   text <n> <the text>         binary <n> <hex of the first 64 bytes>
//   ping <payload>              pong <payload>
//   close <code> <reason>
// Two text messages are commands instead of being echoed, so that a test can make this server act first:
//   "please-ping:PAYLOAD"           the server pings with PAYLOAD (the answer shows as a pong line)
//   "please-close:CODE:REASON"      the server starts the close handshake with CODE and REASON
// It stops on SIGTERM, SIGINT, or after --lifetime seconds (default 300), so a test or a benchmark that dies cannot
// leave it behind for long.
'use strict';

const fs = require('fs');
const http = require('http');
const https = require('https');
const { WebSocketServer } = require('ws');

function parse(argv) {
    const options = { port: 0, address: '127.0.0.1', deflate: false, tls: null, quiet: false, lifetime: 300 };
    for (let i = 0; i < argv.length; i++) {
        switch (argv[i]) {
            case '--port': options.port = Number(argv[++i]); break;
            case '--address': options.address = argv[++i]; break;
            case '--deflate': options.deflate = true; break;
            case '--tls': options.tls = { cert: argv[++i], key: argv[++i] }; break;
            case '--quiet': options.quiet = true; break;
            case '--lifetime': options.lifetime = Number(argv[++i]); break;
            default:
                console.error(`ws-echo-server.js: unknown argument '${argv[i]}'`);
                process.exit(2);
        }
    }
    if (!Number.isInteger(options.port) || options.port < 0 || options.port > 65535) {
        console.error('ws-echo-server.js: --port must be 0..65535');
        process.exit(2);
    }
    return options;
}

const options = parse(process.argv.slice(2));
const log = options.quiet ? () => {} : (line) => process.stdout.write(line + '\n');
const hex = (data) => Buffer.from(data).subarray(0, 64).toString('hex');

const web = options.tls
    ? https.createServer({ cert: fs.readFileSync(options.tls.cert), key: fs.readFileSync(options.tls.key) })
    : http.createServer();
// permessage-deflate with the package's defaults when asked for; off otherwise, so the client's offer is declined.
const server = new WebSocketServer({ server: web, perMessageDeflate: options.deflate, maxPayload: 64 * 1024 * 1024 });

server.on('connection', (socket) => {
    log(`connected extensions=${socket.extensions || 'none'}`);
    socket.on('message', (data, isBinary) => {
        if (!isBinary) {
            const text = data.toString('utf8');
            if (text.startsWith('please-ping:')) {
                socket.ping(text.slice('please-ping:'.length));
                return;
            }
            if (text.startsWith('please-close:')) {
                const [code, ...reason] = text.slice('please-close:'.length).split(':');
                socket.close(Number(code), reason.join(':'));
                return;
            }
            log(`text ${data.length} ${text.slice(0, 200)}`);
        } else {
            log(`binary ${data.length} ${hex(data)}`);
        }
        socket.send(data, { binary: isBinary });
    });
    socket.on('ping', (data) => log(`ping ${data.toString('utf8')}`));
    socket.on('pong', (data) => log(`pong ${data.toString('utf8')}`));
    socket.on('close', (code, reason) => log(`close ${code} ${reason.toString('utf8')}`));
    socket.on('error', (error) => log(`error ${error.message}`));
});

function stop() {
    for (const client of server.clients)
        client.terminate();
    server.close();
    web.close(() => process.exit(0));
    // Bounded: exit even if a connection keeps the listener from closing.
    setTimeout(() => process.exit(0), 2000).unref();
}

process.on('SIGTERM', stop);
process.on('SIGINT', stop);
setTimeout(stop, options.lifetime * 1000).unref();

web.listen(options.port, options.address, () => {
    const { address, port } = web.address();
    process.stdout.write(`ws echo server listening on ${address}:${port}\n`);
});
