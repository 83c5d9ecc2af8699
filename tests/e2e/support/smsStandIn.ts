// A stand-in for the SMS API on a loopback port, speaking what the product's adapter speaks (Twilio's Messages
// resource: POST {SMS_URL}/Accounts/{sid}/Messages.json, Basic auth with the account and token, a form body with To,
// From and Body), so end-to-end tests read the texts the product really sent. A request for another account, with
// other credentials or without a Body is refused as Twilio would (401 / 400) and not kept.
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface SentText { to: string; from: string; body: string }

export interface SmsStandIn {
  /** The product's environment for this stand-in (SMS_URL and its credentials). */
  env: Record<string, string>;
  /** The texts accepted, oldest first. */
  texts(): SentText[];
  close(): Promise<void>;
}

export async function startSmsStandIn(account = { sid: 'ACe2e0000000000000000000000000000', token: 'e2e-sms-token', from: '+61400000999' }): Promise<SmsStandIn> {
  const texts: SentText[] = [];
  const expectedAuth = `Basic ${Buffer.from(`${account.sid}:${account.token}`).toString('base64')}`;
  const answer = (response: ServerResponse, status: number, body: object) => {
    response.writeHead(status, { 'content-type': 'application/json' });
    response.end(JSON.stringify(body));
  };
  const server = createServer((request: IncomingMessage, response) => {
    let raw = '';
    request.setEncoding('utf8');
    request.on('data', (chunk: string) => { raw += chunk; });
    request.on('end', () => {
      if (request.method !== 'POST' || request.url !== `/2010-04-01/Accounts/${account.sid}/Messages.json`) {
        answer(response, 404, { code: 20404, message: 'The requested resource was not found', status: 404 });
        return;
      }
      if (request.headers.authorization !== expectedAuth) {
        answer(response, 401, { code: 20003, message: 'Authenticate', status: 401 });
        return;
      }
      const form = new URLSearchParams(raw);
      const [to, from, body] = [form.get('To'), form.get('From'), form.get('Body')];
      if (!/application\/x-www-form-urlencoded/.test(request.headers['content-type'] ?? '') || !to || !from || !body) {
        answer(response, 400, { code: 21604, message: "A 'To', 'From' and 'Body' are required.", status: 400 });
        return;
      }
      texts.push({ to, from, body });
      answer(response, 201, { sid: `SM${String(texts.length).padStart(32, '0')}`, to, from, body, status: 'queued' });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    env: { SMS_URL: `http://127.0.0.1:${port}/2010-04-01`, SMS_ACCOUNT_SID: account.sid, SMS_AUTH_TOKEN: account.token, SMS_FROM: account.from },
    texts: () => [...texts],
    close: () => new Promise((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    }),
  };
}
