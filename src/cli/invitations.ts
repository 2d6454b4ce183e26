import { createInvitations } from '../hub/features/invitations/service.js'
import { isLanguage, LANGUAGES, DEFAULT_LANGUAGE } from '../hub/kernel/language/language.js'
import type { Config } from '../shared/config.js'
import { HttpError } from '../shared/errors.js'
import { withDatabase } from './database.js'

export const INVITATIONS_USAGE = `  npm run hub -- invitations:add --email EMAIL [--groups NAME,NAME] [--language en|es]
                                                invites the address to make an account; prints the link`

export const INVITATIONS_HELP = {
  'invitations:add': `Usage: npm run hub -- invitations:add --email EMAIL [--groups NAME,NAME] [--language en|es]

Invites the address to make an account, as the console's invitations page does: the running hub
mails it a link to /invite that works once, within 7 days, and this command prints the same link
(share it yourself if mail does not reach them). The invited person chooses a password; their
address counts as confirmed and they join the groups named. Inviting an address again withdraws its
earlier invitation. Refused when the address has an account or HUB_SIGNUP is closed.

Options:
  --email EMAIL        the address invited
  --groups NAME,NAME   groups they join (names, whatever their case; each must exist)
  --language en|es     the mail's language (default en)`
} as const

export const INVITATIONS_OPTIONS = {
  groups: { type: 'string' },
  language: { type: 'string' }
} as const

/** `invitations:add`: the console's invitation, from the terminal (recorded on no administrator's trail). */
export async function invitationsCommand(config: Config, values: { email?: string | undefined; groups?: string | undefined; language?: string | undefined }, io: { out: (line: string) => void; err: (line: string) => void }): Promise<number> {
  if (!values.email) {
    io.err('invitations:add needs --email')
    return 2
  }
  if (config.hub.identityProvider.kind !== 'builtin') {
    io.err('HUB_IDP is oidc: accounts live at the external identity provider, not in the hub')
    return 1
  }
  const language = values.language ?? DEFAULT_LANGUAGE
  if (!isLanguage(language)) {
    io.err(`--language must be one of ${LANGUAGES.join(', ')}`)
    return 2
  }
  const groups = (values.groups ?? '').split(',').map((name) => name.trim()).filter((name) => name !== '')
  const { email } = values
  try {
    const sent = await withDatabase(config.shared, (db) =>
      createInvitations(db, { signup: config.hub.signup, publicUrl: config.hub.publicUrl, now: () => new Date() }).invite({ email, groups, language }, null)
    )
    const joins = sent.groups.length === 0 ? '' : `; they join ${sent.groups.join(', ')}`
    io.out(`Invited ${sent.email} until ${sent.expiresAt}${joins}. The mail is queued; the link:\n${sent.link}`)
    return 0
  } catch (error) {
    if (error instanceof HttpError) {
      io.err(error.message)
      return 1
    }
    throw error
  }
}
