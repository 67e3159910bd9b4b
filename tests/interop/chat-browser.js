#!/usr/bin/env node
// Headless Chromium (Debian's chromium, driven by playwright-core) on the chat page of our WsChatServer or
// WssChatServer: it loads the page, waits until the page's WebSocket is connected, types a message and sends it,
// then waits until the page shows every expected message (from someone else, or its own relayed back).
//
//   node chat-browser.js URL --send TEXT --expect TEXT [--expect TEXT...] [--timeout SECONDS] [--screenshot FILE.png]
//
// Prints, one line each, as they happen:
//   page connected                  the page's status says connected (the driving test may now send to it)
//   page sent TEXT                  the message was typed and sent
//   page saw TEXT                   the page lists an expected message (one line each)
//   page messages JSON              every message the page lists, in order, at the end
// The browser is /usr/bin/chromium unless CHROMIUM names another; it runs with --no-sandbox when run as root, where
// Chromium's sandbox cannot start. Certificate errors are ignored: the examples' authority is not one the browser
// knows. Exit code 0 when every expected message appeared, 1 otherwise (an error, or after --timeout, default 30 s).
'use strict';

const fs = require('fs');
const { chromium } = require('playwright-core');

function parse(argv) {
    const options = { url: argv[0], send: null, expect: [], timeout: 30, screenshot: null };
    for (let i = 1; i < argv.length; i++) {
        switch (argv[i]) {
            case '--send': options.send = argv[++i]; break;
            case '--expect': options.expect.push(argv[++i]); break;
            case '--timeout': options.timeout = Number(argv[++i]); break;
            case '--screenshot': options.screenshot = argv[++i]; break;
            default:
                console.error(`chat-browser.js: unknown argument '${argv[i]}'`);
                process.exit(2);
        }
    }
    if (!options.url || options.send === null || options.expect.length === 0) {
        console.error('usage: node chat-browser.js URL --send TEXT --expect TEXT [--expect TEXT...] [--timeout SECONDS] [--screenshot FILE.png]');
        process.exit(2);
    }
    return options;
}

const say = (line) => new Promise((resolve) => process.stdout.write(line + '\n', resolve));

async function main() {
    const options = parse(process.argv.slice(2));
    const executablePath = process.env.CHROMIUM || '/usr/bin/chromium';
    if (!fs.existsSync(executablePath)) {
        console.error(`chat-browser.js: no browser at ${executablePath} (apt-get install chromium)`);
        return 3;
    }
    const isRoot = typeof process.getuid === 'function' && process.getuid() === 0;
    const browser = await chromium.launch({
        executablePath,
        headless: true,
        args: isRoot ? ['--no-sandbox'] : [],
        timeout: options.timeout * 1000,
    });
    try {
        const context = await browser.newContext({ ignoreHTTPSErrors: true });
        const page = await context.newPage();
        page.setDefaultTimeout(options.timeout * 1000);
        page.on('console', (message) => console.error(`console ${message.type()}: ${message.text()}`));
        page.on('pageerror', (error) => console.error(`page error: ${error.message}`));

        await page.goto(options.url);
        await page.waitForSelector('#status.connected');
        await say('page connected');

        await page.fill('#message', options.send);
        await page.click('#send');
        await say(`page sent ${options.send}`);

        let found = true;
        for (const expected of options.expect) {
            try {
                await page.locator('#messages li', { hasText: expected }).first().waitFor();
                await say(`page saw ${expected}`);
            } catch (error) {
                found = false;
                console.error(`chat-browser.js: the page did not show '${expected}': ${error.message}`);
            }
        }
        const listed = await page.locator('#messages li').allTextContents();
        await say(`page messages ${JSON.stringify(listed)}`);
        if (options.screenshot)
            await page.screenshot({ path: options.screenshot });
        return found ? 0 : 1;
    } finally {
        await browser.close();
    }
}

// A hard bound on the whole run, whatever hangs: launching, loading or closing the browser.
const options = parse(process.argv.slice(2));
setTimeout(() => {
    console.error(`chat-browser.js: gave up after ${options.timeout * 2} s`);
    process.exit(1);
}, options.timeout * 2000).unref();

main().then((code) => process.exit(code), (error) => {
    console.error(`chat-browser.js: ${error.message}`);
    process.exit(1);
});
