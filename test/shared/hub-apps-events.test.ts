import { describe, expect, it } from 'vitest'
import { readConfig } from '../../src/shared/config.js'

describe('HUB_APPS events endpoints', () => {
  it('reads an events endpoint after an application, and keeps entries without one valid', () => {
    const { hub } = readConfig({ HUB_APPS: 'tasks=http://localhost:3000;events=http://localhost:3000/events/hearth, notes=https://notes.example' })
    expect(hub.apps).toEqual({ tasks: 'http://localhost:3000', notes: 'https://notes.example' })
    expect(hub.appEvents).toEqual({ tasks: 'http://localhost:3000/events/hearth' })
  })

  it("sends the task manager's events to where it listens by default", () => {
    expect(readConfig({ PORT: '4000' }).hub.appEvents).toEqual({ tasks: 'http://localhost:4000/events/hearth' })
  })

  it.each([
    'tasks=http://localhost:3000;events=not-a-url',
    'tasks=http://localhost:3000;events=ftp://tasks.example/events',
    'tasks=http://localhost:3000;hooks=http://localhost:3000/events/hearth',
    'tasks=http://localhost:3000;events=http://a.example/e;events=http://b.example/e',
    'tasks=http://localhost:3000;events=http://user:secret@tasks.example/events'
  ])('stops start-up naming HUB_APPS for %s', (value) => {
    expect(() => readConfig({ HUB_APPS: value })).toThrow(/^HUB_APPS: /)
  })
})
