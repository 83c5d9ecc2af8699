// The live desk's event stream (ADR 0022): a single-use ticket made for a signed-in user opens it; it then carries
// each committed change to the business's appointments that the user may see, so an open desk reads them again at once
// instead of at its next 15 s reading.
import type { ServerResponse } from 'node:http';
import { practitionerScope, type AuthContext } from '../../auth/access';
import { hashToken, newToken } from '../../auth/tokens';
import type { AppContext } from '../../http/context';
import { unauthenticated } from '../../http/errors';
import { LiveHub, type LiveEvent } from './hub';
import { insertTicket, takeTicket } from './repository';

/** How long a ticket opens a stream: long enough for the browser to connect, too short to be worth stealing. */
export const TICKET_TTL_MS = 30_000;
/** A comment this often keeps proxies and load balancers from closing an idle stream. */
export const KEEP_ALIVE_MS = 25_000;
/** A stream ends after this; the app asks for a new ticket (so a stream never outlives its session by long). */
export const STREAM_LIFETIME_MS = 15 * 60_000;

export const TICKET_REFUSED = 'This live desk ticket is unknown, used or expired: ask for a new one.';

const hubs = new WeakMap<AppContext, LiveHub>();

/** The process's hub for this app (one per context). */
export function liveHubOf(ctx: AppContext): LiveHub {
  let hub = hubs.get(ctx);
  if (!hub) {
    hub = new LiveHub(ctx.database, ctx.log);
    hubs.set(ctx, hub);
  }
  return hub;
}

/** Ends the open streams and stops listening: before the HTTP server closes, so open desks never hold it open. */
export async function closeLiveDesk(ctx: AppContext): Promise<void> {
  await hubs.get(ctx)?.close();
}

export async function createTicket(ctx: AppContext, auth: AuthContext): Promise<{ ticket: string; expires_at: string }> {
  const ticket = newToken();
  const expiresAt = new Date(Date.now() + TICKET_TTL_MS);
  await insertTicket(ctx.db, hashToken(ticket), { userId: auth.userId, businessAccountId: auth.businessAccountId, practitionerIds: practitionerScope(auth) }, expiresAt);
  return { ticket, expires_at: expiresAt.toISOString() };
}

/** Takes the ticket (401 when it cannot open a stream) and streams the holder's events on `response` until it closes. */
export async function openStream(ctx: AppContext, ticket: string, response: ServerResponse, headers: Record<string, string>): Promise<void> {
  const holder = await takeTicket(ctx.db, hashToken(ticket), new Date());
  if (!holder) throw unauthenticated(TICKET_REFUSED);
  response.writeHead(200, {
    ...headers,
    'content-type': 'text/event-stream; charset=utf-8',
    'cache-control': 'no-store',
    // Proxies that buffer answers (nginx) would hold the events back.
    'x-accel-buffering': 'no',
  });
  response.write(': live\n\n');
  const end = () => {
    cleanUp();
    response.end();
  };
  const remove = liveHubOf(ctx).open(holder, (event: LiveEvent) => response.write(`event: visits\ndata: ${JSON.stringify(event)}\n\n`), end);
  const keepAlive = setInterval(() => response.write(': keep-alive\n\n'), KEEP_ALIVE_MS);
  const lifetime = setTimeout(end, STREAM_LIFETIME_MS);
  function cleanUp() {
    remove();
    clearInterval(keepAlive);
    clearTimeout(lifetime);
  }
  response.on('close', cleanUp);
}
