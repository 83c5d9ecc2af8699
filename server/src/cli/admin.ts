// Operator commands: `npm run admin -- <command> [options]`. Works on the configured database (DATABASE_URL, or the
// embedded one under DATA_DIR / ./data).
import { parseArgs } from 'node:util';
import pino from 'pino';
import { loadConfig } from '../config';
import { createContext } from '../context';
import { resolveAppSecret } from '../lib/app-secret';
import { openDatabase } from '../db/client';
import { migrate } from '../db/migrate';
import type { Role, SubscriptionPlan, SubscriptionStatus } from '../db/schema';
import { AccountError, createBusinessAccount, createUser, findUserForOperator } from '../modules/business-account';
import { AuthService } from '../modules/auth';
import { setSubscription, type SubscriptionSetting } from '../modules/subscriptions';

const USAGE = `Usage: npm run admin -- <command> [options]

Commands:
  create-business  --name "Acme Care" --email admin@acme.test --password "..." --first-name Ada [--last-name Lovelace] [--time-zone Australia/Brisbane]
                   Creates a business account with its first ADMIN user.
  create-user      --business-id 1 --email user@acme.test --password "..." --first-name Sam [--last-name Lee]
                   --role ADMIN|REGULAR_USER|PRACTITIONER [--practitioner-ids 3,4]
  login-as-link    --email user@acme.test [--business-id 1]
                   Prints a one-time link (valid 15 minutes) that logs in as that user (--business-id is needed when
                   the email is a user of several business accounts).
  set-subscription --business 1 [--plan trial|standard] [--status trialing|active|past_due|cancelled]
                   [--trial-ends 2026-01-31|2026-01-31T00:00:00Z|now] [--payment-method on|off] [--past-due-since <date>]
                   Sets a business's subscription (billing without Stripe: the demo, tests, invoiced customers) and
                   says whether its users must now add a payment method (the API answers 40003).

A password has at least 10 characters and is not a common password.`;

const ROLES: Role[] = ['ADMIN', 'REGULAR_USER', 'PRACTITIONER'];

async function main(argv: string[]) {
  const [command, ...rest] = argv;
  const { values } = parseArgs({
    args: rest,
    options: {
      name: { type: 'string' }, email: { type: 'string' }, password: { type: 'string' }, 'first-name': { type: 'string' },
      'last-name': { type: 'string' }, 'time-zone': { type: 'string' }, 'business-id': { type: 'string' }, role: { type: 'string' },
      'practitioner-ids': { type: 'string' }, business: { type: 'string' }, plan: { type: 'string' }, status: { type: 'string' },
      'trial-ends': { type: 'string' }, 'payment-method': { type: 'string' }, 'past-due-since': { type: 'string' },
    },
  });
  const need = (key: keyof typeof values): string => {
    const value = values[key];
    if (typeof value !== 'string' || !value) throw new AccountError(`--${key} is required`);
    return value;
  };
  const optionalId = (key: 'business-id'): number | undefined => {
    if (values[key] === undefined) return undefined;
    const id = Number(values[key]);
    if (!Number.isInteger(id)) throw new AccountError(`--${key} must be a number`);
    return id;
  };
  if (!command || !['create-business', 'create-user', 'login-as-link', 'set-subscription'].includes(command)) {
    console.log(USAGE);
    return command ? 1 : 0;
  }

  const config = loadConfig();
  const database = await openDatabase({ url: config.databaseUrl, dataDir: config.databaseUrl ? undefined : config.dataDir });
  try {
    await migrate(database);
    const log = pino({ level: 'warn' });
    await resolveAppSecret(config, database, log);
    const ctx = createContext(config, database, log);
    if (command === 'create-business') {
      const { business, admin } = await createBusinessAccount(ctx.db, {
        name: need('name'), timeZone: values['time-zone'],
        admin: { email: need('email'), password: need('password'), first_name: need('first-name'), last_name: values['last-name'] },
      });
      console.log(`Created business account #${business.id} "${business.name}" with admin ${admin.email} (user #${admin.id}).`);
    } else if (command === 'create-user') {
      const role = need('role').toUpperCase() as Role;
      if (!ROLES.includes(role)) throw new AccountError(`--role must be one of ${ROLES.join(', ')}`);
      const businessAccountId = Number(need('business-id'));
      if (!Number.isInteger(businessAccountId)) throw new AccountError('--business-id must be a number');
      const practitionerIds = (values['practitioner-ids'] ?? '').split(',').filter(Boolean).map(Number);
      if (practitionerIds.some((id) => !Number.isInteger(id))) throw new AccountError('--practitioner-ids must be numbers separated by commas');
      const user = await createUser(ctx.db, {
        businessAccountId, email: need('email'), password: need('password'), first_name: need('first-name'),
        last_name: values['last-name'], role, associated_practitioner_ids: practitionerIds,
      });
      console.log(`Created ${user.role} user #${user.id} ${user.email}.`);
    } else if (command === 'set-subscription') {
      const setting = subscriptionSettingOf(values);
      const businessAccountId = Number(need('business'));
      if (!Number.isInteger(businessAccountId)) throw new AccountError('--business must be a business account id (a number)');
      const { row, paymentRequired } = await setSubscription(ctx.db, businessAccountId, setting).catch((error: unknown) => {
        throw (error as { statusCode?: number }).statusCode === 404 ? new AccountError(`no business account has the id ${businessAccountId}`) : error;
      });
      console.log(`Business account #${businessAccountId}: plan ${row.plan}, status ${row.status}, trial ends ${row.trial_ends_at?.toISOString() ?? '—'}, `
        + `payment method ${row.payment_method_on_file ? 'on file' : 'none'}. ${paymentRequired ? 'Payment is required: its users are asked for a payment method (40003).' : 'Its users can work.'}`);
    } else {
      const found = await findUserForOperator(ctx.db, need('email'), optionalId('business-id'));
      console.log(await new AuthService(ctx).createLoginAsLink(found.user.id));
    }
    return 0;
  } finally {
    await database.close();
  }
}

const PLANS: SubscriptionPlan[] = ['trial', 'standard'];
const STATUSES: SubscriptionStatus[] = ['trialing', 'active', 'past_due', 'cancelled'];

function dateOption(name: string, raw: string | undefined): Date | undefined {
  if (raw === undefined) return undefined;
  if (raw === 'now') return new Date();
  const date = new Date(/^\d{4}-\d{2}-\d{2}$/.test(raw) ? `${raw}T00:00:00Z` : raw);
  if (Number.isNaN(date.getTime())) throw new AccountError(`--${name} must be a date (2026-01-31), a date and time (2026-01-31T09:00:00Z) or now`);
  return date;
}

function subscriptionSettingOf(values: Record<string, string | boolean | undefined>): SubscriptionSetting {
  const plan = values.plan as SubscriptionPlan | undefined;
  if (plan !== undefined && !PLANS.includes(plan)) throw new AccountError(`--plan must be one of ${PLANS.join(', ')}`);
  const status = values.status as SubscriptionStatus | undefined;
  if (status !== undefined && !STATUSES.includes(status)) throw new AccountError(`--status must be one of ${STATUSES.join(', ')}`);
  const paymentMethod = values['payment-method'];
  if (paymentMethod !== undefined && paymentMethod !== 'on' && paymentMethod !== 'off') throw new AccountError('--payment-method must be on or off');
  const setting: SubscriptionSetting = {
    plan, status,
    trialEndsAt: dateOption('trial-ends', values['trial-ends'] as string | undefined),
    pastDueSince: dateOption('past-due-since', values['past-due-since'] as string | undefined),
    paymentMethodOnFile: paymentMethod === undefined ? undefined : paymentMethod === 'on',
  };
  if (Object.values(setting).every((value) => value === undefined)) {
    throw new AccountError('set-subscription needs at least one of --plan, --status, --trial-ends, --payment-method, --past-due-since');
  }
  return setting;
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (error) => {
    console.error(error instanceof AccountError || (error as { code?: string }).code?.startsWith('ERR_PARSE_ARGS') ? `Error: ${error.message}` : error);
    process.exit(1);
  },
);
