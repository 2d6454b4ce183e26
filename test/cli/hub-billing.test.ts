import { describe, expect, it } from 'vitest'
import { runHubCli } from '../../src/cli/hub-commands.js'
import { createSubscriptions } from '../../src/hub/features/billing/subscriptions.js'
import { GOOD_PASSWORD } from '../helpers/hub-app.js'
import { useHubCli } from '../helpers/hub-cli.js'

describe('hub CLI: plans and billing by hand', () => {
  const { output, io, withDatabase } = useHubCli()
  const run = (...args: string[]) => runHubCli(args, io(GOOD_PASSWORD))
  const accountPlan = (email: string, at = new Date()) =>
    withDatabase(async (db) => {
      const user = await db.selectFrom('users').select('id').where('email', '=', email).executeTakeFirstOrThrow()
      return createSubscriptions(db, 7).accountPlan(user.id, at)
    })

  it('always has the free plan, and adds, changes, lists and removes plans', async () => {
    expect(await run('plans:list')).toBe(0)
    expect(output.out).toEqual(['free  "Free"  free, entitlements: none'])

    expect(await run('plans:add', '--id', 'pro', '--name', 'Pro', '--price', '1200', '--currency', 'eur', '--interval', 'month', '--stripe-price', 'price_123', '--entitlements', 'tasks-unlimited, exports')).toBe(0)
    expect(output.out.at(-1)).toBe('Saved plan pro (12.00 EUR a month, Stripe price_123, entitlements: tasks-unlimited, exports).')
    expect(await run('plans:add', '--id', 'family', '--name', 'Family', '--entitlements', 'shared-lists')).toBe(0)
    // Saving an existing id changes it.
    expect(await run('plans:add', '--id', 'family', '--name', 'Family+', '--entitlements', 'shared-lists,exports')).toBe(0)

    output.out = []
    expect(await run('plans:list')).toBe(0)
    expect(output.out).toEqual([
      'free  "Free"  free, entitlements: none',
      'family  "Family+"  set by hand only, entitlements: shared-lists, exports',
      'pro  "Pro"  12.00 EUR a month, Stripe price_123, entitlements: tasks-unlimited, exports'
    ])

    expect(await run('plans:remove', '--id', 'family')).toBe(0)
    expect(output.out.at(-1)).toBe('Removed plan family.')
    expect(await run('plans:remove', '--id', 'family')).toBe(1)
    expect(output.err).toEqual(['No plan has the id family'])
  })

  it('warns, when Stripe takes payments, that a priced plan without a Stripe price cannot be bought', async () => {
    const stripe = { STRIPE_SECRET_KEY: 'sk_test_cli', STRIPE_WEBHOOK_SECRET: 'whsec_cli' }
    const priced = ['plans:add', '--id', 'pro', '--name', 'Pro', '--price', '1200', '--currency', 'EUR', '--interval', 'month']
    expect(await runHubCli(priced, io('', stripe))).toBe(0)
    expect(output.out.at(-1)).toBe('It has no --stripe-price: it cannot be bought through Stripe until it has one.')
    output.out = []
    expect(await runHubCli([...priced, '--stripe-price', 'price_1'], io('', stripe))).toBe(0)
    // Without Stripe a plan is only ever set by hand: nothing to warn about.
    expect(await run(...priced)).toBe(0)
    expect(output.out).toEqual(['Saved plan pro (12.00 EUR a month, Stripe price_1, entitlements: none).', 'Saved plan pro (12.00 EUR a month, entitlements: none).'])
  })

  it('shows a price in a currency without cents in whole units', async () => {
    expect(await run('plans:add', '--id', 'pro-jp', '--name', 'Pro', '--price', '1200', '--currency', 'JPY', '--interval', 'year')).toBe(0)
    expect(output.out.at(-1)).toBe('Saved plan pro-jp (1200 JPY a year, entitlements: none).')
  })

  it('refuses a bad plan with a message naming what is wrong', async () => {
    const cases: [string[], number, string][] = [
      [['plans:add', '--name', 'X'], 2, 'plans:add needs --id and --name'],
      [['plans:remove'], 2, 'plans:remove needs --id'],
      [['plans:add', '--id', 'free', '--name', 'Free', '--entitlements', 'all'], 1, 'The free plan is built in and grants nothing; it cannot be changed'],
      [['plans:remove', '--id', 'free'], 1, 'The free plan always exists'],
      [['plans:add', '--id', 'Pro!', '--name', 'Pro'], 1, 'A plan id is lowercase letters, digits, "-" or "_", starting with a letter, got "Pro!"'],
      [['plans:add', '--id', 'pro', '--name', 'Pro', '--entitlements', 'a b'], 1, 'An entitlement is lowercase letters, digits, "-" or "_", starting with a letter, got "a b"'],
      [['plans:add', '--id', 'pro', '--name', 'Pro', '--price', '1200'], 1, 'A price needs --price, --currency and --interval together'],
      [['plans:add', '--id', 'pro', '--name', 'Pro', '--price', '12.00', '--currency', 'EUR', '--interval', 'month'], 1, '--price is a whole, positive number of cents (1000 for 10.00)'],
      [['plans:add', '--id', 'pro', '--name', 'Pro', '--price', '1200', '--currency', 'EUR', '--interval', 'week'], 1, '--interval is month or year'],
      [['plans:add', '--id', 'pro', '--name', 'Pro', '--price', '1200', '--currency', 'EURO', '--interval', 'month'], 1, '--currency is a three-letter ISO 4217 code, as EUR'],
      [['plans:add', '--id', 'pro', '--name', 'Pro', '--stripe-price', 'prod_1'], 1, '--stripe-price is a Stripe price id (price_...)']
    ]
    for (const [args, code, message] of cases) {
      output.err = []
      expect(await run(...args), args.join(' ')).toBe(code)
      expect(output.err).toEqual([message])
    }
    expect(await run('plans:add', '--id', 'pro', '--name', 'Pro', '--stripe-price', 'price_1')).toBe(0)
    output.err = []
    expect(await run('plans:add', '--id', 'other', '--name', 'Other', '--stripe-price', 'price_1')).toBe(1)
    expect(output.err).toEqual(['Another plan already sells Stripe price price_1'])
  })

  it('sets an account plan by hand, until a date or for good, and back to free', async () => {
    expect(await run('users:create', '--email', 'ada@example.com')).toBe(0)
    expect(await run('plans:add', '--id', 'family', '--name', 'Family', '--entitlements', 'shared-lists')).toBe(0)
    expect(await accountPlan('ada@example.com')).toMatchObject({ plan: { id: 'free' }, status: 'active', entitlements: [] })

    expect(await run('billing:set', '--email', 'Ada@Example.com', '--plan', 'family', '--until', '2999-01-31')).toBe(0)
    expect(output.out.at(-1)).toBe('Ada@Example.com is on family until 2999-01-31T00:00:00.000Z.')
    expect(await accountPlan('ada@example.com')).toMatchObject({ plan: { id: 'family', name: 'Family' }, status: 'active', entitlements: ['shared-lists'], currentPeriodEnd: '2999-01-31T00:00:00.000Z' })
    // The day after its end, the plan by hand has ended: the account is back on free.
    expect(await accountPlan('ada@example.com', new Date('2999-02-01'))).toMatchObject({ plan: { id: 'free' }, status: 'canceled', entitlements: [] })

    // A live subscription keeps its plan from being removed.
    expect(await run('plans:remove', '--id', 'family')).toBe(1)
    expect(output.err).toEqual(['1 account(s) have a live subscription to family: move them to another plan first'])

    expect(await run('billing:set', '--email', 'ada@example.com', '--plan', 'family')).toBe(0)
    expect(await accountPlan('ada@example.com', new Date('3999-01-01'))).toMatchObject({ plan: { id: 'family' }, currentPeriodEnd: null })
    expect(await run('billing:set', '--email', 'ada@example.com', '--plan', 'free')).toBe(0)
    expect(await accountPlan('ada@example.com')).toMatchObject({ plan: { id: 'free' }, entitlements: [] })
    expect(await run('plans:remove', '--id', 'family')).toBe(0)

    const trail = await withDatabase((db) => db.selectFrom('auditEvents').select(['type', 'detail']).where('type', '=', 'billing.plan.changed').execute())
    expect(trail.map(({ detail }) => JSON.parse(detail) as unknown)).toEqual([
      { plan: 'family', status: 'active', source: 'administrator' },
      { plan: 'family', status: 'active', source: 'administrator' },
      { plan: 'free', status: 'active', source: 'administrator' }
    ])
  })

  it('refuses billing:set for an unknown account, plan or date', async () => {
    expect(await run('users:create', '--email', 'ada@example.com')).toBe(0)
    const cases: [string[], number, string][] = [
      [['billing:set', '--email', 'ada@example.com'], 2, 'billing:set needs --plan and one of --email or --group'],
      [['billing:set', '--email', 'nobody@example.com', '--plan', 'free'], 1, 'No account has this email'],
      [['billing:set', '--email', 'ada@example.com', '--plan', 'gold'], 1, 'No plan has the id gold (npm run hub -- plans:list)'],
      [['billing:set', '--email', 'ada@example.com', '--plan', 'free', '--until', 'tomorrow'], 1, '--until is a date (2027-01-31) or an ISO time, got "tomorrow"'],
      [['billing:set', '--email', 'ada@example.com', '--plan', 'free', '--until', '2001-01-01'], 1, '--until must be in the future']
    ]
    for (const [args, code, message] of cases) {
      output.err = []
      expect(await run(...args), args.join(' ')).toBe(code)
      expect(output.err).toEqual([message])
    }
  })

  it('billing:set --group gives a group a plan by hand, its members have it beside their own, and --plan free ends it', async () => {
    expect(await run('users:create', '--email', 'ada@example.com')).toBe(0)
    expect(await run('plans:add', '--id', 'family', '--name', 'Family', '--entitlements', 'shared-lists,exports')).toBe(0)
    const now = new Date().toISOString()
    const { groupId, userId } = await withDatabase(async (db) => {
      const user = await db.selectFrom('users').select('id').where('email', '=', 'ada@example.com').executeTakeFirstOrThrow()
      await db.insertInto('groups').values({ id: 'g-family', name: 'Family', nameKey: 'family', description: '', createdAt: now, updatedAt: now }).execute()
      await db.insertInto('groupMembers').values({ groupId: 'g-family', userId: user.id, addedAt: now }).execute()
      return { groupId: 'g-family', userId: user.id }
    })
    const claims = () => withDatabase((db) => createSubscriptions(db, 7).entitlementsOf(userId, new Date()))

    output.out = []
    // Named whatever the case, as groups are.
    expect(await run('billing:set', '--group', 'FAMILY', '--plan', 'family', '--until', '2099-01-31')).toBe(0)
    expect(output.out).toEqual(['The group Family is on family until 2099-01-31T00:00:00.000Z: its members have its entitlements beside their own.'])
    expect(await claims()).toEqual({ plan: 'family', entitlements: ['shared-lists', 'exports'] })
    const stored = await withDatabase((db) => db.selectFrom('billingGroupPlans').selectAll().where('groupId', '=', groupId).executeTakeFirstOrThrow())
    expect(stored).toMatchObject({ planId: 'family', source: 'by-hand', userId: null, until: '2099-01-31T00:00:00.000Z' })
    // From the terminal: the member's trail names no administrator.
    const trail = await withDatabase((db) => db.selectFrom('auditEvents').select('detail').where('userId', '=', userId).where('type', '=', 'billing.group-plan.changed').execute())
    expect(trail.map(({ detail }) => JSON.parse(detail) as unknown)).toEqual([{ groupId, group: 'Family', plan: 'family', source: 'administrator' }])

    expect(await run('billing:set', '--group', 'Family', '--plan', 'free')).toBe(0)
    expect(output.out.at(-1)).toBe('The group Family has no plan any more: its members have its entitlements beside their own.')
    expect(await claims()).toEqual({ plan: 'free', entitlements: [] })

    const cases: [string[], number, string][] = [
      [['billing:set', '--group', 'Family'], 2, 'billing:set needs --plan and one of --email or --group'],
      [['billing:set', '--group', 'Family', '--email', 'ada@example.com', '--plan', 'family'], 2, 'billing:set needs --plan and one of --email or --group'],
      [['billing:set', '--group', 'Nobody', '--plan', 'family'], 1, 'No group is named Nobody'],
      [['billing:set', '--group', 'Family', '--plan', 'gold'], 1, 'No plan has the id gold (npm run hub -- plans:list)'],
      [['billing:set', '--group', 'Family', '--plan', 'family', '--until', '2001-01-01'], 1, '--until must be in the future']
    ]
    for (const [args, code, message] of cases) {
      output.err = []
      expect(await run(...args), args.join(' ')).toBe(code)
      expect(output.err).toEqual([message])
    }
  })
})
