import { describe, expect, it } from 'vitest'
import { applyConsent, consentsImpliedBy, settingOf } from '../../../../src/hub/features/privacy/consent-purposes.js'
import { defaultSettings, mergeSettings, withApplications } from '../../../../src/hub/features/privacy/settings.js'

const apps = ['tasks', 'notes']

describe('privacy settings rules', () => {
  it('default to the most private choice', () => {
    expect(defaultSettings(apps)).toEqual({
      dataSharing: { tasks: false, notes: false },
      cookies: { necessary: true, functional: false, analytics: false, marketing: false },
      retention: { activityLogDays: 365 },
      visibility: { profile: 'private' },
      updatedAt: null
    })
  })

  it('merge each group of a partial document into the current one', () => {
    const merged = mergeSettings(defaultSettings(apps), { cookies: { analytics: true }, dataSharing: { notes: true } }, apps)
    expect(merged.cookies).toEqual({ necessary: true, functional: false, analytics: true, marketing: false })
    expect(merged.dataSharing).toEqual({ tasks: false, notes: true })
    expect(merged.retention).toEqual({ activityLogDays: 365 })
  })

  it('refuse an application that is not registered', () => {
    expect(() => mergeSettings(defaultSettings(apps), { dataSharing: { billing: true } }, apps)).toThrow(
      'DataSharing.billing is not a registered application'
    )
  })

  it('show a stored document through the applications registered today', () => {
    const stored = { ...defaultSettings(['tasks', 'retired']), dataSharing: { tasks: true, retired: true } }
    expect(withApplications(stored, ['tasks', 'notes']).dataSharing).toEqual({ tasks: true, notes: false })
  })
})

describe('consent purposes linked to settings', () => {
  it.each([
    ['analytics', { group: 'cookies', key: 'analytics' }],
    ['marketing', { group: 'cookies', key: 'marketing' }],
    ['functional', { group: 'cookies', key: 'functional' }],
    ['data-sharing:tasks', { group: 'dataSharing', key: 'tasks' }],
    ['terms', undefined],
    ['newsletter:weekly', undefined]
  ])('%s controls %j', (purpose, setting) => {
    expect(settingOf(purpose, apps)).toEqual(setting)
  })

  it('refuse data sharing with an unknown application', () => {
    expect(() => settingOf('data-sharing:billing', apps)).toThrow('Purpose names an unknown application: billing')
  })

  it('apply a consent to its setting', () => {
    const settings = applyConsent(defaultSettings(apps), { group: 'dataSharing', key: 'tasks' }, true)
    expect(settings.dataSharing.tasks).toBe(true)
  })

  it('turn flipped flags of a settings change into consent decisions', () => {
    const before = defaultSettings(apps)
    const after = mergeSettings(before, { cookies: { marketing: true }, dataSharing: { tasks: true, notes: false }, visibility: { profile: 'public' } }, apps)
    expect(consentsImpliedBy(before, after)).toEqual([
      { purpose: 'marketing', granted: true },
      { purpose: 'data-sharing:tasks', granted: true }
    ])
  })
})
