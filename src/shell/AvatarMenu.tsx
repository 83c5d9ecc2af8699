import { Menu, MenuButton, MenuHeading, MenuItem, MenuItems, MenuSection } from '@headlessui/react';
import { Link } from 'wouter';
import { useAuthSelector, useServices } from '../app/ServicesContext';
import { selectUser } from '../machines/auth';
import { Icon } from '../ui/Icon';

function initials(first: string, last: string): string {
  return `${first.charAt(0)}${last.charAt(0)}`.toUpperCase() || '?';
}

export function AvatarMenu() {
  const { auth, navigate } = useServices();
  const user = useAuthSelector(selectUser);
  return (
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
                auth.send({ type: 'LOGOUT' });
                navigate('/login');
              }}
            >
              <Icon name="logout" className="size-4" />
              Logout
            </button>
          </MenuItem>
        </MenuSection>
      </MenuItems>
    </Menu>
  );
}
