import { Link } from 'wouter';
import { useAuthSelector } from '../../app/ServicesContext';
import { selectIsAuthenticated } from '../../machines/auth';
import { Icon } from '../common/Icon';

export function ErrorPage({ code, title, message }: { code: string; title: string; message: string }) {
  const authenticated = useAuthSelector(selectIsAuthenticated);
  return (
    <main className="flex min-h-screen flex-col items-center justify-center bg-slate-50 px-4 text-center text-slate-900 dark:bg-slate-950 dark:text-slate-100">
      <Icon name="logo" className="size-10 text-sky-600 dark:text-sky-400" />
      <p className="mt-6 text-6xl font-bold tracking-tight text-sky-600 dark:text-sky-400">{code}</p>
      <h1 className="mt-4 text-2xl font-semibold tracking-tight">{title}</h1>
      <p className="mt-2 max-w-md text-slate-600 dark:text-slate-400">{message}</p>
      <Link
        href={authenticated ? '/dashboard' : '/login'}
        className="mt-8 rounded-md bg-sky-600 px-4 py-2 text-sm font-semibold text-white shadow-sm hover:bg-sky-700"
      >
        {authenticated ? 'Back to the dashboard' : 'Go to log in'}
      </Link>
    </main>
  );
}
