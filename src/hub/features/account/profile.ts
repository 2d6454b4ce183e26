import { Type } from 'typebox'
import { badRequest, notFound } from '../../../shared/errors.js'
import { errorResponses } from '../../../shared/http/schemas.js'
import type { App } from '../../../shared/http/server.js'
import { PLAIN_TEXT } from '../../../shared/http/validation.js'
import { sessionOf } from '../../kernel/sessions/request-session.js'
import { LANGUAGES, type Language } from '../../kernel/language/language.js'
import { languageOfAccount } from '../../kernel/language/account-language.js'
import { DISPLAY_NAME_MAX_LENGTH, displayNameProblem, normaliseDisplayName } from '../../kernel/accounts/display-name.js'
import type { OwnAccountDependencies } from './dependencies.js'

const Locale = Type.Unsafe<Language>({ type: 'string', enum: [...LANGUAGES], description: "The language of the account's mails" })

export const ProfileResponse = Type.Object({
  userId: Type.String(),
  email: Type.String(),
  emailVerified: Type.Boolean({ description: 'Whether a link mailed to the address was used' }),
  displayName: Type.Union([Type.String(), Type.Null()], { description: 'Null until chosen' }),
  locale: Type.Union([Locale, Type.Null()], { description: 'The language the person chose, null until then: pages and mail follow the browser meanwhile' }),
  role: Type.Union([Type.Literal('member'), Type.Literal('admin')], { description: 'An administrator runs the hub (docs/administration.md)' }),
  createdAt: Type.String({ format: 'date-time' }),
  hasPassword: Type.Boolean({ description: 'False for an account made with a passkey that has no password yet: PUT /api/account/password sets a first one without a current one' })
})

const ProfileChanges = Type.Object(
  {
    // Room for surrounding spaces, which are trimmed; the limit is checked after.
    displayName: Type.Optional(Type.String({ maxLength: DISPLAY_NAME_MAX_LENGTH * 4, description: '1–64 visible characters', [PLAIN_TEXT]: true })),
    locale: Type.Optional(Locale)
  },
  { additionalProperties: false }
)

const tags = ['account']

/** The signed-in person's profile (issue 16). */
export async function profileRoutes(app: App, { ownAccount, audit, now }: OwnAccountDependencies) {
  const profileOf = async (userId: string) => {
    const profile = await ownAccount.profileOf(userId)
    // A session outlives no account (deleting one ends its sessions), but a read can race that.
    if (!profile) throw notFound('Account not found')
    return { ...profile, locale: profile.locale === null ? null : languageOfAccount(profile.locale) }
  }

  app.get('/api/account', { config: { session: 'required' }, schema: { summary: 'Your profile', tags, response: { 200: ProfileResponse, ...errorResponses(401, 404) } } }, async (request) =>
    profileOf(sessionOf(request).userId)
  )

  app.patch(
    '/api/account',
    {
      config: { session: 'required' },
      schema: {
        summary: 'Change your display name or language',
        tags,
        body: ProfileChanges,
        response: { 200: ProfileResponse, ...errorResponses(400, 401, 403, 404) }
      }
    },
    async (request) => {
      const { userId } = sessionOf(request)
      const { displayName, locale } = request.body
      const changes: { displayName?: string; locale?: string } = {}
      if (displayName !== undefined) {
        const problem = displayNameProblem(displayName)
        if (problem) throw badRequest(problem)
        changes.displayName = normaliseDisplayName(displayName)
      }
      if (locale !== undefined) changes.locale = locale
      const changed = Object.keys(changes)
      if (changed.length > 0) {
        await ownAccount.updateProfile(userId, changes, now())
        // Which fields, not their values: the export already shows the profile as it is.
        await audit(request, { userId, type: 'profile.updated', detail: { changed } })
      }
      return profileOf(userId)
    }
  )
}
