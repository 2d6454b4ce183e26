import { type ChildProcess, spawn } from 'node:child_process'
import fs from 'node:fs'
import path from 'node:path'
import { performance } from 'node:perf_hooks'
import { processCpuMicroseconds } from './process-cpu.js'
import { freePort } from './services.js'

/**
 * The footprint scenarios (issue 32, docs/performance.md): how long a service takes from `node` to
 * its first answered request on an existing SQLite database, and its resident memory once started
 * and idle; `sampleResidentMemory` gives its peak while other scenarios load it.
 */
export const FOOTPRINT_TARGETS = { startupMs: 500, idleRssMegabytes: 85, peakRssMegabytes: 160 }

export interface FootprintSubject {
  /** What the report calls it: `npm run start:hub`. */
  name: string
  /** Compiled entry point, run with this same node binary. */
  script: string
  /** The environment that makes its services listen on `ports` (one each) with their data in `dataDir`. */
  env: (ports: number[], dataDir: string) => Record<string, string>
  /** For each service of the process, in order, the path that answers 200 once it is listening. */
  readinessPaths: string[]
}

export interface Footprint {
  subject: string
  startupMs: number[]
  /** The process's own CPU time to its first answer: what start-up costs, however busy the machine is. */
  startupCpuMs: number[]
  /** VmRSS just after start-up (JUST_STARTED_MS after the first answer). */
  startedRssBytes: number[]
  /** VmRSS once the process has sat idle long enough for V8 to give back what start-up grew (IDLE_MS): the target's figure. */
  idleRssBytes: number[]
}

/** After the first answer, what is still settling (a first timer round, lazy compilation) settles within this. */
const JUST_STARTED_MS = 3_000
/**
 * V8 gives back the heap start-up grew only when its memory reducer finds the process idle: it
 * looks 8 s after the last full collection and every 8 s after that while the allocation rate is
 * still high, so 16 to 24 s after start-up here (`--trace-gc` prints `Mark-Compact (reduce)`).
 * A service idle for half a minute has had it; one measured at 3 s has not.
 */
const IDLE_MS = 30_000
const POLL_MS = 5
const READINESS_TIMEOUT_MS = 20_000

/**
 * Starts the subject once to create and migrate its database, then `rounds` times on it: each
 * round times node's start to the first 200 from every readiness path, then reads VmRSS once just
 * after start-up and once the process has sat idle for IDLE_MS.
 */
export async function measureFootprint(subject: FootprintSubject, options: { nodeFlags: string[]; workDir: string; rounds: number }): Promise<Footprint> {
  const dataDir = path.join(options.workDir, `footprint-${subject.script.replace(/\W+/g, '-')}`)
  await stopped(await started(subject, options.nodeFlags, dataDir))
  const footprint: Footprint = { subject: subject.name, startupMs: [], startupCpuMs: [], startedRssBytes: [], idleRssBytes: [] }
  for (let round = 1; round <= options.rounds; round++) {
    const run = await started(subject, options.nodeFlags, dataDir)
    footprint.startupMs.push(run.startupMs)
    footprint.startupCpuMs.push(run.startupCpuMs)
    const rssNow = () => residentMemory(run.child.pid ?? -1)?.currentBytes ?? Number.NaN
    await new Promise((resolve) => setTimeout(resolve, JUST_STARTED_MS))
    footprint.startedRssBytes.push(rssNow())
    await new Promise((resolve) => setTimeout(resolve, IDLE_MS - JUST_STARTED_MS))
    footprint.idleRssBytes.push(rssNow())
    await stopped(run)
  }
  return footprint
}

interface StartedSubject {
  child: ChildProcess
  startupMs: number
  startupCpuMs: number
}

async function started(subject: FootprintSubject, nodeFlags: string[], dataDir: string): Promise<StartedSubject> {
  const ports = await Promise.all(subject.readinessPaths.map(() => freePort()))
  const log = fs.openSync(`${dataDir}.log`, 'a')
  const startedAt = performance.now()
  const child = spawn(process.execPath, [...nodeFlags, subject.script], {
    env: { PATH: process.env.PATH ?? '', NODE_ENV: 'production', HOST: '127.0.0.1', ...subject.env(ports, dataDir) },
    stdio: ['ignore', log, log]
  })
  fs.closeSync(log)
  const pending = new Set(subject.readinessPaths.map((readinessPath, index) => `http://127.0.0.1:${ports[index]}${readinessPath}`))
  while (pending.size > 0) {
    if (child.exitCode !== null) throw new Error(`${subject.name} exited during start-up; see ${dataDir}.log`)
    if (performance.now() - startedAt > READINESS_TIMEOUT_MS) {
      child.kill('SIGKILL')
      throw new Error(`${subject.name} did not answer within ${READINESS_TIMEOUT_MS} ms; see ${dataDir}.log`)
    }
    for (const url of pending) {
      if ((await fetch(url).catch(() => undefined))?.status === 200) pending.delete(url)
    }
    if (pending.size > 0) await new Promise((resolve) => setTimeout(resolve, POLL_MS))
  }
  const startupMs = performance.now() - startedAt
  return { child, startupMs, startupCpuMs: (processCpuMicroseconds(child.pid ?? -1) ?? Number.NaN) / 1000 }
}

async function stopped({ child }: StartedSubject): Promise<void> {
  if (child.exitCode !== null) return
  const exited = new Promise((resolve) => child.once('exit', resolve))
  child.kill('SIGTERM')
  await exited
}

/** A process's resident memory now (VmRSS) and at its highest so far (VmHWM), from procfs; undefined where there is none. */
export function residentMemory(pid: number): { currentBytes: number; peakBytes: number } | undefined {
  let status: string
  try {
    status = fs.readFileSync(`/proc/${pid}/status`, 'utf8')
  } catch {
    return undefined
  }
  const kilobytes = (field: string) => Number(new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(status)?.[1] ?? Number.NaN) * 1024
  return { currentBytes: kilobytes('VmRSS'), peakBytes: kilobytes('VmHWM') }
}

export interface ResidentMemorySampler {
  /** Stops sampling; answers the highest VmRSS seen since the sampler started. */
  stop(): number
}

/**
 * Reads a process's VmRSS every `intervalMs` until stopped, for its peak while a scenario loads
 * it: VmHWM would include start-up's own peak, which is not what the load costs. Wrap any load
 * with it: `const sampler = sampleResidentMemory(hub.pid); …load…; const peakBytes = sampler.stop()`.
 */
export function sampleResidentMemory(pid: number, intervalMs = 50): ResidentMemorySampler {
  let peakBytes = residentMemory(pid)?.currentBytes ?? Number.NaN
  const sample = () => {
    const current = residentMemory(pid)?.currentBytes
    if (current !== undefined && !(current <= peakBytes)) peakBytes = current
  }
  const timer = setInterval(sample, intervalMs)
  return {
    stop() {
      clearInterval(timer)
      sample()
      return peakBytes
    }
  }
}

export interface PeakUnderLoad {
  subject: string
  /** What loaded it: "every hub scenario and the logins". */
  load: string
  peakBytes: number
}

/** The median, as the report shows every figure. */
export function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b)
  return sorted[Math.floor(sorted.length / 2)] ?? Number.NaN
}

export function formatFootprint(footprints: Footprint[], peaks: PeakUnderLoad[]): string {
  const { startupMs, idleRssMegabytes, peakRssMegabytes } = FOOTPRINT_TARGETS
  const met = (value: number, target: number) => (value <= target ? 'yes' : '**NO**')
  const starts = footprints.map((footprint) => {
    const startup = median(footprint.startupMs)
    const started = megabytes(median(footprint.startedRssBytes))
    const idle = megabytes(median(footprint.idleRssBytes))
    const cpu = median(footprint.startupCpuMs)
    const each = (bytes: number[]) => bytes.map((value) => megabytes(value).toFixed(1)).join(', ')
    return `| ${footprint.subject} | ${Math.round(startup)} | ≤ ${startupMs} | ${met(startup, startupMs)} | ${Math.round(cpu)} | ${started.toFixed(1)} | ${idle.toFixed(1)} | ≤ ${idleRssMegabytes} | ${met(idle, idleRssMegabytes)} | ${footprint.startupMs.map((ms) => Math.round(ms)).join(', ')} | ${each(footprint.startedRssBytes)} | ${each(footprint.idleRssBytes)} |`
  })
  const underLoad = peaks.map(({ subject, load, peakBytes }) => `| ${subject} | ${load} | ${megabytes(peakBytes).toFixed(1)} | ≤ ${peakRssMegabytes} | ${met(megabytes(peakBytes), peakRssMegabytes)} |`)
  // `--oidc-only` measures no start, only the peak under its load.
  const lines = [
    ...(starts.length === 0
      ? []
      : [
          `Footprint: start-up on an existing SQLite database to the first answered request, and resident memory (VmRSS) ${JUST_STARTED_MS / 1000} s after it (just started) and ${IDLE_MS / 1000} s after it (idle); median of ${footprints[0]?.startupMs.length ?? 0} starts:`,
          '',
          '| Process | start-up ms | target | met | its CPU ms | just started RSS MB | idle RSS MB | target | met | each start, ms | each just started, MB | each idle, MB |',
          '|---|---:|---:|:---:|---:|---:|---:|---:|:---:|---|---|---|',
          ...starts,
          ''
        ]),
    ...(underLoad.length === 0
      ? []
      : ['Peak resident memory under load (highest VmRSS, sampled every 50 ms):', '', '| Process | under | peak RSS MB | target | met |', '|---|---|---:|---:|:---:|', ...underLoad, ''])
  ]
  return lines.join('\n')
}

function megabytes(bytes: number): number {
  return bytes / 1024 / 1024
}
