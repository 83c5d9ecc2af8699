import { Menu, MenuButton, MenuItem, MenuItems } from '@headlessui/react';
import { useServices, useThemeSelector } from '../app/ServicesContext';
import { selectTheme, type Theme } from '../machines/theme';
import { Icon } from '../ui/Icon';

const OPTIONS: { theme: Theme; label: string }[] = [
  { theme: 'light', label: 'Light' },
  { theme: 'dark', label: 'Dark' },
  { theme: 'auto', label: 'Auto' },
];

export function ThemeMenu() {
  const { theme: themeActor } = useServices();
  const current = useThemeSelector(selectTheme);
  return (
    <Menu>
      <MenuButton
        aria-label={`Theme: ${OPTIONS.find((option) => option.theme === current)!.label}`}
        className="inline-flex size-11 items-center justify-center rounded-md text-slate-500 hover:bg-slate-100 hover:text-slate-900 focus:outline-none data-focus:ring-2 data-focus:ring-sky-500 dark:text-slate-400 dark:hover:bg-slate-800 dark:hover:text-white"
      >
        <Icon name={current} />
      </MenuButton>
      <MenuItems anchor="bottom end" className="menu-panel w-36">
        {OPTIONS.map((option) => (
          <MenuItem key={option.theme}>
            <button
              type="button"
              onClick={() => themeActor.send({ type: 'SET_THEME', theme: option.theme })}
              className="menu-item"
              data-selected={current === option.theme}
            >
              <Icon name={option.theme} className="size-4" />
              <span className="flex-1 text-left">{option.label}</span>
              {current === option.theme && <Icon name="check" className="size-4 text-sky-600 dark:text-sky-400" />}
            </button>
          </MenuItem>
        ))}
      </MenuItems>
    </Menu>
  );
}
