import { describe, expect, it } from 'vitest'
import { processCpuMicroseconds } from '../../bench/process-cpu.js'

/** The bench's "server CPU µs/req" column is the difference of two of these readings. */
describe.runIf(process.platform === 'linux')('processCpuMicroseconds', () => {
  it("reads a process's CPU time, which grows while it works", () => {
    const before = processCpuMicroseconds(process.pid)
    const started = process.cpuUsage()
    while (process.cpuUsage(started).user < 100_000) Math.sqrt(Math.random())
    const after = processCpuMicroseconds(process.pid)

    expect(before).toBeTypeOf('number')
    expect(after).toBeTypeOf('number')
    // 100 ms of our own work, read at the kernel's 10 ms resolution.
    expect(after! - before!).toBeGreaterThanOrEqual(80_000)
  })

  it('is undefined for a process that does not exist', () => {
    expect(processCpuMicroseconds(2 ** 30)).toBeUndefined()
  })
})
