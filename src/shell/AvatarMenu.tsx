import { useState } from 'react';
import { Menu, MenuButton, MenuHeading, MenuItem, MenuItems, MenuSection } from '@headlessui/react';
import { useMutation } from '@tanstack/react-query';
import { Link } from 'wouter';
import { useAuthSelector, useServices } from '../app/ServicesContext';
import { useStepOutbox } from '../entities/appointments/visitSteps';
import { plural } from '../lib/plural';
import { selectUser } from '../machines/auth';
import { Button } from '../ui/Button';
import { ConfirmDialog } from '../ui/ConfirmDialog';
import { Icon } from '../ui/Icon';

function initials(first: string, last: string): string {
  return `${first.charAt(0)}${last.charAt(0)}`.toUpperCase() || '?';
}

/**
 * Logging out with visit steps still waiting to send (taken without signal): they are kept on this phone for this user
 * (sent when they log in again), or sent first when there is signal.
 */
function StepsWaitingDialog({ onLogOut, onCancel }: { onLogOut: () => void; onCancel: () => void }) {
  const { stepOutbox } = useServices();
  const { waiting } = useStepOutbox();
  const online = typeof navigator === 'undefined' || navigator.onLine !== false;
  const send = useMutation({
    networkMode: 'always',
    mutationFn: () => stepOutbox.flush(),
    onSuccess: () => {
      if (stepOutbox.getSnapshot().waiting.length === 0) onLogOut();
    },
  });
  const notSent = send.isSuccess && waiting.length > 0;
  return (
    <ConfirmDialog
      open
      title={`${plural(waiting.length, 'step')} not sent yet`}
      message="Visit steps taken without signal wait on this phone. Send them before you log out, or log out and keep them here: they are sent when you log in again on this phone."
      confirmLabel="Log out, keep them on this phone"
      onConfirm={onLogOut}
      onCancel={onCancel}
    >
      {online && (
        <Button className="mt-4 w-full justify-center" disabled={send.isPending} onClick={() => send.mutate()}>
          {send.isPending ? 'Sending…' : 'Send them now, then log out'}
        </Button>
      )}
      {notSent && (
        <p role="alert" className="mt-2 text-sm text-rose-700 dark:text-rose-300">
          {plural(waiting.length, 'step')} could not be sent: the network did not answer. They stay on this phone.
        </p>
      )}
    </ConfirmDialog>
  );
}

export function AvatarMenu() {
  const { auth, navigate, stepOutbox } = useServices();
  const user = useAuthSelector(selectUser);
  const [askingAboutSteps, setAskingAboutSteps] = useState(false);
  const logOut = () => {
    setAskingAboutSteps(false);
    auth.send({ type: 'LOGOUT' });
    navigate('/login');
  };
  return (
    <>
      {askingAboutSteps && <StepsWaitingDialog onLogOut={logOut} onCancel={() => setAskingAboutSteps(false)} />}
      <Menu>
        <MenuButton className="flex size-11 items-center justify-center rounded-full bg-sky-700 text-sm font-semibold text-white focus:outline-none data-focus:ring-2 data-focus:ring-sky-500 data-focus:ring-offset-2 dark:ring-offset-slate-900">
          {/* The initials stand for the user; hidden from the name so that the visible text never contradicts it. */}
          <span aria-hidden="true">{user ? initials(user.first_name, user.last_name) : '?'}</span>
          <span className="sr-only">Open account menu</span>
        </MenuButton>
        <MenuItems anchor="bottom end" className="menu-panel w-52">
          <MenuSection>
            <MenuHeading className="px-3 pt-2 pb-1 text-xs font-semibold tracking-wide text-slate-500 uppercase dark:text-slate-400">
              My account
            </MenuHeading>
            {user && <p className="truncate px-3 pb-2 text-xs text-slate-500 dark:text-slate-400">{user.email}</p>}
            <MenuItem>
              <Link href="/settings/my-account" className="menu-item">
                <Icon name="settings" className="size-4" />
                Settings
              </Link>
            </MenuItem>
            <MenuItem>
              <button
                type="button"
                className="menu-item"
                onClick={() => {
                  if (stepOutbox.getSnapshot().waiting.length > 0) setAskingAboutSteps(true);
                  else logOut();
                }}
              >
                <Icon name="logout" className="size-4" />
                Logout
              </button>
            </MenuItem>
          </MenuSection>
        </MenuItems>
      </Menu>
    </>
  );
}
