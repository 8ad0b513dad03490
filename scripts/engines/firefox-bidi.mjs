#!/usr/bin/env node
// Playwright's `executablePath` for Debian's firefox-esr. Playwright's moz-firefox channel speaks
// WebDriver BiDi to the browser and, on every new context and page, sends
// `emulation.setMediaFeaturesOverride`, which Firefox ESR does not implement yet: the context fails
// with "unknown command". This launcher starts the real Firefox with the arguments Playwright gave,
// puts a WebSocket relay in front of its BiDi endpoint and answers only the commands listed in
// NOT_IN_ESR itself (as successes that change nothing: no test emulates media features); every
// other message passes through unchanged, so what is tested is Firefox's own behaviour.
import { spawn } from 'node:child_process';
import { WebSocket, WebSocketServer } from 'ws';

const NOT_IN_ESR = new Set(['emulation.setMediaFeaturesOverride']);
const firefox = process.env.FIREFOX_PATH ?? '/usr/bin/firefox-esr';

const child = spawn(firefox, process.argv.slice(2), { stdio: ['ignore', 'inherit', 'pipe'] });
for (const signal of ['SIGTERM', 'SIGINT', 'SIGHUP']) process.on(signal, () => child.kill(signal));
child.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));

let announced = false;
let buffered = '';
child.stderr.on('data', (chunk) => {
  if (announced) return void process.stderr.write(chunk);
  buffered += chunk.toString();
  const match = buffered.match(/WebDriver BiDi listening on (ws:\/\/\S+)/);
  if (!match) return;
  announced = true;
  const upstream = match[1].replace(/\/$/, '');
  const relay = new WebSocketServer({ host: '127.0.0.1', port: 0 }, () => {
    const { port } = /** @type {import('node:net').AddressInfo} */ (relay.address());
    process.stderr.write(buffered.replace(match[1], `ws://127.0.0.1:${port}`));
  });
  relay.on('connection', (client, request) => bridge(client, `${upstream}${request.url ?? ''}`));
});

/** @param {WebSocket} client @param {string} url */
function bridge(client, url) {
  const server = new WebSocket(url, { perMessageDeflate: false, maxPayload: 256 * 1024 * 1024 });
  /** @type {string[]} */
  const early = [];
  server.on('open', () => {
    for (const message of early.splice(0)) server.send(message);
  });
  client.on('message', (data) => {
    const text = data.toString();
    const { id, method } = JSON.parse(text);
    if (NOT_IN_ESR.has(method)) return void client.send(JSON.stringify({ type: 'success', id, result: {} }));
    if (server.readyState === WebSocket.OPEN) server.send(text);
    else early.push(text);
  });
  server.on('message', (data) => client.send(data.toString()));
  const closeBoth = () => {
    client.close();
    server.close();
  };
  client.on('close', closeBoth);
  server.on('close', closeBoth);
  client.on('error', closeBoth);
  server.on('error', closeBoth);
}
