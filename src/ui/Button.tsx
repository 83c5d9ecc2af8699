// The app's buttons: a filled primary action, an outlined secondary one or a quiet ghost one, each also in red for
// an action that destroys something, in three sizes. With `href` it is a link that looks like a button (wouter's
// Link for a path in the app).
import type { ComponentPropsWithRef } from 'react';
import { Spinner } from './Spinner';
import { AppLink, type AnchorProps } from './TextLink';

// Each look in the accent (or neutral) colour and, for an action that destroys something, in red.
const variants = {
  primary: {
    normal: 'bg-sky-700 text-white shadow-sm hover:bg-sky-800',
    danger: 'bg-rose-600 text-white shadow-sm hover:bg-rose-700',
  },
  secondary: {
    normal: 'border border-slate-300 hover:bg-slate-50 dark:border-slate-600 dark:hover:bg-slate-800',
    danger: 'border border-rose-300 text-rose-700 hover:bg-rose-50 dark:border-rose-800 dark:text-rose-300 dark:hover:bg-rose-950',
  },
  ghost: {
    normal: 'text-slate-600 hover:bg-slate-100 hover:text-slate-900 dark:text-slate-300 dark:hover:bg-slate-800 dark:hover:text-white',
    danger: 'text-rose-700 hover:bg-rose-50 dark:text-rose-300 dark:hover:bg-rose-950',
  },
} as const;

const sizes = {
  xs: 'px-2.5 py-1 text-xs',
  sm: 'px-3 py-1.5 text-sm',
  md: 'px-4 py-2 text-sm',
} as const;

export type ButtonVariant = keyof typeof variants;
export type ButtonSize = keyof typeof sizes;

interface Look {
  variant?: ButtonVariant;
  /** Deletes, disconnects or cancels something: the look in red. */
  danger?: boolean;
  size?: ButtonSize;
  /** Added to the button's own classes: layout (width, margins), never another colour or size. */
  className?: string;
}

type ButtonProps = Look &
  ComponentPropsWithRef<'button'> & {
    href?: undefined;
    /** Waiting for what it started: disabled, with a spinner and a waiting pointer. */
    busy?: boolean;
  };

type ButtonLinkProps = Look & AnchorProps;

function buttonClasses({ variant = 'primary', danger = false, size = 'md', className }: Look, busy = false): string {
  return [
    'inline-flex items-center justify-center gap-2 rounded-md focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-sky-600',
    variants[variant][danger ? 'danger' : 'normal'],
    sizes[size],
    // A filled button, and any button of the page-sized kind, in the heavier weight.
    variant === 'primary' || size === 'md' ? 'font-semibold' : 'font-medium',
    busy ? 'disabled:cursor-wait disabled:opacity-70' : 'disabled:cursor-not-allowed disabled:opacity-60',
    className,
  ]
    .filter(Boolean)
    .join(' ');
}

export function Button(props: ButtonProps | ButtonLinkProps) {
  if (props.href !== undefined) {
    const { variant, danger, size, className, ...anchor } = props;
    return <AppLink {...anchor} className={buttonClasses({ variant, danger, size, className })} />;
  }
  const { variant, danger, size, className, busy = false, type = 'button', disabled, children, ...button } = props;
  return (
    <button type={type} disabled={disabled || busy} {...button} className={buttonClasses({ variant, danger, size, className }, busy)}>
      {busy && <Spinner className={size === 'xs' ? 'size-3' : 'size-4'} />}
      {children}
    </button>
  );
}
