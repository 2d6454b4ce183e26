import { describe, expect, it } from 'vitest'
import { hashingSlots } from '../../../../src/hub/kernel/accounts/hashing-slots.js'

/** A task that runs until released, recording how many tasks were running alongside it. */
function gatedTask(state: { running: number; most: number }) {
  let open = (): void => undefined
  const gate = new Promise<void>((resolve) => (open = resolve))
  const task = async () => {
    state.running++
    state.most = Math.max(state.most, state.running)
    await gate
    state.running--
    return 'done'
  }
  return { task, open: () => open() }
}

describe('hashing slots', () => {
  it('runs at most the given number of tasks at once, then the waiting ones in turn', async () => {
    const state = { running: 0, most: 0 }
    const inSlot = hashingSlots(2)
    const tasks = Array.from({ length: 5 }, () => gatedTask(state))
    const results = tasks.map(({ task }) => inSlot(task))
    await new Promise((resolve) => setImmediate(resolve))
    expect(state.running).toBe(2)
    for (const { open } of tasks) {
      open()
      await new Promise((resolve) => setImmediate(resolve))
    }
    await expect(Promise.all(results)).resolves.toEqual(Array(5).fill('done'))
    expect(state.most).toBe(2)
  })

  it('frees the slot of a task that fails', async () => {
    const inSlot = hashingSlots(1)
    await expect(inSlot(() => Promise.reject(new Error('hash failed')))).rejects.toThrow('hash failed')
    await expect(inSlot(() => Promise.resolve('next'))).resolves.toBe('next')
  })
})
