import { OIDC_SCENARIOS, type OidcMeasurement, type OidcScenario, measureOidc } from './oidc-load.js'
import type { OidcPeer } from './oidc-client.js'

export interface OidcRoundsOptions {
  rounds: number
  warmUpSeconds: number
  measuredSeconds: number
}

/** A provider's rounds of one scenario: the median round by throughput, and the range. */
export interface OidcSummary {
  median: OidcMeasurement
  lowest: number
  highest: number
}

export interface OidcRow {
  scenario: OidcScenario
  hearth: OidcSummary
  /** Undefined when Glewlwyd could not be run here. */
  glewlwyd: OidcSummary | undefined
  /** The median of the rounds' Hearth ÷ Glewlwyd ratios. */
  ratio: number | undefined
}

/**
 * Rounds of every scenario, each measured on one provider at a time (the other idle), Hearth then
 * Glewlwyd, so a burst of load from elsewhere on a shared machine skews one round, not one provider.
 */
export async function compareOidc(hearth: OidcPeer, glewlwyd: OidcPeer | undefined, options: OidcRoundsOptions): Promise<OidcRow[]> {
  const measured = new Map<OidcScenario, { hearth: OidcMeasurement[]; glewlwyd: OidcMeasurement[] }>(OIDC_SCENARIOS.map((scenario) => [scenario, { hearth: [], glewlwyd: [] }]))
  for (let round = 1; round <= options.rounds; round++) {
    for (const scenario of OIDC_SCENARIOS) {
      const rounds = measured.get(scenario)
      if (!rounds) continue
      for (const [peer, results] of [[hearth, rounds.hearth], [glewlwyd, rounds.glewlwyd]] as const) {
        if (!peer) continue
        console.error(`round ${round}/${options.rounds}: measuring ${scenario.name} on ${peer.name}…`)
        results.push(await measureOidc(scenario, peer, options))
      }
    }
  }
  return [...measured].map(([scenario, rounds]) => {
    const ratios = rounds.glewlwyd.map((peer, index) => (rounds.hearth[index]?.operationsPerSecond ?? 0) / peer.operationsPerSecond)
    return { scenario, hearth: summary(rounds.hearth), glewlwyd: rounds.glewlwyd.length === 0 ? undefined : summary(rounds.glewlwyd), ratio: median(ratios) }
  })
}

function summary(rounds: OidcMeasurement[]): OidcSummary {
  const byThroughput = [...rounds].sort((a, b) => a.operationsPerSecond - b.operationsPerSecond)
  const middle = byThroughput[Math.floor(byThroughput.length / 2)]
  if (!middle) throw new Error('a scenario was measured in no round')
  return { median: middle, lowest: byThroughput[0]?.operationsPerSecond ?? 0, highest: byThroughput.at(-1)?.operationsPerSecond ?? 0 }
}

function median(values: number[]): number | undefined {
  return [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]
}
