import { createInvitations } from '../hub/features/invitations/service.js'
import { isLanguage, LANGUAGES, DEFAULT_LANGUAGE } from '../hub/kernel/language/language.js'
import type { Config } from '../shared/config.js'
import { HttpError } from '../shared/errors.js'
import { withDatabase } from './database.js'

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
