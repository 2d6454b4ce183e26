import { type Static, Type } from 'typebox'
import { badRequest } from '../../../shared/errors.js'
import { RETENTION_DAYS } from '../../kernel/audit/retention.js'

export const PROFILE_VISIBILITIES = ['private', 'family', 'public'] as const
// The audit trail's rule, which the retention setting chooses within.
export { RETENTION_DAYS }
/** Cookie categories a person chooses; `necessary` is always on. */
export const OPTIONAL_COOKIES = ['functional', 'analytics', 'marketing'] as const
export type OptionalCookie = (typeof OPTIONAL_COOKIES)[number]

const Visibility = Type.Unsafe<(typeof PROFILE_VISIBILITIES)[number]>({ type: 'string', enum: [...PROFILE_VISIBILITIES] })
const Closed = { additionalProperties: false } as const

export const PrivacySettings = Type.Object(
  {
    dataSharing: Type.Record(Type.String(), Type.Boolean(), { description: 'One key per registered application' }),
    cookies: Type.Object({
      necessary: Type.Literal(true),
      functional: Type.Boolean(),
      analytics: Type.Boolean(),
      marketing: Type.Boolean()
    }),
    retention: Type.Object({ activityLogDays: Type.Integer({ minimum: RETENTION_DAYS.min, maximum: RETENTION_DAYS.max }) }),
    visibility: Type.Object({ profile: Visibility }),
    updatedAt: Type.Union([Type.String({ format: 'date-time' }), Type.Null()])
  },
  { $id: 'PrivacySettings' }
)
export type PrivacySettings = Static<typeof PrivacySettings>

/** A partial document: each group given is merged into the stored one; unknown keys are errors. */
export const PrivacySettingsPatch = Type.Object(
  {
    dataSharing: Type.Optional(Type.Record(Type.String(), Type.Boolean())),
    cookies: Type.Optional(
      Type.Object(
        {
          necessary: Type.Optional(Type.Literal(true, { description: 'Necessary cookies cannot be turned off' })),
          functional: Type.Optional(Type.Boolean()),
          analytics: Type.Optional(Type.Boolean()),
          marketing: Type.Optional(Type.Boolean())
        },
        Closed
      )
    ),
    retention: Type.Optional(
      Type.Object({ activityLogDays: Type.Optional(Type.Integer({ minimum: RETENTION_DAYS.min, maximum: RETENTION_DAYS.max })) }, Closed)
    ),
    visibility: Type.Optional(Type.Object({ profile: Type.Optional(Visibility) }, Closed))
  },
  Closed
)
export type PrivacySettingsPatch = Static<typeof PrivacySettingsPatch>

/** Privacy by default (GDPR art. 25): nothing shared, no optional cookie, a private profile. */
export function defaultSettings(applications: readonly string[]): PrivacySettings {
  return {
    dataSharing: Object.fromEntries(applications.map((application) => [application, false])),
    cookies: { necessary: true, functional: false, analytics: false, marketing: false },
    retention: { activityLogDays: RETENTION_DAYS.default },
    visibility: { profile: 'private' },
    updatedAt: null
  }
}

/**
 * The stored document seen through today's registered applications: one registered since gets
 * its private default, one no longer registered is not shown.
 */
export function withApplications(stored: PrivacySettings, applications: readonly string[]): PrivacySettings {
  const defaults = defaultSettings(applications)
  const dataSharing = Object.fromEntries(applications.map((application) => [application, stored.dataSharing[application] ?? false]))
  return { ...defaults, ...stored, dataSharing }
}

export function mergeSettings(current: PrivacySettings, patch: PrivacySettingsPatch, applications: readonly string[]): PrivacySettings {
  const unknown = Object.keys(patch.dataSharing ?? {}).find((application) => !applications.includes(application))
  if (unknown !== undefined) throw badRequest(`DataSharing.${unknown} is not a registered application`)
  return {
    dataSharing: { ...current.dataSharing, ...patch.dataSharing },
    cookies: { ...current.cookies, ...patch.cookies, necessary: true },
    retention: { ...current.retention, ...patch.retention },
    visibility: { ...current.visibility, ...patch.visibility },
    updatedAt: current.updatedAt
  }
}
