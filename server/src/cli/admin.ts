// Operator commands: `npm run admin -- <command> [options]`. Works on the configured database (DATABASE_URL, or the
// embedded one under DATA_DIR / ./data).
import { parseArgs } from 'node:util';
import pino from 'pino';
import { loadConfig } from '../config';
import { createContext } from '../context';
import { openDatabase } from '../db/client';
import { migrate } from '../db/migrate';
import type { Role } from '../db/schema';
import { AccountError, createBusinessAccount, createUser } from '../modules/accounts';
import { AuthService } from '../modules/auth';
import { findUserByEmail } from '../modules/users';

const USAGE = `Usage: npm run admin -- <command> [options]

Commands:
  create-business  --name "Acme Care" --email admin@acme.test --password "..." --first-name Ada [--last-name Lovelace] [--time-zone Australia/Brisbane]
                   Creates a business account with its first ADMIN user.
  create-user      --business-id 1 --email user@acme.test --password "..." --first-name Sam [--last-name Lee]
                   --role ADMIN|REGULAR_USER|PRACTITIONER [--practitioner-ids 3,4]
  login-as-link    --email user@acme.test
                   Prints a one-time link (valid 15 minutes) that logs in as that user.

A password has at least 10 characters and is not a common password.`;

const ROLES: Role[] = ['ADMIN', 'REGULAR_USER', 'PRACTITIONER'];

async function main(argv: string[]) {
  const [command, ...rest] = argv;
  const { values } = parseArgs({
    args: rest,
    options: {
      name: { type: 'string' }, email: { type: 'string' }, password: { type: 'string' }, 'first-name': { type: 'string' },
      'last-name': { type: 'string' }, 'time-zone': { type: 'string' }, 'business-id': { type: 'string' }, role: { type: 'string' },
      'practitioner-ids': { type: 'string' },
    },
  });
  const need = (key: keyof typeof values): string => {
    const value = values[key];
    if (typeof value !== 'string' || !value) throw new AccountError(`--${key} is required`);
    return value;
  };
  if (!command || !['create-business', 'create-user', 'login-as-link'].includes(command)) {
    console.log(USAGE);
    return command ? 1 : 0;
  }

  const config = loadConfig();
  const database = await openDatabase({ url: config.databaseUrl, dataDir: config.databaseUrl ? undefined : config.dataDir });
  try {
    await migrate(database);
    const ctx = createContext(config, database, pino({ level: 'warn' }));
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
    } else {
      const found = await findUserByEmail(ctx.db, need('email'));
      if (!found) throw new AccountError(`no user has the email ${values.email}`);
      console.log(await new AuthService(ctx).createLoginAsLink(found.user.id));
    }
    return 0;
  } finally {
    await database.close();
  }
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (error) => {
    console.error(error instanceof AccountError || (error as { code?: string }).code?.startsWith('ERR_PARSE_ARGS') ? `Error: ${error.message}` : error);
    process.exit(1);
  },
);
