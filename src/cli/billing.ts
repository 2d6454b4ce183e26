import type { Config } from '../shared/config.js'
import { formatAmount } from '../hub/features/billing/amount.js'
import { setPlanByHand } from '../hub/features/billing/by-hand.js'
import { createGroupPlans } from '../hub/features/billing/group-plans.js'
import { FREE_PLAN_ID, PLAN_INTERVALS, type Plan, type PlanInterval, PlanError, createPlans } from '../hub/features/billing/plans.js'
import { withDatabase } from './database.js'
import { escapeForTerminal } from './terminal-text.js'

export interface BillingCommandOptions {
  id?: string | undefined
  name?: string | undefined
  email?: string | undefined
  price?: string | undefined
  currency?: string | undefined
  interval?: string | undefined
  'stripe-price'?: string | undefined
  entitlements?: string | undefined
  plan?: string | undefined
  until?: string | undefined
  group?: string | undefined
}

type Io = { out: (line: string) => void; err: (line: string) => void }
export type BillingCommand = 'plans:add' | 'plans:list' | 'plans:remove' | 'billing:set'

/** `npm run hub -- plans:add|plans:list|plans:remove|billing:set`; resolves to the exit code. */
export async function billingCommand(command: BillingCommand, config: Config, options: BillingCommandOptions, io: Io): Promise<number> {
  try {
    switch (command) {
      case 'plans:list':
        return await listPlans(config, io)
      case 'plans:add':
        return await addPlan(config, options, io)
      case 'plans:remove':
        return await removePlan(config, options, io)
      case 'billing:set':
        return await setPlan(config, options, io)
    }
  } catch (error) {
    if (error instanceof PlanError) {
      io.err(error.message)
      return 1
    }
    throw error
  }
}

async function addPlan(config: Config, options: BillingCommandOptions, io: Io): Promise<number> {
  if (!options.id || !options.name) {
    io.err('plans:add needs --id and --name')
    return 2
  }
  const plan: Plan = {
    id: options.id,
    name: options.name,
    price: options.price === undefined ? null : wholeNumber(options.price),
    currency: options.currency?.toUpperCase() ?? null,
    interval: options.interval === undefined ? null : interval(options.interval),
    stripePriceId: options['stripe-price'] ?? null,
    entitlements: (options.entitlements ?? '').split(',').map((entitlement) => entitlement.trim()).filter((entitlement) => entitlement !== '')
  }
  await withDatabase(config.shared, (db) => createPlans(db).save(plan, new Date()))
  io.out(escapeForTerminal(`Saved plan ${plan.id} (${describe(plan)}).`))
  if (plan.price !== null && plan.stripePriceId === null && config.hub.billing.stripe) io.out('It has no --stripe-price: it cannot be bought through Stripe until it has one.')
  return 0
}

async function listPlans(config: Config, io: Io): Promise<number> {
  const plans = await withDatabase(config.shared, (db) => createPlans(db).list())
  for (const plan of plans) io.out(escapeForTerminal(`${plan.id}  "${plan.name}"  ${describe(plan)}`))
  return 0
}

async function removePlan(config: Config, options: BillingCommandOptions, io: Io): Promise<number> {
  if (!options.id) {
    io.err('plans:remove needs --id')
    return 2
  }
  const id = options.id
  if (!(await withDatabase(config.shared, (db) => createPlans(db).remove(id)))) {
    io.err(`No plan has the id ${id}`)
    return 1
  }
  io.out(`Removed plan ${id}.`)
  return 0
}

async function setPlan(config: Config, options: BillingCommandOptions, io: Io): Promise<number> {
  const { email, plan, group } = options
  if (!plan || (email === undefined) === (group === undefined) || email === '' || group === '') {
    io.err('billing:set needs --plan and one of --email or --group')
    return 2
  }
  if (group !== undefined) return setGroupPlan(config, group, plan, options.until, io)
  if (!email) return 2
  if (config.hub.identityProvider.kind !== 'builtin') {
    io.err('HUB_IDP is oidc: accounts live at the external identity provider, so billing:set cannot find one by address')
    return 1
  }
  const until = options.until === undefined ? null : date(options.until)
  const changed = await withDatabase(config.shared, (db) => setPlanByHand(db, { email, planId: plan, until }, new Date()))
  if (!changed) {
    io.err('No account has this email')
    return 1
  }
  io.out(escapeForTerminal(`${email} is on ${plan}${until ? ` until ${until.toISOString()}` : ''}.`))
  return 0
}

/** `billing:set --group`: the household plan, by the group's name, as the admin API sets it by id. */
async function setGroupPlan(config: Config, name: string, plan: string, untilOption: string | undefined, io: Io): Promise<number> {
  const until = untilOption === undefined ? null : date(untilOption)
  const outcome = await withDatabase(config.shared, async (db) => {
    const groupPlans = createGroupPlans(db, config.hub.billing.graceDays)
    const group = await groupPlans.groupNamed(name)
    if (!group) return undefined
    await groupPlans.setByHand(group.id, plan, until, null, new Date())
    return group
  })
  if (!outcome) {
    io.err(escapeForTerminal(`No group is named ${name}`))
    return 1
  }
  const what = plan === FREE_PLAN_ID ? 'has no plan any more' : `is on ${plan}${until ? ` until ${until.toISOString()}` : ''}`
  io.out(escapeForTerminal(`The group ${outcome.name} ${what}: its members have its entitlements beside their own.`))
  return 0
}

function describe(plan: Plan): string {
  if (plan.id === FREE_PLAN_ID) return 'free, entitlements: none'
  const price = plan.price === null || plan.currency === null ? 'set by hand only' : `${formatAmount(plan.price, plan.currency)} a ${plan.interval}`
  const stripe = plan.stripePriceId === null ? '' : `, Stripe ${plan.stripePriceId}`
  return `${price}${stripe}, entitlements: ${plan.entitlements.join(', ') || 'none'}`
}

function wholeNumber(value: string): number {
  if (!/^\d{1,9}$/.test(value)) throw new PlanError('--price is a whole, positive number of cents (1000 for 10.00)')
  return Number(value)
}

function interval(value: string): PlanInterval {
  if (!(PLAN_INTERVALS as readonly string[]).includes(value)) throw new PlanError(`--interval is ${PLAN_INTERVALS.join(' or ')}`)
  return value as PlanInterval
}

function date(value: string): Date {
  const parsed = /^\d{4}-\d{2}-\d{2}(T[\d:.]+(Z|[+-]\d{2}:\d{2}))?$/.test(value) ? new Date(value) : new Date(Number.NaN)
  if (Number.isNaN(parsed.getTime())) throw new PlanError(`--until is a date (2027-01-31) or an ISO time, got "${value}"`)
  return parsed
}
