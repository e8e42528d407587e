import type { AddressInfo } from 'node:net';
import { Socket, connect } from 'node:net';
import { expect } from 'chai';
import express from 'express';
import { createHttpServer } from '../../../infra/http/server.ts';
import { type TestApp, startTestApp } from '../../support/api.ts';

/** A client on a raw socket, so it can send a request as slowly as it likes. */
class SlowClient {
  private received = '';
  private readonly opened = Date.now();
  closedAfterMs: number | undefined;
  private readonly socket: Socket;
  private readonly closed: Promise<void>;
  private trickle: NodeJS.Timeout | undefined;

  constructor(url: string) {
    const { hostname, port } = new URL(url);
    this.socket = connect(Number(port), hostname);
    this.socket.setEncoding('utf8');
    this.socket.on('data', (chunk: string) => (this.received += chunk));
    this.socket.on('error', () => {});
    this.closed = new Promise((done) =>
      this.socket.on('close', () => {
        this.closedAfterMs = Date.now() - this.opened;
        clearInterval(this.trickle);
        done();
      }),
    );
  }

  send(text: string): void {
    this.socket.write(text);
  }

  /** One more byte every `everyMs` until the server hangs up. */
  trickleBytes(everyMs: number, byte = ' '): void {
    this.trickle = setInterval(() => this.socket.writable && this.socket.write(byte), everyMs);
  }

  /** The text received once the server has hung up, or once `withinMs` passed (then the socket is dropped). */
  async closedWithin(withinMs: number): Promise<{ closedByServer: boolean; received: string }> {
    const timer = new Promise<boolean>((done) => setTimeout(() => done(false), withinMs));
    const closedByServer = await Promise.race([this.closed.then(() => true), timer]);
    if (!closedByServer) {
      clearInterval(this.trickle);
      this.socket.destroy();
    }
    return { closedByServer, received: this.received };
  }

  async responseText(): Promise<string> {
    while (!/\r\n\r\n[\s\S]*\}/.test(this.received)) await new Promise((done) => setTimeout(done, 10));
    const text = this.received;
    this.received = '';
    return text;
  }

  end(): void {
    this.socket.destroy();
  }
}

const REQUEST_MS = 600;
const HEADERS_MS = 300;

describe('http: server timeouts', () => {
  let app: TestApp;
  before(async () => {
    app = await startTestApp({}, undefined, { service: { httpTimeouts: { headersMs: HEADERS_MS, requestMs: REQUEST_MS } } });
  });
  after(() => app.close());

  it('given a client that trickles its body, then it is cut with a 408 once the request time is up', async () => {
    const client = new SlowClient(app.url);
    client.send('POST /auth/login HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\nContent-Length: 4000\r\n\r\n{');
    client.trickleBytes(50);
    const { closedByServer, received } = await client.closedWithin(REQUEST_MS + 10_000);
    expect(closedByServer, 'the server hung up').to.equal(true);
    expect(received).to.match(/^HTTP\/1\.1 408/);
    expect(client.closedAfterMs).to.be.at.least(REQUEST_MS - 50);
  });

  it('given a client that trickles its headers, then it is cut once the headers time is up', async () => {
    const client = new SlowClient(app.url);
    client.send('GET /auth/me HTTP/1.1\r\nHost: localhost\r\nX-Slow: ');
    client.trickleBytes(50, 'a');
    const { closedByServer, received } = await client.closedWithin(HEADERS_MS + 10_000);
    expect(closedByServer, 'the server hung up').to.equal(true);
    expect(received).to.match(/^HTTP\/1\.1 408/);
  });

  it('given a kept-alive connection idle for longer than the headers time, then its next request is served', async () => {
    const client = new SlowClient(app.url);
    const request = 'GET /auth/me HTTP/1.1\r\nHost: localhost\r\n\r\n';
    client.send(request);
    expect(await client.responseText()).to.match(/^HTTP\/1\.1 401/);
    await new Promise((done) => setTimeout(done, HEADERS_MS * 2));
    client.send(request);
    expect(await client.responseText()).to.match(/^HTTP\/1\.1 401/);
    client.end();
  });
});

describe('http: the request timeout only covers receiving the request', () => {
  it('given a response that streams for longer than the request time, then it arrives whole', async () => {
    const streaming = express();
    streaming.get('/stream', (_req, res) => {
      let sent = 0;
      const tick = setInterval(() => {
        res.write(`chunk ${sent}\n`);
        if (++sent === 8) {
          clearInterval(tick);
          res.end();
        }
      }, 100);
    });
    const server = createHttpServer(streaming, { headersMs: 200, requestMs: 300, keepAliveMs: 1000 });
    await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
    try {
      const res = await fetch(`http://127.0.0.1:${(server.address() as AddressInfo).port}/stream`);
      const body = await res.text();
      expect(body.trim().split('\n')).to.have.length(8);
    } finally {
      server.closeAllConnections();
      await new Promise((done) => server.close(done));
    }
  });
});
