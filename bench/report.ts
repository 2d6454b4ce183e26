import os from 'node:os'
import { LOAD, type Measurement } from './load.js'
import type { Scenario } from './scenarios.js'

export interface Row {
  scenario: Scenario
  measurement: Measurement
  shareOfBare: number
}

export function missedTargets(rows: Row[]): Row[] {
  return rows.filter((row) => row.scenario.targetShareOfBare !== undefined && row.shareOfBare < row.scenario.targetShareOfBare)
}

export function formatReport(rows: Row[], when: Date, nodeFlags: string[]): string {
  const missed = missedTargets(rows)
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
    missed.length === 0
      ? 'All targets met.'
      : `MISSED TARGETS: ${missed.map((row) => `${row.scenario.name} (${ratio(row.shareOfBare)} < ${ratio(row.scenario.targetShareOfBare ?? 0)})`).join('; ')}`
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

function ratio(value: number): string {
  return value.toFixed(2)
}
