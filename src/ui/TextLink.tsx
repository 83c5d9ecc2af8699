// Text that reads as a link: wouter's Link for a path in the app, a plain anchor for anything else (another site,
// tel:, mailto:), or a button when it does something on this page instead of going somewhere.
import type { ComponentPropsWithRef } from 'react';
import { Link } from 'wouter';

/** A path in this app ("/help"), which wouter navigates to without a page load; not "//host/…" or another scheme. */
export const isInAppPath = (href: string) => href.startsWith('/') && !href.startsWith('//');

export type AnchorProps = ComponentPropsWithRef<'a'> & { href: string };

/** An anchor that wouter handles when `href` is a path in the app. */
export function AppLink({ href, ...anchor }: AnchorProps) {
  return isInAppPath(href) ? <Link href={href} {...anchor} /> : <a href={href} {...anchor} />;
}

const variants = {
  /** On its own: underlined under the pointer. */
  accent: 'text-sky-700 hover:underline dark:text-sky-400',
  /** Inside a sentence: always underlined, so it stands out from the words around it. */
  prose: 'font-medium text-sky-700 underline hover:text-sky-900 dark:text-sky-400 dark:hover:text-sky-300',
  /** A quiet way out beside a main action ("Clear dates", "Keep the defaults and continue"). */
  muted: 'text-slate-500 underline hover:text-slate-800 dark:text-slate-400 dark:hover:text-slate-200',
} as const;

export type TextLinkVariant = keyof typeof variants;

type TextLinkProps = { variant?: TextLinkVariant } & (AnchorProps | (ComponentPropsWithRef<'button'> & { href?: undefined }));

export function TextLink({ variant = 'accent', className, ...props }: TextLinkProps) {
  const classes = className ? `${variants[variant]} ${className}` : variants[variant];
  if (props.href !== undefined) return <AppLink {...(props as AnchorProps)} className={classes} />;
  const { type = 'button', ...button } = props as ComponentPropsWithRef<'button'>;
  return <button type={type} {...button} className={classes} />;
}
