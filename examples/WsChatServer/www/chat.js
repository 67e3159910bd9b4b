// The chat page's client: one WebSocket to the server that served this page (ws:// for http://, wss:// for
// https://), every message it receives appended to the list, the input sent as one text message. When the connection
// drops it tries again every second, as the console clients do.
'use strict';

const statusLine = document.getElementById('status');
const messages = document.getElementById('messages');
const form = document.getElementById('form');
const input = document.getElementById('message');
const button = document.getElementById('send');
const serverUrl = (location.protocol === 'https:' ? 'wss://' : 'ws://') + location.host + '/';
let socket = null;

function show(state) {
    statusLine.textContent = state;
    statusLine.className = state;
    input.disabled = button.disabled = state !== 'connected';
}

function append(text) {
    const item = document.createElement('li');
    // textContent, never innerHTML: what others type is shown as text, not run as markup.
    item.textContent = text;
    messages.appendChild(item);
    messages.scrollTop = messages.scrollHeight;
}

function connect() {
    show('connecting');
    socket = new WebSocket(serverUrl);
    socket.onopen = () => show('connected');
    socket.onmessage = (event) => {
        if (typeof event.data === 'string')
            append(event.data);
        else
            append(`(binary message of ${event.data.size} bytes)`);
    };
    socket.onclose = (event) => {
        show('disconnected');
        append(`(disconnected: ${event.code}${event.reason ? ' ' + event.reason : ''}; reconnecting)`);
        setTimeout(connect, 1000);
    };
}

form.addEventListener('submit', (event) => {
    event.preventDefault();
    const text = input.value;
    if (text.length === 0 || socket === null || socket.readyState !== WebSocket.OPEN)
        return;
    socket.send(text);
    input.value = '';
});

connect();
