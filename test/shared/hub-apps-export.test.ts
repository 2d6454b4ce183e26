import { describe, expect, it } from 'vitest'
import { readConfig } from '../../src/shared/config.js'

describe('HUB_APPS export endpoints', () => {
  it('reads an export endpoint after an application, beside or without an events endpoint', () => {
    const { hub } = readConfig({
      HUB_APPS: 'tasks=http://localhost:3000;events=http://localhost:3000/events/hearth;export=http://localhost:3000/export/hearth, notes=https://notes.example;export=https://notes.example/hearth/export, wiki=https://wiki.example'
    })
    expect(hub.apps).toEqual({ tasks: 'http://localhost:3000', notes: 'https://notes.example', wiki: 'https://wiki.example' })
    expect(hub.appExports).toEqual({ tasks: 'http://localhost:3000/export/hearth', notes: 'https://notes.example/hearth/export' })
    expect(hub.appEvents).toEqual({ tasks: 'http://localhost:3000/events/hearth' })
  })

  it("asks the task manager where it listens by default (npm start)", () => {
    expect(readConfig({ PORT: '4000' }).hub.appExports).toEqual({ tasks: 'http://localhost:4000/export/hearth' })
  })

  it.each([
    'tasks=http://localhost:3000;export=not-a-url',
    'tasks=http://localhost:3000;export=ftp://tasks.example/export',
    'tasks=http://localhost:3000;export=http://a.example/e;export=http://b.example/e',
    'tasks=http://localhost:3000;export=http://user:secret@tasks.example/export'
  ])('stops start-up naming HUB_APPS for %s', (value) => {
    expect(() => readConfig({ HUB_APPS: value })).toThrow(/^HUB_APPS: /)
  })
})
