// The live desk's push: while a desk shows today (the day schedule, the list, the dashboard), the server's event
// stream (GET /live/events) says at once that a visit's step or the business's appointments changed, and the queries
// showing them are read again — within a second or two instead of at the next 15 s reading, which stays as the
// fallback (no EventSource, the stream down, changes missed while it reconnects). An EventSource cannot send the
// session's header, so each connection first asks for a single-use ticket (ADR 0022).
import { useEffect } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { defaultBaseUrl } from '../../api/client';
import { useServices } from '../../app/ServicesContext';
import { createLiveTicket } from './api';
import { appointmentQueries } from './queries';

/** How long a stream that failed (or a ticket that could not be had) waits before trying again. */
export const LIVE_RECONNECT_MS = 5_000;
/** Events this close together (an import, a week's run applied) are read once. */
const COALESCE_MS = 250;

/** An event of the stream: a visit's state changed (step), or the business's appointments did. */
interface LiveEvent {
  kind: 'step' | 'appointments';
  practitioner_id: number;
  appointment_id: number | null;
}

/** While `live`, keeps a stream open and reads again what each event changes (every appointments list, and the visit's details). */
export function useLiveDesk(live: boolean): void {
  const { api } = useServices();
  const queryClient = useQueryClient();
  useEffect(() => {
    if (!live || typeof EventSource === 'undefined') return undefined;
    let source: EventSource | null = null;
    let stopped = false;
    let opened = false;
    let retry: ReturnType<typeof setTimeout> | undefined;
    let pending: ReturnType<typeof setTimeout> | undefined;
    const visits = new Set<number>();

    const readAgain = () => {
      pending = undefined;
      // The lists' prefix holds the day's list, its travel and problems, and the dashboard.
      void queryClient.invalidateQueries({ queryKey: appointmentQueries.lists() });
      for (const id of visits) void queryClient.invalidateQueries({ queryKey: [...appointmentQueries.details(), id] });
      visits.clear();
    };
    const onEvent = (message: MessageEvent<string>) => {
      const event = JSON.parse(message.data) as LiveEvent;
      if (event.appointment_id !== null) visits.add(event.appointment_id);
      pending ??= setTimeout(readAgain, COALESCE_MS);
    };
    const later = () => {
      if (!stopped) retry = setTimeout(() => void connect(), LIVE_RECONNECT_MS);
    };
    async function connect() {
      let ticket: string;
      try {
        ticket = await createLiveTicket(api);
      } catch {
        later();
        return;
      }
      if (stopped) return;
      source = new EventSource(`${defaultBaseUrl()}/live/events?ticket=${encodeURIComponent(ticket)}`);
      source.addEventListener('visits', onEvent as EventListener);
      source.addEventListener('open', () => {
        // Back after a gap: what changed meanwhile was not told.
        if (opened) pending ??= setTimeout(readAgain, COALESCE_MS);
        opened = true;
      });
      // The ticket was used: the browser's own retry would be refused, so a new ticket opens the next stream.
      source.addEventListener('error', () => {
        source?.close();
        source = null;
        later();
      });
    }
    void connect();
    return () => {
      stopped = true;
      clearTimeout(retry);
      clearTimeout(pending);
      source?.close();
    };
  }, [live, api, queryClient]);
}
