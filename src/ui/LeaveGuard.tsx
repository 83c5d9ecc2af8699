// The one unsaved-changes guard of the settings forms: while `unsaved`, following a link inside the app (the sidebar,
// the header, a link on the page) asks "Discard unsaved changes?" first, and reloading or leaving the site gets the
// browser's own question.
import { useEffect, useState } from 'react';
import { useLocation } from 'wouter';
import { ConfirmDialog } from './ConfirmDialog';
import { useLeaveWarning } from './forms';

export const DISCARD_TITLE = 'Discard unsaved changes?';

/** The in-app address a plain click on this element would open, or null (another site, a new tab, not a link). */
function inAppTarget(event: MouseEvent): string | null {
  if (event.defaultPrevented || event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return null;
  const link = event.target instanceof Element ? event.target.closest('a[href]') : null;
  if (!(link instanceof HTMLAnchorElement) || (link.target && link.target !== '_self') || link.hasAttribute('download')) return null;
  const url = new URL(link.href, window.location.href);
  if (url.origin !== window.location.origin) return null;
  const to = `${url.pathname}${url.search}${url.hash}`;
  return to === `${window.location.pathname}${window.location.search}${window.location.hash}` ? null : to;
}

export function LeaveGuard({ unsaved }: { unsaved: boolean }) {
  const [, navigate] = useLocation();
  const [leavingTo, setLeavingTo] = useState<string | null>(null);
  useLeaveWarning(unsaved);
  useEffect(() => {
    if (!unsaved) return;
    // Before the app's own link handlers (the capture phase on the document), so the page stays until the answer.
    const ask = (event: MouseEvent) => {
      const to = inAppTarget(event);
      if (to === null) return;
      event.preventDefault();
      event.stopPropagation();
      setLeavingTo(to);
    };
    document.addEventListener('click', ask, true);
    return () => document.removeEventListener('click', ask, true);
  }, [unsaved]);

  return (
    <ConfirmDialog
      open={leavingTo !== null}
      title={DISCARD_TITLE}
      message="The changes on this page have not been saved. Leave the page and lose them?"
      confirmLabel="Discard changes"
      cancelLabel="Keep editing"
      danger
      onCancel={() => setLeavingTo(null)}
      onConfirm={() => {
        setLeavingTo(null);
        if (leavingTo) navigate(leavingTo);
      }}
    />
  );
}
