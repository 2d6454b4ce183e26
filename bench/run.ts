/**
 * `npm run bench`: the task manager's and the hub's throughput against a bare node:http server on
 * the same machine, then the hub's OpenID Connect provider beside Glewlwyd (issue 32). A
 * measurement, so a missed target still exits 0; a failed request exits 1.
 *
 * Options (after `npm run bench --`): `--oidc-only` runs the OpenID Connect comparison alone;
 * `--oidc-rounds N` and `--oidc-seconds S` shorten it (a smoke run: `--oidc-only --oidc-rounds 1 --oidc-seconds 1`).
 */
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { parseArgs } from 'node:util'
import { glewlwydMissing, startGlewlwyd } from './glewlwyd.js'
import { hearthPeer } from './hearth-peer.js'
import { type Footprint, type PeakUnderLoad, formatFootprint, measureFootprint, sampleResidentMemory } from './footprint.js'
import { type Measurement, measure } from './load.js'
import { type LatencyUnderLogins, measureUnderLogins, seedLoginAccounts } from './logins.js'
import { type OidcRoundsOptions, compareOidc } from './oidc-comparison.js'
import { OIDC_LOAD } from './oidc-load.js'
import { type Row, formatOidcReport, formatReport } from './report.js'
import { BASELINE_SCENARIO, SCENARIOS, type Server } from './scenarios.js'
import { seedListUser, signInHubUser } from './seed.js'
import { type RunningService, signalAllServices, startService, stopAllServices } from './services.js'

/** Rounds of every scenario; the report takes each scenario's median round. */
const ROUNDS = 3
/** Well above a normal run (about 270 s of load, 40 s of footprint starts, start-up and seeding), so a hang cannot last. */
const TIME_LIMIT_MS = 540_000

const { values: options } = parseArgs({
  options: { 'oidc-only': { type: 'boolean', default: false }, 'oidc-rounds': { type: 'string' }, 'oidc-seconds': { type: 'string' } }
})
const oidcRounds: OidcRoundsOptions = {
  rounds: positiveNumber('--oidc-rounds', options['oidc-rounds']) ?? ROUNDS,
  warmUpSeconds: OIDC_LOAD.warmUpSeconds,
  measuredSeconds: positiveNumber('--oidc-seconds', options['oidc-seconds']) ?? OIDC_LOAD.measuredSeconds
}

/** The build output: dist/bench/run.js is two levels below it. */
const distDir = path.dirname(path.dirname(fileURLToPath(import.meta.url)))
const workDir = fs.mkdtempSync(path.join(os.tmpdir(), 'hearth-bench-'))
/** A failed run keeps the servers' logs and database for a look; any other run leaves nothing behind. */
let keepWorkDir = false

process.once('exit', () => {
  signalAllServices()
  if (keepWorkDir) console.error(`server logs and database kept in ${workDir}`)
  else fs.rmSync(workDir, { recursive: true, force: true })
})
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => {
    console.error(`bench stopped by ${signal}`)
    process.exit(128 + os.constants.signals[signal])
  })
}
setTimeout(() => {
  console.error(`bench did not finish within ${TIME_LIMIT_MS / 1000} s`)
  keepWorkDir = true
  process.exit(1)
}, TIME_LIMIT_MS).unref()

try {
  // Both servers run with the node flags of `npm start`, so the baseline runs as the service does.
  const nodeFlags = startScriptNodeFlags()
  // Before the load servers start, so nothing else runs beside the starts measured.
  const footprints = options['oidc-only'] ? [] : await measureFootprints(nodeFlags)
  const servers = await startServers(workDir, nodeFlags)
  await seedListUser(servers.tasks.baseUrl)
  const hubSession = await signInHubUser(servers.hub.baseUrl)
  // One sampler over every load the hub takes, and another over the OpenID Connect scenarios alone.
  const hubMemory = sampleResidentMemory(servers.hub.pid)
  if (!options['oidc-only']) {
    const loginAccounts = await seedLoginAccounts(hubDataDir(workDir))
    const rows = await measureScenarios(servers, hubSession)
    const underLogins: LatencyUnderLogins[] = []
    for (let round = 1; round <= ROUNDS; round++) {
      console.error(`round ${round}/${ROUNDS}: measuring hub GETs beside logins…`)
      underLogins.push(await measureUnderLogins(servers.hub, loginAccounts, hubSession))
    }
    console.log(formatReport(rows, new Date(), nodeFlags, underLogins))
    console.log('')
  }
  const hearth = await hearthPeer(servers.hub, hubDataDir(workDir), hubSession)
  const missing = glewlwydMissing()
  if (missing !== undefined) console.error(`Notice: ${missing}; measuring the hub's side alone.`)
  const glewlwyd = missing === undefined ? await startGlewlwyd(workDir) : undefined
  // The target is the peak under these scenarios alone; the run's whole peak is shown beside it.
  const oidcMemory = sampleResidentMemory(servers.hub.pid)
  console.log(formatOidcReport(await compareOidc(hearth, glewlwyd, oidcRounds), oidcRounds, missing))
  const peaks: PeakUnderLoad[] = [{ subject: 'npm run start:hub', load: 'the OpenID Connect scenarios', peakBytes: oidcMemory.stop() }]
  const wholeRunPeak = hubMemory.stop()
  if (!options['oidc-only']) peaks.push({ subject: 'npm run start:hub', load: 'every hub scenario, GETs beside logins, then the OpenID Connect scenarios', peakBytes: wholeRunPeak })
  console.log(formatFootprint(footprints, peaks))
} catch (error) {
  console.error(`bench failed: ${error instanceof Error ? error.message : String(error)}`)
  keepWorkDir = true
  process.exitCode = 1
} finally {
  await stopAllServices()
}

async function startServers(directory: string, nodeFlags: string[]): Promise<Record<Server, RunningService>> {
  // Only what the services need: an inherited DATABASE_URL, LOG_LEVEL or PORT must not leak in.
  const env = { PATH: process.env.PATH ?? '', NODE_ENV: 'production' }
  const [bare, tasks, hub] = await Promise.all([
    startService({
      name: 'bare',
      program: { script: path.join(distDir, 'bench', 'bare-server.js'), nodeFlags },
      readinessPath: '/',
      logDir: directory,
      env
    }),
    startService({
      name: 'tasks',
      program: { script: path.join(distDir, 'server', 'tasks.js'), nodeFlags },
      readinessPath: '/health',
      logDir: directory,
      env: { ...env, DATA_DIR: path.join(directory, 'data') }
    }),
    startService({
      name: 'hub',
      program: { script: path.join(distDir, 'server', 'hub.js'), nodeFlags },
      readinessPath: '/api/health',
      logDir: directory,
      env: { ...env, DATA_DIR: hubDataDir(directory) },
      // The hub answers only for its public URL's host.
      listenEnv: (port) => ({ HUB_PORT: String(port), HUB_PUBLIC_URL: `http://127.0.0.1:${port}` })
    })
  ])
  return { bare, tasks, hub }
}

/**
 * Rounds of every scenario in turn, the baseline first in each, so a burst of load from elsewhere
 * on a shared machine skews one round rather than one scenario. Each scenario reports its median
 * round by req/s (with that round's latencies and server CPU), and the median of its per-round
 * ratios to the baseline.
 */
async function measureScenarios(servers: Record<Server, RunningService>, hubSession: Record<string, string>): Promise<Row[]> {
  const rounds: Map<string, { measurement: Measurement; shareOfBare: number }>[] = []
  for (let round = 1; round <= ROUNDS; round++) {
    const measured = new Map<string, Measurement>()
    for (const scenario of SCENARIOS) {
      console.error(`round ${round}/${ROUNDS}: measuring ${scenario.name}…`)
      measured.set(scenario.name, await measure(scenario, servers[scenario.server], hubSession))
    }
    const baseline = measured.get(BASELINE_SCENARIO)
    if (!baseline) throw new Error(`no ${BASELINE_SCENARIO} scenario to compare with`)
    rounds.push(
      new Map(
        [...measured].map(([name, measurement]) => [
          name,
          { measurement, shareOfBare: measurement.requestsPerSecond / baseline.requestsPerSecond }
        ])
      )
    )
  }
  return SCENARIOS.map((scenario) => {
    const results = rounds.map((round) => round.get(scenario.name)).filter((result) => result !== undefined)
    const byThroughput = [...results].sort((a, b) => a.measurement.requestsPerSecond - b.measurement.requestsPerSecond)
    const byShare = [...results].sort((a, b) => a.shareOfBare - b.shareOfBare)
    const middle = Math.floor(results.length / 2)
    return { scenario, measurement: byThroughput[middle]!.measurement, shareOfBare: byShare[middle]!.shareOfBare }
  })
}

function positiveNumber(option: string, value: string | undefined): number | undefined {
  if (value === undefined) return undefined
  const parsed = Number(value)
  if (!(parsed > 0)) throw new Error(`${option} takes a positive number, not ${value}`)
  return parsed
}

/** The footprint scenarios: the hub alone (`npm run start:hub`), and every service in one process (`npm start`). */
async function measureFootprints(nodeFlags: string[]): Promise<Footprint[]> {
  const hubEnv = (port: number) => ({ HUB_PORT: String(port), HUB_PUBLIC_URL: `http://127.0.0.1:${port}` })
  const subjects = [
    { name: 'npm run start:hub', script: path.join(distDir, 'server', 'hub.js'), readinessPaths: ['/api/health'], env: ([hub = 0]: number[], dataDir: string) => ({ DATA_DIR: dataDir, ...hubEnv(hub) }) },
    {
      name: 'npm start (hub and task manager)',
      script: path.join(distDir, 'server', 'main.js'),
      readinessPaths: ['/api/health', '/health'],
      env: ([hub = 0, tasks = 0]: number[], dataDir: string) => ({ DATA_DIR: dataDir, ...hubEnv(hub), PORT: String(tasks) })
    }
  ]
  const footprints: Footprint[] = []
  for (const subject of subjects) {
    console.error(`measuring the footprint of ${subject.name}…`)
    footprints.push(await measureFootprint(subject, { nodeFlags, workDir, rounds: ROUNDS }))
  }
  return footprints
}

function hubDataDir(directory: string): string {
  return path.join(directory, 'hub-data')
}

/** The `config.nodeFlags` of package.json, which the start scripts pass to node. */
function startScriptNodeFlags(): string[] {
  const manifest = JSON.parse(fs.readFileSync(path.join(path.dirname(distDir), 'package.json'), 'utf8')) as {
    config?: { nodeFlags?: string }
  }
  return manifest.config?.nodeFlags?.split(' ').filter(Boolean) ?? []
}
