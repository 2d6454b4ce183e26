import { describe, expect, it } from 'vitest'
import { median, residentMemory, sampleResidentMemory } from '../../bench/footprint.js'

const MEGABYTE = 1024 * 1024

/** The bench's idle and peak memory columns (issue 32) are these readings. */
describe.runIf(process.platform === 'linux')('resident memory', () => {
  it("reads a process's resident memory, now and at its highest", () => {
    const reading = residentMemory(process.pid)
    expect(reading?.currentBytes).toBeGreaterThan(10 * MEGABYTE)
    expect(reading!.peakBytes).toBeGreaterThanOrEqual(reading!.currentBytes)
    expect(residentMemory(2 ** 30)).toBeUndefined()
  })

  it('samples the peak while a load runs, and it outlives the memory being given back', async () => {
    const before = residentMemory(process.pid)!.currentBytes
    const sampler = sampleResidentMemory(process.pid, 10)
    // 64 MB touched page by page, held across a few samples, then let go.
    let held: Buffer | undefined = Buffer.alloc(64 * MEGABYTE, 1)
    await new Promise((resolve) => setTimeout(resolve, 100))
    expect(held.length).toBe(64 * MEGABYTE)
    held = undefined
    const peak = sampler.stop()
    expect(peak).toBeGreaterThanOrEqual(before + 48 * MEGABYTE)
  })
})

describe('median', () => {
  it.each([
    [[3, 1, 2], 2],
    [[5], 5],
    [[4, 1, 3, 2], 3]
  ])('of %j is %d', (values, expected) => {
    expect(median(values)).toBe(expected)
  })
})
