import type { Language } from '../language/language.js'
import type { AuditEventType } from './events.js'

/**
 * How one event type reads on its owner's activity page (docs/activity.md): the detail fields it
 * shows (any other stays in the trail and the export only; handles and ids mean nothing to a
 * person), and its sentence in every page language, whose `{placeholders}` are named after the
 * shown fields, plus `{device}`. `variants`: other sentences the page picks by detail.
 */
export interface ActivityReading {
  readonly shows: readonly string[]
  readonly sentence: Readonly<Record<Language, string>>
  readonly variants?: Readonly<Record<string, Readonly<Record<Language, string>>>>
}

/** The readings of the event types one part records; a feature declares its own `as const satisfies ActivityReadings`. */
export type ActivityReadings = { readonly [Type in AuditEventType]?: ActivityReading }

/** The kernel's own events: signing in and out, reauthenticating, an administrator's disabling. */
const KERNEL_ACTIVITY = {
  signin: {
    shows: ['method'],
    sentence: { en: 'Signed in from {device}', es: 'Iniciaste sesión desde {device}' }
  },
  'signin.failed': {
    shows: ['method', 'reason'],
    sentence: { en: 'A sign-in to your account from {device} failed', es: 'Falló un intento de iniciar sesión en tu cuenta desde {device}' }
  },
  signout: {
    shows: [],
    sentence: { en: 'Signed out', es: 'Cerraste sesión' }
  },
  'account.disabled': {
    shows: ['endedSessions'],
    sentence: { en: 'An administrator disabled your account', es: 'Un administrador desactivó tu cuenta' }
  },
  'account.enabled': {
    shows: [],
    sentence: { en: 'An administrator enabled your account again', es: 'Un administrador volvió a activar tu cuenta' }
  },
  'session.reauthenticated': {
    shows: ['method'],
    sentence: { en: 'Confirmed it was you', es: 'Confirmaste que eras tú' }
  }
} as const satisfies ActivityReadings

type Declared<Parts extends readonly ActivityReadings[]> = Parts[number] extends infer Part ? (Part extends unknown ? keyof Part : never) : never

/** The event types that neither the kernel nor any of `Parts` reads. */
type Unread<Parts extends readonly ActivityReadings[]> = Exclude<AuditEventType, keyof typeof KERNEL_ACTIVITY | Declared<Parts>>

/**
 * Every event type's reading: the kernel's, then the features'. It type-checks only when together
 * they read every `AuditEventType` (the error names those left out), and refuses at start a type
 * two parts read. Composed once, at start.
 */
export function activityReadings<const Parts extends readonly ActivityReadings[]>(
  ...parts: Parts & ([Unread<Parts>] extends [never] ? unknown : { unread: Unread<Parts> })
): Readonly<Record<AuditEventType, ActivityReading>> {
  const readings: ActivityReadings = {}
  for (const part of [KERNEL_ACTIVITY, ...parts] as readonly ActivityReadings[]) {
    for (const [type, reading] of Object.entries(part)) {
      if (Object.hasOwn(readings, type)) throw new Error(`Two parts read the activity event ${type}`)
      Object.assign(readings, { [type]: reading })
    }
  }
  return readings as Readonly<Record<AuditEventType, ActivityReading>>
}

/** The detail fields an event's reading shows (any other stays in the trail and the export only). */
export function shownDetail(reading: ActivityReading, stored: string): Record<string, unknown> {
  const detail = JSON.parse(stored) as Record<string, unknown>
  return Object.fromEntries(reading.shows.filter((field) => Object.hasOwn(detail, field)).map((field) => [field, detail[field]]))
}
