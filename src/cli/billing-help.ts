// The plans:* and billing:set commands' usage, help and options, apart from billing.ts so that `--help` and the
// dispatch (hub-commands.ts) load none of the code that runs them.

export const BILLING_USAGE = `plans:add adds a plan, or changes the one with that id (its subscribers keep it): --price in
cents with --currency and --interval for a plan sold through Stripe (--stripe-price names the
Stripe price it sells; the price itself is Stripe's), none for one only set by hand. The free plan
is built in, grants nothing and is every account's plan until another is set. plans:remove
refuses a plan someone is subscribed to. billing:set gives an account (--email) or a group (--group,
the household plan: every member has its entitlements) a plan by hand, until a date (YYYY-MM-DD or
an ISO time) or for good; --plan free ends it (docs/billing.md).`

/** Each billing command's own help, as `npm run hub -- plans:add --help` prints it. */
export const BILLING_HELP = {
  'plans:add': `Usage: npm run hub -- plans:add --id ID --name NAME [--price CENTS --currency EUR --interval month|year]
                 [--stripe-price PRICE_ID] --entitlements a,b,c

Adds a plan, or changes the one with that id (its subscribers keep it). A plan sold through Stripe
has a price, currency and interval; one only set by hand has none. The free plan is built in,
grants nothing and is every account's plan until another is set (docs/billing.md).

Options:
  --id ID                  the plan's id
  --name NAME              the name people see
  --price CENTS            the price in cents (1000 for 10.00), with --currency and --interval
  --currency CODE          an ISO 4217 code such as EUR
  --interval month|year    how often it is charged
  --stripe-price PRICE_ID  the Stripe price it sells (the price itself is Stripe's)
  --entitlements a,b,c     comma list of what the plan grants`,
  'plans:list': `Usage: npm run hub -- plans:list

Lists the plans: id, name, price and entitlements. It takes no options.`,
  'plans:remove': `Usage: npm run hub -- plans:remove --id ID

Removes a plan; refuses one someone is subscribed to.

Options:
  --id ID   the plan's id`,
  'billing:set': `Usage: npm run hub -- billing:set --email EMAIL --plan ID [--until DATE]
       npm run hub -- billing:set --group NAME --plan ID [--until DATE]

Gives an account a plan by hand, until a date or for good; --plan free ends it. With --group, the
group's plan (the household plan): every member has its entitlements beside their own, and it
replaces a plan an administrator's subscription paid for (docs/billing.md).

Options:
  --email EMAIL   the account's address
  --group NAME    a group's name, instead of --email
  --plan ID       the plan's id (free to end a plan set by hand)
  --until DATE    when it ends: YYYY-MM-DD or an ISO time (default: never)`
} as const

export const BILLING_OPTIONS = {
  price: { type: 'string' },
  currency: { type: 'string' },
  interval: { type: 'string' },
  'stripe-price': { type: 'string' },
  entitlements: { type: 'string' },
  plan: { type: 'string' },
  until: { type: 'string' },
  group: { type: 'string' }
} as const
