// One process's open desks and the database's notifications of changed appointments (channel rounds_live, sent by
// the trigger of migration 0097 at each commit, from any process): each notification goes to the open streams of its
// business that may see its practitioner. The process listens only while a stream is open.
import type { Database } from '../../db/client';
import type { TicketHolder } from './repository';

export const LIVE_CHANNEL = 'rounds_live';

/**
 * Open streams one user may hold in a process (a desk per tab or screen): the next one ends their oldest, so a login
 * cannot pile up connections.
 */
export const MAX_STREAMS_PER_USER = 5;

/** What an open desk is told: a visit's state changed (step), or the business's appointments did. */
export interface LiveEvent {
  kind: 'step' | 'appointments';
  practitioner_id: number;
  appointment_id: number | null;
}

interface Notification { b: number; p: number; a?: number; k: LiveEvent['kind'] }

interface Stream {
  holder: TicketHolder;
  send(event: LiveEvent): void;
  end(): void;
}

export class LiveHub {
  private readonly streams = new Set<Stream>();
  private listening: Promise<() => Promise<void>> | null = null;

  constructor(private readonly database: Database, private readonly log: { warn(object: unknown, message: string): void }) {}

  /** Adds an open stream; answers the function that removes it. */
  open(holder: TicketHolder, send: Stream['send'], end: Stream['end']): () => void {
    const stream: Stream = { holder, send, end };
    const own = [...this.streams].filter((open) => open.holder.userId === holder.userId);
    for (const oldest of own.slice(0, Math.max(0, own.length - MAX_STREAMS_PER_USER + 1))) oldest.end();
    this.streams.add(stream);
    this.listening ??= this.database.listen(LIVE_CHANNEL, (payload) => this.deliver(payload));
    this.listening.catch((error: unknown) => {
      this.log.warn({ err: error }, 'the live desk could not listen for changes; open desks fall back to reading every 15 s');
      this.listening = null;
    });
    return () => {
      this.streams.delete(stream);
    };
  }

  /** Ends every open stream and stops listening (the server is closing). */
  async close(): Promise<void> {
    for (const stream of this.streams) stream.end();
    this.streams.clear();
    const stop = await this.listening?.catch(() => null);
    this.listening = null;
    await stop?.();
  }

  private deliver(payload: string): void {
    let notification: Notification;
    try {
      notification = JSON.parse(payload) as Notification;
    } catch {
      return;
    }
    const event: LiveEvent = { kind: notification.k, practitioner_id: notification.p, appointment_id: notification.a ?? null };
    for (const stream of this.streams) {
      const { businessAccountId, practitionerIds } = stream.holder;
      if (businessAccountId !== notification.b) continue;
      if (practitionerIds && !practitionerIds.includes(notification.p)) continue;
      stream.send(event);
    }
  }
}
