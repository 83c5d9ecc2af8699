// Configuration from environment variables, validated once at start with messages that say what to fix.
import { availableParallelism } from 'node:os';
import { isIP } from 'node:net';
import { resolve } from 'node:path';

/** Which proxies' X-Forwarded-For is believed (Fastify's trustProxy): none, all, a hop count, or addresses/CIDRs. */
export type TrustProxy = boolean | number | string[];

export interface Config {
  port: number;
  host: string;
  databaseUrl: string | undefined;
  dataDir: string;
  /** APP_SECRET; empty when it was not given outside production, until resolveAppSecret sets the generated one. */
  appSecret: string;
  publicUrl: string;
  smtpUrl: string | undefined;
  mailFrom: string;
  seedDemo: boolean;
  googleMapsApiKey: string | null;
  /** Google's Geocoding endpoint; only tests and proxies change it (GOOGLE_GEOCODING_URL). */
  googleGeocodingUrl: string | undefined;
  /** A Nominatim-compatible geocoding server, used when there is no Google key (GEOCODER_URL). */
  geocoderUrl: string | null;
  /** A MapLibre style document (MAP_STYLE_URL): the map drawn when there is no Google key. */
  mapStyleUrl: string | null;
  /** Credit shown on that map when the style's sources carry none (MAP_ATTRIBUTION). */
  mapAttribution: string | null;
  /**
   * Every origin the map loads from (the style's own, plus MAP_ORIGINS for tiles, glyphs or sprites elsewhere): the
   * Content-Security-Policy lets the browser fetch from them.
   */
  mapOrigins: string[];
  helpUrl: string;
  logLevel: string;
  sessionTtlHours: number;
  loginMaxFailures: number;
  loginWindowMinutes: number;
  /** Failed logins for one account, from any addresses, within the window before its logins answer 429. */
  loginAccountMaxFailures: number;
  trustProxy: TrustProxy;
  requestsPerMinute: number;
  /** ETA messages (On my way and re-plans) a business may send a minute; beyond it they are recorded NOT_SENT. */
  etaMessagesPerMinute: number;
  /** When set, GET /metrics answers only `Authorization: Bearer <token>`. */
  metricsToken: string | null;
  clinikoBaseUrl: string | undefined;
  runWorker: boolean;
  /** How long a worker holds a claimed job without renewing it (JOB_LEASE_SECONDS): a dead worker's job is taken over after it. */
  jobLeaseMs: number;
  startSandbox: boolean;
  /** Memory for each list cache, appointments and clients (MB); 0 turns them off. */
  listCacheMb: number;
  /** An OSRM server for road travel times in optimisations; without it, great-circle distance × a road factor. */
  osrmUrl: string | undefined;
  /**
   * Caps every optimisation's search time below the business's setting (ms); null = no cap. For tests and small
   * machines; no request can raise or lower it.
   */
  optimizerMaxSearchMs: number | null;
  /**
   * Search threads the optimisations may use at once (OPTIMIZER_THREADS; default the cores less one, at least one): a
   * run searches with what is free of them, side by side, at least one.
   */
  optimizerThreads: number;
  /** Billing through Stripe (STRIPE_SECRET_KEY and STRIPE_WEBHOOK_SECRET); null = the offline provider (operator CLI). */
  stripe: StripeConfig | null;
  /** A Twilio-compatible SMS API for appointment reminders (SMS_URL and its credentials); null: no SMS. */
  sms: SmsConfig | null;
}

export interface StripeConfig {
  secretKey: string;
  webhookSecret: string;
  /** The standard plan's price (STRIPE_PRICE_ID); without it checkout only saves a payment method. */
  priceId: string | null;
  /** Stripe's API (STRIPE_API_URL); only tests and proxies change it. */
  apiUrl: string;
}

export interface SmsConfig {
  /** The API's base, e.g. https://api.twilio.com/2010-04-01; messages go to {url}/Accounts/{accountSid}/Messages.json. */
  url: string;
  accountSid: string;
  authToken: string;
  /** The sender number or messaging service id. */
  from: string;
}

export class ConfigError extends Error {}

export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const problems: string[] = [];
  const int = (name: string, fallback: number, min: number, max: number): number => {
    const raw = env[name];
    if (raw === undefined || raw === '') return fallback;
    const value = Number(raw);
    if (!Number.isInteger(value) || value < min || value > max) {
      problems.push(`${name} must be a whole number between ${min} and ${max} (got "${raw}")`);
      return fallback;
    }
    return value;
  };
  const bool = (name: string, fallback: boolean): boolean => {
    const raw = env[name]?.toLowerCase();
    if (raw === undefined || raw === '') return fallback;
    if (['1', 'true', 'yes', 'on'].includes(raw)) return true;
    if (['0', 'false', 'no', 'off'].includes(raw)) return false;
    problems.push(`${name} must be true or false (got "${env[name]}")`);
    return fallback;
  };
  const url = (name: string): string | undefined => {
    const raw = env[name];
    if (!raw) return undefined;
    try {
      new URL(raw);
      return raw;
    } catch {
      problems.push(`${name} must be a URL (got "${raw}")`);
      return undefined;
    }
  };

  /** An http(s) address: the browser fetches it, so no other scheme will do. */
  const webUrl = (name: string): string | undefined => {
    const value = url(name);
    if (value && !/^https?:$/.test(new URL(value).protocol)) {
      problems.push(`${name} must be an http or https address (got "${value}")`);
      return undefined;
    }
    return value;
  };
  const origins = (name: string): string[] => {
    const entries = (env[name] ?? '').split(',').map((entry) => entry.trim()).filter(Boolean);
    const bad = entries.filter((entry) => !URL.canParse(entry) || !/^https?:$/.test(new URL(entry).protocol));
    if (bad.length) problems.push(`${name} must be comma-separated http or https origins, e.g. https://tiles.example.com (got "${bad.join(', ')}")`);
    return entries.filter((entry) => !bad.includes(entry)).map((entry) => new URL(entry).origin);
  };

  const trustProxy = (name: string): TrustProxy => {
    const raw = env[name]?.trim() ?? '';
    if (raw === '' || ['false', 'no', 'off'].includes(raw.toLowerCase())) return false;
    if (['true', 'yes', 'on'].includes(raw.toLowerCase())) return true;
    if (/^\d+$/.test(raw)) return Number(raw);
    const entries = raw.split(',').map((entry) => entry.trim()).filter(Boolean);
    const bad = entries.filter((entry) => !isProxyAddress(entry));
    if (bad.length === 0 && entries.length > 0) return entries;
    problems.push(`${name} must be true, false, a number of proxy hops, or comma-separated proxy addresses/CIDRs (got "${env[name]}")`);
    return false;
  };

  const mapStyleUrl = webUrl('MAP_STYLE_URL') ?? null;
  const mapOrigins = [...new Set([...(mapStyleUrl ? [new URL(mapStyleUrl).origin] : []), ...origins('MAP_ORIGINS')])];

  const production = env.NODE_ENV === 'production';
  const databaseUrl = url('DATABASE_URL');
  const port = int('PORT', 8000, 1, 65535);
  // Empty outside production when unset: resolveAppSecret then takes the installation's generated one.
  const appSecret = env.APP_SECRET ?? '';
  if ((production || appSecret !== '') && appSecret.length < 32) {
    problems.push('APP_SECRET must be at least 32 characters (it encrypts PMS API keys and signs client links)');
  }

  const stripeKey = env.STRIPE_SECRET_KEY?.trim() ?? '';
  const stripeWebhookSecret = env.STRIPE_WEBHOOK_SECRET?.trim() ?? '';
  if ((stripeKey === '') !== (stripeWebhookSecret === '')) {
    problems.push('STRIPE_SECRET_KEY and STRIPE_WEBHOOK_SECRET must be set together (billing through Stripe), or neither (billing set by the operator command)');
  }
  const stripeApiUrl = webUrl('STRIPE_API_URL') ?? 'https://api.stripe.com';
  const smsUrl = webUrl('SMS_URL');
  const smsNames = ['SMS_ACCOUNT_SID', 'SMS_AUTH_TOKEN', 'SMS_FROM'] as const;
  const missingSms = smsNames.filter((name) => !env[name]?.trim());
  if (smsUrl && missingSms.length) problems.push(`SMS_URL is set, so ${missingSms.join(', ')} must be set too (the SMS API's account, token and sender)`);
  if (!smsUrl && missingSms.length < smsNames.length) problems.push('SMS_ACCOUNT_SID, SMS_AUTH_TOKEN and SMS_FROM need SMS_URL (the SMS API\'s address, e.g. https://api.twilio.com/2010-04-01)');
  const sms = smsUrl && missingSms.length === 0
    ? { url: smsUrl.replace(/\/$/, ''), accountSid: env.SMS_ACCOUNT_SID!.trim(), authToken: env.SMS_AUTH_TOKEN!.trim(), from: env.SMS_FROM!.trim() }
    : null;

  const config: Config = {
    port,
    host: env.HOST ?? '0.0.0.0',
    databaseUrl,
    dataDir: resolve(env.DATA_DIR ?? 'data'),
    appSecret,
    publicUrl: (url('PUBLIC_URL') ?? `http://localhost:${port}`).replace(/\/$/, ''),
    smtpUrl: url('SMTP_URL'),
    mailFrom: env.MAIL_FROM ?? 'Rounds <no-reply@rounds.local>',
    seedDemo: bool('SEED_DEMO', !databaseUrl),
    googleMapsApiKey: env.GOOGLE_MAPS_API_KEY || null,
    googleGeocodingUrl: url('GOOGLE_GEOCODING_URL'),
    geocoderUrl: url('GEOCODER_URL') ?? null,
    mapStyleUrl,
    mapAttribution: env.MAP_ATTRIBUTION?.trim() || null,
    mapOrigins,
    helpUrl: env.HELP_URL ?? '/help',
    logLevel: env.LOG_LEVEL ?? 'info',
    sessionTtlHours: int('SESSION_TTL_HOURS', 24 * 14, 1, 24 * 365),
    loginMaxFailures: int('LOGIN_MAX_FAILURES', 5, 1, 1000),
    loginWindowMinutes: int('LOGIN_WINDOW_MINUTES', 15, 1, 24 * 60),
    loginAccountMaxFailures: int('LOGIN_ACCOUNT_MAX_FAILURES', 20, 1, 100_000),
    trustProxy: trustProxy('TRUST_PROXY'),
    requestsPerMinute: int('RATE_LIMIT_PER_MINUTE', 1200, 10, 1_000_000),
    etaMessagesPerMinute: int('ETA_MESSAGES_PER_MINUTE', 60, 1, 100_000),
    metricsToken: env.METRICS_TOKEN?.trim() || null,
    clinikoBaseUrl: url('CLINIKO_BASE_URL'),
    runWorker: bool('RUN_WORKER', true),
    jobLeaseMs: int('JOB_LEASE_SECONDS', 60, 2, 3600) * 1000,
    startSandbox: bool('START_SANDBOX', !databaseUrl),
    listCacheMb: int('LIST_CACHE_MB', 32, 0, 4096),
    osrmUrl: url('OSRM_URL'),
    optimizerMaxSearchMs: env.OPTIMIZER_MAX_SEARCH_MS ? int('OPTIMIZER_MAX_SEARCH_MS', 0, 50, 120_000) : null,
    optimizerThreads: int('OPTIMIZER_THREADS', Math.max(1, availableParallelism() - 1), 1, 64),
    stripe: stripeKey && stripeWebhookSecret
      ? { secretKey: stripeKey, webhookSecret: stripeWebhookSecret, priceId: env.STRIPE_PRICE_ID?.trim() || null, apiUrl: stripeApiUrl.replace(/\/$/, '') }
      : null,
    sms,
  };
  if (problems.length) throw new ConfigError(`Invalid configuration:\n- ${problems.join('\n- ')}`);
  return config;
}

/** An IP address or CIDR, or one of proxy-addr's names (loopback, linklocal, uniquelocal). */
function isProxyAddress(entry: string): boolean {
  if (['loopback', 'linklocal', 'uniquelocal'].includes(entry)) return true;
  const [address, prefix, extra] = entry.split('/');
  const version = isIP(address);
  if (!version || extra !== undefined) return false;
  if (prefix === undefined) return true;
  return /^\d+$/.test(prefix) && Number(prefix) <= (version === 4 ? 32 : 128);
}
