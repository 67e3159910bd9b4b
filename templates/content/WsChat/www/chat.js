// One WebSocket to the server that served this page; every message received is listed, the input is sent as one
// text message, and a dropped connection is retried every second.
'use strict';

const statusText = document.getElementById('status');
const messages = document.getElementById('messages');
const input = document.getElementById('message');
const send = document.getElementById('send');
const url = (location.protocol === 'https:' ? 'wss://' : 'ws://') + location.host + '/';
let socket = null;

function setStatus(state) {
    statusText.textContent = state;
    input.disabled = send.disabled = state !== 'connected';
}

function show(text) {
    const item = document.createElement('li');
    item.textContent = text; // never innerHTML: what others type stays text
    messages.appendChild(item);
    messages.scrollTop = messages.scrollHeight;
}

function connect() {
    setStatus('connecting');
    socket = new WebSocket(url);
    socket.onopen = () => setStatus('connected');
    socket.onmessage = (event) => show(typeof event.data === 'string' ? event.data : '(binary message)');
    socket.onclose = (event) => {
        setStatus('disconnected');
        show(`(disconnected: ${event.code}; reconnecting)`);
        setTimeout(connect, 1000);
    };
}

document.getElementById('form').addEventListener('submit', (event) => {
    event.preventDefault();
    if (input.value.length > 0 && socket !== null && socket.readyState === WebSocket.OPEN) {
        socket.send(input.value);
        input.value = '';
    }
});

connect();
