import { createRef } from 'react';
import { describe, expect, it, vi } from 'vitest';
import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Button } from '../../src/ui/Button';
import { TextLink } from '../../src/ui/TextLink';

describe('TextLink', () => {
  it('goes to a path in the app without a page load, and leaves other addresses to the browser', async () => {
    const user = userEvent.setup();
    render(
      <>
        <TextLink href="/help">User guide</TextLink>
        <TextLink href="https://help.example.test/" target="_blank" rel="noreferrer">Help site</TextLink>
        <TextLink href="mailto:margaret@example.test">margaret@example.test</TextLink>
      </>,
    );
    expect(screen.getByRole('link', { name: 'Help site' })).toHaveAttribute('target', '_blank');
    expect(screen.getByRole('link', { name: 'margaret@example.test' })).toHaveAttribute('href', 'mailto:margaret@example.test');
    await user.click(screen.getByRole('link', { name: 'User guide' }));
    expect(window.location.pathname).toBe('/help');
  });

  it('without an address is a button that acts on the page and never submits its form', async () => {
    const user = userEvent.setup();
    const submit = vi.fn((event: Event) => event.preventDefault());
    const clear = vi.fn();
    render(
      <form onSubmit={(event) => submit(event.nativeEvent)}>
        <TextLink variant="muted" onClick={clear}>Clear dates</TextLink>
      </form>,
    );
    await user.click(screen.getByRole('button', { name: 'Clear dates' }));
    expect(clear).toHaveBeenCalledOnce();
    expect(submit).not.toHaveBeenCalled();
  });
});

describe('Button', () => {
  it('submits its form only when asked to, and hands its element to a ref', async () => {
    const user = userEvent.setup();
    const submit = vi.fn((event: Event) => event.preventDefault());
    const ref = createRef<HTMLButtonElement>();
    render(
      <form onSubmit={(event) => submit(event.nativeEvent)}>
        <Button variant="secondary" ref={ref}>Skip for now</Button>
        <Button type="submit">Save</Button>
      </form>,
    );
    await user.click(screen.getByRole('button', { name: 'Skip for now' }));
    expect(submit).not.toHaveBeenCalled();
    expect(ref.current).toBe(screen.getByRole('button', { name: 'Skip for now' }));
    await user.click(screen.getByRole('button', { name: 'Save' }));
    expect(submit).toHaveBeenCalledOnce();
  });

  it('while busy is disabled and cannot be pressed again', async () => {
    const user = userEvent.setup();
    const save = vi.fn();
    render(<Button busy onClick={save}>Save arrival time</Button>);
    const button = screen.getByRole('button', { name: 'Save arrival time' });
    expect(button).toBeDisabled();
    await user.click(button);
    expect(save).not.toHaveBeenCalled();
  });

  it('with an address is a link that looks like a button', async () => {
    const user = userEvent.setup();
    render(<Button href="/imports/add">New import</Button>);
    await user.click(screen.getByRole('link', { name: 'New import' }));
    expect(window.location.pathname).toBe('/imports/add');
  });
});
