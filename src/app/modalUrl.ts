// The open detail modals in the address: `?appointment=123` and `?client=45` (in stacking order), so a modal can be
// linked to, survives a reload, and the browser's Back closes it. The modal store stays the one way to open a modal;
// this keeps the store and the address in step both ways.
import { useEffect, useMemo, useRef } from 'react';
import { useSearchParams } from 'wouter';
import { urlParam } from '../lib/urlState';
import { closeTopModal, openAppointmentModal, openClientModal, type ModalEntry } from './modalStore';

type ModalRef = { kind: ModalEntry['kind']; id: number };

const KEYS: Record<ModalRef['kind'], string> = { appointment: 'appointment', client: 'client' };
const KIND_OF_KEY = new Map(Object.entries(KEYS).map(([kind, key]) => [key, kind as ModalRef['kind']]));
/** Marks the history entries opening a modal added, so closing it can go back instead of adding another. */
const OPENED_HERE = 'roundsModal';

/** A record id as every page reads ids from the address. */
const recordId = urlParam.integer(null);

export function modalRefsFromSearch(params: URLSearchParams): ModalRef[] {
  const refs: ModalRef[] = [];
  for (const [key, value] of params) {
    const kind = KIND_OF_KEY.get(key);
    const id = kind && recordId.parse([value]);
    if (kind && typeof id === 'number') refs.push({ kind, id });
  }
  return refs;
}

const refOf = (entry: ModalEntry): ModalRef => ({ kind: entry.kind, id: entry.kind === 'client' ? entry.clientId : entry.appointmentId });
const sameRef = (a: ModalRef, b: ModalRef) => a.kind === b.kind && a.id === b.id;
const commonPrefix = (a: readonly ModalRef[], b: readonly ModalRef[]) => {
  let length = 0;
  while (length < a.length && length < b.length && sameRef(a[length], b[length])) length++;
  return length;
};
const sameRefs = (a: readonly ModalRef[], b: readonly ModalRef[]) => a.length === b.length && commonPrefix(a, b) === a.length;

function withRefs(params: URLSearchParams, refs: readonly ModalRef[]): URLSearchParams {
  const next = new URLSearchParams(params);
  for (const key of Object.values(KEYS)) next.delete(key);
  for (const ref of refs) next.append(KEYS[ref.kind], String(ref.id));
  return next;
}

/** Mounted once beside the modal host. */
export function useModalStackInUrl(stack: readonly ModalEntry[]): void {
  const [params, setParams] = useSearchParams();
  const fromUrl = useMemo(() => modalRefsFromSearch(params), [params]);
  const fromStack = useMemo(() => stack.map(refOf), [stack]);
  const last = useRef<{ url: readonly ModalRef[]; stack: readonly ModalRef[] }>({ url: [], stack: [] });
  // The host closes every modal when it unmounts: mounted again, it reopens what the address names.
  useEffect(() => () => void (last.current = { url: [], stack: [] }), []);

  useEffect(() => {
    const urlChanged = !sameRefs(fromUrl, last.current.url);
    const stackChanged = !sameRefs(fromStack, last.current.stack);
    last.current = { url: fromUrl, stack: fromStack };
    if (sameRefs(fromUrl, fromStack) || !(urlChanged || stackChanged)) return;
    if (urlChanged) {
      // A link, a reload, Back or Forward: the address says which modals are open.
      const keep = commonPrefix(fromStack, fromUrl);
      for (let index = fromStack.length; index > keep; index--) closeTopModal();
      for (const ref of fromUrl.slice(keep)) (ref.kind === 'client' ? openClientModal : openAppointmentModal)(ref.id);
      return;
    }
    // A modal was opened or closed in the page.
    const keep = commonPrefix(fromStack, fromUrl);
    const closedOne = fromStack.length === keep && fromUrl.length === keep + 1;
    if (closedOne && (window.history.state as Record<string, unknown> | null)?.[OPENED_HERE]) {
      window.history.back();
    } else {
      const opened = fromUrl.length === keep && fromStack.length > keep;
      setParams(withRefs(params, fromStack), opened ? { state: { [OPENED_HERE]: true } } : { replace: true });
    }
  }, [fromUrl, fromStack, params, setParams]);
}
