import os from 'node:os'
import { LOAD, type Measurement } from './load.js'
import { LOGIN_LOAD, type LatencyUnderLogins } from './logins.js'
import type { OidcRoundsOptions, OidcRow, OidcSummary } from './oidc-comparison.js'
import { OIDC_LOAD } from './oidc-load.js'
import type { Scenario } from './scenarios.js'

export interface Row {
  scenario: Scenario
  measurement: Measurement
  shareOfBare: number
}

export function missedTargets(rows: Row[]): Row[] {
  return rows.filter((row) => row.scenario.targetShareOfBare !== undefined && row.shareOfBare < row.scenario.targetShareOfBare)
}

export function formatReport(rows: Row[], when: Date, nodeFlags: string[], underLogins: LatencyUnderLogins[]): string {
  const missed = missedTargets(rows).map((row) => `${row.scenario.name} (${ratio(row.shareOfBare)} < ${ratio(row.scenario.targetShareOfBare ?? 0)})`)
  const latency = medianByP99(underLogins)
  if (latency && latency.getP99Ms > LOGIN_LOAD.targetP99Ms) missed.push(`hub GETs beside logins (p99 ${latency.getP99Ms} ms > ${LOGIN_LOAD.targetP99Ms} ms)`)
  const lines = [
    `Date: ${when.toISOString()}`,
    `Machine: ${os.cpus().length} CPUs (${os.cpus()[0]?.model ?? 'unknown model'}), Node ${process.version}, ${os.platform()} ${os.arch()}`,
    `Servers: started with node ${[...nodeFlags, '<script>'].join(' ')}`,
    `Load: autocannon, ${LOAD.connections} connections, ${LOAD.warmUpSeconds} s warm-up then ${LOAD.measuredSeconds} s measured per scenario and round; the median round is shown`,
    '',
    '| Scenario | req/s (avg) | p50 ms | p99 ms | server CPU µs/req | ratio to bare | target | met |',
    '|---|---:|---:|---:|---:|---:|---:|:---:|',
    ...rows.map(formatRow),
    '',
    ...(latency ? formatUnderLogins(latency, underLogins) : []),
    missed.length === 0 ? 'All targets met.' : `MISSED TARGETS: ${missed.join('; ')}`
  ]
  return lines.join('\n')
}

function formatRow({ scenario, measurement, shareOfBare }: Row): string {
  const target = scenario.targetShareOfBare
  const cells = [
    scenario.name,
    Math.round(measurement.requestsPerSecond).toString(),
    measurement.p50LatencyMs.toString(),
    measurement.p99LatencyMs.toString(),
    measurement.serverCpuMicrosecondsPerRequest?.toFixed(1) ?? 'n/a',
    ratio(shareOfBare),
    target === undefined ? 'baseline' : `≥ ${ratio(target)}`,
    target === undefined ? '—' : shareOfBare >= target ? 'yes' : '**NO**'
  ]
  return `| ${cells.join(' | ')} |`
}

/** The round with the median p99: the target is about the tail, so that is what picks the round. */
function medianByP99(rounds: LatencyUnderLogins[]): LatencyUnderLogins | undefined {
  return [...rounds].sort((a, b) => a.getP99Ms - b.getP99Ms)[Math.floor(rounds.length / 2)]
}

function formatUnderLogins(latency: LatencyUnderLogins, rounds: LatencyUnderLogins[]): string[] {
  return [
    `Hub GET /api/privacy/settings at a fixed ${LOGIN_LOAD.getsPerSecond} req/s on ${LOGIN_LOAD.getConnections} connections, beside logins on ${LOGIN_LOAD.loginConnections} connections of their own (${LOGIN_LOAD.measuredSeconds} s, median round by p99):`,
    '',
    '| GETs req/s | p50 ms | p99 ms | target p99 | met | logins/s | p99 of each round, ms |',
    '|---:|---:|---:|---:|:---:|---:|---|',
    `| ${Math.round(latency.getsPerSecond)} | ${latency.getP50Ms} | ${latency.getP99Ms} | ≤ ${LOGIN_LOAD.targetP99Ms} | ${latency.getP99Ms <= LOGIN_LOAD.targetP99Ms ? 'yes' : '**NO**'} | ${latency.loginsPerSecond.toFixed(1)} | ${rounds.map((round) => round.getP99Ms).join(', ')} |`,
    ''
  ]
}

function ratio(value: number): string {
  return value.toFixed(2)
}

/** The issue 32 comparison: each provider's median round and range, their CPU per operation, and the median ratio. */
export function formatOidcReport(rows: OidcRow[], options: OidcRoundsOptions, glewlwydMissing: string | undefined): string {
  const missed = rows.filter((row) => row.ratio !== undefined && row.ratio < row.scenario.targetRatio).map((row) => `${row.scenario.name} (${ratio(row.ratio ?? 0)} < ${ratio(row.scenario.targetRatio)})`)
  return [
    `OpenID Connect beside Glewlwyd: ${OIDC_LOAD.loops} concurrent loops, ${options.warmUpSeconds} s warm-up then ${options.measuredSeconds} s measured per scenario, provider and round, one provider at a time; the median of ${options.rounds} round(s), the range after it`,
    '',
    '| Scenario | Hearth /s | Glewlwyd /s | Hearth CPU µs/op | Glewlwyd CPU µs/op | Hearth ÷ Glewlwyd | target | met |',
    '|---|---:|---:|---:|---:|---:|---:|:---:|',
    ...rows.map(formatOidcRow),
    '',
    glewlwydMissing !== undefined
      ? `Glewlwyd was not run (${glewlwydMissing}): Hearth's side only, no ratio.`
      : missed.length === 0
        ? 'All OpenID Connect targets met.'
        : `MISSED OPENID CONNECT TARGETS: ${missed.join('; ')}`
  ].join('\n')
}

function formatOidcRow({ scenario, hearth, glewlwyd, ratio: measured }: OidcRow): string {
  const throughput = (summary: OidcSummary | undefined) =>
    summary === undefined ? '—' : `${Math.round(summary.median.operationsPerSecond)} (${Math.round(summary.lowest)}–${Math.round(summary.highest)})`
  const cpu = (summary: OidcSummary | undefined) => summary?.median.serverCpuMicrosecondsPerOperation?.toFixed(0) ?? 'n/a'
  const cells = [
    `${scenario.name}, ${scenario.unit}`,
    throughput(hearth),
    throughput(glewlwyd),
    cpu(hearth),
    cpu(glewlwyd),
    measured === undefined ? '—' : ratio(measured),
    `≥ ${ratio(scenario.targetRatio)}`,
    measured === undefined ? '—' : measured >= scenario.targetRatio ? 'yes' : '**NO**'
  ]
  return `| ${cells.join(' | ')} |`
}
