-- A business's subscription (issue 14): its plan, its status as the billing provider last told it, the trial's end,
-- whether a payment method is on file, and the Stripe ids that tie provider events to it. A business without a row
-- is on a trial that ends TRIAL_DAYS after it was created (the subscriptions module's rule); the rows added here give
-- businesses that exist today a fresh 30-day trial, so that none is locked out by this release.
CREATE TABLE subscriptions (
  business_account_id integer PRIMARY KEY REFERENCES business_accounts(id),
  plan text NOT NULL DEFAULT 'trial' CHECK (plan IN ('trial', 'standard')),
  status text NOT NULL DEFAULT 'trialing' CHECK (status IN ('trialing', 'active', 'past_due', 'cancelled')),
  trial_ends_at timestamptz,
  past_due_since timestamptz,
  payment_method_on_file boolean NOT NULL DEFAULT false,
  stripe_customer_id text UNIQUE,
  stripe_subscription_id text,
  -- The creation time of the newest provider event applied: an older event arriving late changes nothing.
  last_event_at timestamptz,
  updated_at timestamptz NOT NULL DEFAULT now()
);

INSERT INTO subscriptions (business_account_id, trial_ends_at)
  SELECT id, now() + interval '30 days' FROM business_accounts;

-- Every billing-provider event handled, by the provider's id: a redelivered event is recognised and skipped.
CREATE TABLE billing_events (
  provider text NOT NULL,
  event_id text NOT NULL,
  event_type text NOT NULL,
  business_account_id integer REFERENCES business_accounts(id),
  created_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (provider, event_id)
);
