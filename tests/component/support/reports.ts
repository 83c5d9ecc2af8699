// What the report pages' tests share: the filters' reference lists, the queries a page sent to a report, and the
// files it downloaded (URL.createObjectURL watched; the browser's download itself is not started).
import { vi } from 'vitest';
import { http, HttpResponse } from 'msw';
import { api, received } from './fakeApi';

/** Practitioners (one inactive), one appointment type, no business locations. */
export const reportFilterHandlers = () => [
  http.get(api('/practitioners/all'), () => HttpResponse.json({ practitioners: [{ id: 7, full_name: 'Pat Nguyen', active: true }, { id: 8, full_name: 'Old Staff', active: false }] })),
  http.get(api('/appointment_types/all'), () => HttpResponse.json({ appointment_types: [{ id: 1, name: 'Home visit', duration: 60 }] })),
  http.get(api('/business_locations/all'), () => HttpResponse.json({ business_locations: [] })),
];

/** The query of each request the page made to /reports/`slug`, in order. */
export const reportRequests = (slug: string) =>
  received.filter((request) => request.path === `/api/reports/${slug}`).map((request) => new URLSearchParams(request.search ?? ''));

/** Watches downloads from now on (call it in beforeEach, with vi.restoreAllMocks afterwards): the files, in order. */
export function captureDownloads(): Blob[] {
  const saved: Blob[] = [];
  vi.spyOn(URL, 'createObjectURL').mockImplementation((blob) => {
    saved.push(blob as Blob);
    return 'blob:report';
  });
  vi.spyOn(URL, 'revokeObjectURL').mockImplementation(() => undefined);
  vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(() => undefined);
  return saved;
}
