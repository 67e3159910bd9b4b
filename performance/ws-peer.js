#!/usr/bin/env node
// The benchmark suite's WebSocket peer: a server made of the npm `ws` package with its defaults (no
// permessage-deflate), what a Node.js user would run instead of ours.
//
//   node ws-peer.js --port N [--address 127.0.0.1] [--lifetime S] [--modules DIR] [--pfx FILE --password P]
//                   [--multicast SIZE]
//
// Echo (the default): every message goes back as it came. --multicast SIZE: every connection gets an endless stream
// of SIZE-byte binary messages, as fast as its socket takes them (what MulticastClient counts). --pfx serves wss
// with that PKCS#12 certificate. --modules names the folder whose node_modules holds ws (the suite installs it
// under its output folder). Prints "node ws (echo|multicast) listening on ADDRESS:PORT"; stops on SIGTERM or after
// --lifetime seconds (default 300).
'use strict';

const fs = require('fs');
const http = require('http');
const https = require('https');
const path = require('path');

function parse(argv) {
    const options = { port: 0, address: '127.0.0.1', lifetime: 300, modules: null, pfx: null, password: '', multicast: 0 };
    const numbers = new Set(['port', 'lifetime', 'multicast']);
    for (let i = 0; i < argv.length; i += 2) {
        const name = argv[i].replace(/^--/, '');
        if (!argv[i].startsWith('--') || !(name in options) || i + 1 >= argv.length) {
            console.error(`ws-peer.js: bad argument '${argv[i]}'`);
            process.exit(2);
        }
        options[name] = numbers.has(name) ? Number(argv[i + 1]) : argv[i + 1];
    }
    if (!Number.isInteger(options.port) || options.port < 0 || options.port > 65535
        || !Number.isInteger(options.multicast) || options.multicast < 0 || !(options.lifetime > 0)) {
        console.error('ws-peer.js: --port 0..65535, --multicast SIZE >= 0, --lifetime > 0');
        process.exit(2);
    }
    return options;
}

const options = parse(process.argv.slice(2));
const { WebSocketServer, WebSocket } = require(options.modules ? path.join(path.resolve(options.modules), 'node_modules', 'ws') : 'ws');

const server = options.pfx
    ? https.createServer({ pfx: fs.readFileSync(options.pfx), passphrase: options.password })
    : http.createServer();
const sockets = new WebSocketServer({ server });

// ws writes every frame with a write call of its own, over plain TCP one syscall per message: corking the socket for
// the rest of the tick sends every frame of a batch (or every echo of one read) in one writev, as a tuned app would.
// ws keeps its socket in _socket, not a documented field but stable across ws 8.
function corkForTick(socket) {
    const raw = socket._socket;
    if (!raw || raw.writableCorked > 0)
        return;
    raw.cork();
    process.nextTick(() => raw.uncork());
}

// A batch of sends, the last with a callback that starts the next once the batch has gone to the kernel: the
// stream never waits on an empty socket, and the process never queues more than one batch per connection. The
// next batch waits for setImmediate: a write that completes at once calls back on the same tick, and a chain of
// those would starve accepting and every other connection.
const Batch = 256;
const message = Buffer.alloc(options.multicast, 'm');
function pump(socket) {
    if (socket.readyState !== WebSocket.OPEN)
        return;
    corkForTick(socket);
    for (let i = 1; i < Batch; i++)
        socket.send(message, { binary: true });
    socket.send(message, { binary: true }, (error) => {
        if (!error)
            setImmediate(pump, socket);
    });
}

sockets.on('connection', (socket) => {
    socket.on('error', () => socket.terminate());
    if (options.multicast > 0) {
        pump(socket);
    } else {
        socket.on('message', (data, isBinary) => {
            corkForTick(socket);
            socket.send(data, { binary: isBinary });
        });
    }
});

server.listen(options.port, options.address, () => {
    const { address, port } = server.address();
    console.log(`node ws (${options.multicast > 0 ? 'multicast' : 'echo'}) listening on ${address}:${port}`);
});
process.on('SIGTERM', () => process.exit(0));
setTimeout(() => process.exit(0), options.lifetime * 1000);
