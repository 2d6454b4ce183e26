import { safeNextPath } from '../../kernel/language/next-path.js'
import { CONSOLE_PATH } from '../../kernel/pages/console.js'
import type { AdminMessageKey } from './messages.js'

/** The console's "confirm it is you" without script: a console form's route sends a person here when the last proof is too old. */
export const CONFIRM_PATH = `${CONSOLE_PATH}/confirm`

/** Why the confirm form sent the person back: each is a sentence of the page. */
export const CONFIRM_REFUSALS = {
  'wrong-password': 'admin.confirm.wrongPassword',
  'wrong-code': 'admin.confirm.wrongCode',
  'code-required': 'admin.confirm.codeRequired',
  'too-many': 'admin.confirm.tooMany'
} as const satisfies Record<string, AdminMessageKey>

export type ConfirmRefusal = keyof typeof CONFIRM_REFUSALS

export function isConfirmRefusal(value: unknown): value is ConfirmRefusal {
  return typeof value === 'string' && Object.hasOwn(CONFIRM_REFUSALS, value)
}

/**
 * `next` when it is a page of the console (the console's front page, a path below it, with its
 * query), else the console's front page: the confirm step leads nowhere else, and never back to
 * itself.
 */
export function consolePathOr(next: unknown): string {
  const path = safeNextPath(next)
  if (path === undefined) return CONSOLE_PATH
  const pathname = path.split(/[?#]/)[0] ?? ''
  const inConsole = pathname === CONSOLE_PATH || pathname.startsWith(`${CONSOLE_PATH}/`)
  return inConsole && pathname !== CONFIRM_PATH && !pathname.includes('/../') && !pathname.endsWith('/..') ? path : CONSOLE_PATH
}

/** The confirm page that comes back to `next`, saying why the last try was refused when it was. */
export function confirmPathFor(next: string, refused?: ConfirmRefusal): string {
  const query = new URLSearchParams({ next })
  if (refused !== undefined) query.set('refused', refused)
  return `${CONFIRM_PATH}?${query.toString()}`
}
