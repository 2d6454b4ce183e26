import fs from 'node:fs'

/** Linux reports a process's CPU time in USER_HZ ticks: 1/100 s on every architecture Node supports. */
const MICROSECONDS_PER_TICK = 10_000

/**
 * CPU time (user + system) a process has used so far, from `/proc/<pid>/stat`; undefined where
 * there is no procfs. Read around a measured run, it gives what each request cost the server
 * itself, which moves much less than throughput with the load generator's share of the machine.
 */
export function processCpuMicroseconds(pid: number): number | undefined {
  let stat: string
  try {
    stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8')
  } catch {
    return undefined
  }
  // Fields after the command name, which is in parentheses and may itself hold spaces.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ')
  const userTicks = Number(fields[11])
  const systemTicks = Number(fields[12])
  if (!Number.isFinite(userTicks) || !Number.isFinite(systemTicks)) return undefined
  return (userTicks + systemTicks) * MICROSECONDS_PER_TICK
}
