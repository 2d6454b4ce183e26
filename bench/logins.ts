import autocannon from 'autocannon'
import { openDatabase } from '../src/shared/database/connect.js'
import { createAccounts } from '../src/hub/kernel/accounts/accounts.js'
import { createUsersRepository } from '../src/hub/kernel/accounts/repository.js'
import type { RunningService } from './services.js'

/**
 * The issue 21 latency target: while logins run at full speed on connections of their own, the
 * session-checked GETs of everyone else, at a fixed rate, keep a p99 within this.
 */
export const LOGIN_LOAD = {
  loginConnections: 4,
  getsPerSecond: 200,
  getConnections: 10,
  warmUpSeconds: 1,
  measuredSeconds: 5,
  targetP99Ms: 25
} as const

/**
 * Successful sign-ins per account the hub allows in 15 minutes (DEFAULT_RATE_LIMITS.signInsPerAccount),
 * less two: the logins go round the seeded accounts so that none reaches its limit, and autocannon
 * may build a request or two per connection that it never sends.
 */
const SIGN_INS_PER_ACCOUNT = 28
/**
 * Three rounds of 6 s at up to 150 logins a second; two cores verify about 60 a second with the
 * hashing slots. Should a machine be faster, the logins stop when the accounts are used up, and
 * the report's logins per second shows it.
 */
const SEEDED_ACCOUNTS = 100
const PASSWORD = 'bench login password, long enough'

export interface LoginAccounts {
  /** The next account's login body, round-robin. */
  nextLoginBody(): string
  /** How many more logins stay within every account's sign-in limit. */
  remaining(): number
}

/**
 * Creates the accounts the logins use, as `hub users:create` does: straight in the hub's database
 * (the sign-up route allows 20 an hour from one address, and should).
 */
export async function seedLoginAccounts(hubDataDir: string): Promise<LoginAccounts> {
  const { db } = openDatabase({ databaseUrl: undefined, dataDir: hubDataDir })
  const emails = Array.from({ length: SEEDED_ACCOUNTS }, (_, n) => `bench-login-${n}@example.org`)
  try {
    const accounts = createAccounts(createUsersRepository(db))
    for (const email of emails) await accounts.create({ email, password: PASSWORD }, new Date())
  } finally {
    await db.destroy()
  }
  let logins = 0
  return {
    nextLoginBody() {
      const email = emails[logins++ % emails.length]
      return JSON.stringify({ email, password: PASSWORD })
    },
    remaining: () => SEEDED_ACCOUNTS * SIGN_INS_PER_ACCOUNT - logins
  }
}

export interface LatencyUnderLogins {
  getP50Ms: number
  getP99Ms: number
  getsPerSecond: number
  loginsPerSecond: number
}

/**
 * Logins on their own connections as fast as the hub answers them, and beside them session-checked
 * GETs at a fixed rate (autocannon corrects their latencies for coordinated omission). Any failed
 * request fails the bench, as in the other scenarios.
 */
export async function measureUnderLogins(
  hub: RunningService,
  accounts: LoginAccounts,
  sessionHeaders: Record<string, string>
): Promise<LatencyUnderLogins> {
  const loginSeconds = LOGIN_LOAD.warmUpSeconds + LOGIN_LOAD.measuredSeconds
  const loginBudget = accounts.remaining() - LOGIN_LOAD.loginConnections
  if (loginBudget < LOGIN_LOAD.loginConnections) throw new Error('the seeded login accounts are used up; seed more')
  const logins = autocannon({
    url: `${hub.baseUrl}/api/auth/login`,
    connections: LOGIN_LOAD.loginConnections,
    duration: loginSeconds,
    // Within the accounts' sign-in limits: a 429 would fail the bench.
    maxOverallRequests: loginBudget,
    // Argon2 keeps a login waiting behind the others; autocannon's default 10 s would be near.
    timeout: 30,
    requests: [
      {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        setupRequest: (request) => ({ ...request, body: accounts.nextLoginBody() })
      }
    ]
  })
  await new Promise((resolve) => setTimeout(resolve, LOGIN_LOAD.warmUpSeconds * 1000))
  const gets = await autocannon({
    url: `${hub.baseUrl}/api/privacy/settings`,
    connections: LOGIN_LOAD.getConnections,
    overallRate: LOGIN_LOAD.getsPerSecond,
    duration: LOGIN_LOAD.measuredSeconds,
    headers: sessionHeaders
  })
  const loginResult = await logins
  for (const [name, result] of [
    ['logins', loginResult],
    ['GETs beside the logins', gets]
  ] as const) {
    const failures = { errors: result.errors, timeouts: result.timeouts, non2xx: result.non2xx }
    if (Object.values(failures).some((count) => count > 0)) throw new Error(`${name}: requests failed ${JSON.stringify(failures)}`)
  }
  return {
    getP50Ms: gets.latency.p50,
    getP99Ms: gets.latency.p99,
    getsPerSecond: gets.requests.average,
    loginsPerSecond: loginResult.requests.total / loginSeconds
  }
}
