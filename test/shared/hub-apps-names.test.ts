import { describe, expect, it } from 'vitest'
import { readConfig } from '../../src/shared/config.js'

describe('HUB_APPS display names', () => {
  it('reads a name after an application, shown as written, beside its other options in any order', () => {
    const { hub } = readConfig({
      HUB_APPS: 'tasks=http://localhost:3000;name=Family tasks;events=http://localhost:3000/events/hearth, grafana=https://grafana.example;name= Gráficas ,notes=https://notes.example'
    })
    expect(hub.appNames).toEqual({ tasks: 'Family tasks', grafana: 'Gráficas', notes: 'Notes' })
    expect(hub.appEvents).toEqual({ tasks: 'http://localhost:3000/events/hearth' })
  })

  it('names an application without one after its id, title-cased', () => {
    expect(readConfig({ HUB_APPS: 'family-notes=https://notes.example,photo_album=https://photos.example' }).hub.appNames).toEqual({
      'family-notes': 'Family Notes',
      photo_album: 'Photo Album'
    })
    expect(readConfig({}).hub.appNames).toEqual({ tasks: 'Tasks' })
  })

  it.each([
    'tasks=http://localhost:3000;name=',
    'tasks=http://localhost:3000;name=   ',
    `tasks=http://localhost:3000;name=${'x'.repeat(65)}`,
    'tasks=http://localhost:3000;name=Tas\u200bks',
    'tasks=http://localhost:3000;name=Tasks\u0007',
    'tasks=http://localhost:3000;name=Tasks;name=Chores'
  ])('stops start-up naming HUB_APPS for %j', (value) => {
    expect(() => readConfig({ HUB_APPS: value })).toThrow(/^HUB_APPS: /)
  })
})
