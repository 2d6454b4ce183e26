import type { Kysely } from 'kysely'
import { Type } from 'typebox'
import type { SignupMode } from '../../../shared/config.js'
import type { Database } from '../../../shared/database/schema.js'
import { forbidden, unauthorized } from '../../../shared/errors.js'
import { errorResponses } from '../../../shared/http/schemas.js'
import type { App } from '../../../shared/http/server.js'
import { PLAIN_TEXT } from '../../../shared/http/validation.js'
import type { FirstPasskey } from '../../kernel/accounts/first-passkey.js'
import { SIGNUP_CLOSED, acceptInvitationWithoutPassword, usableInvitation } from '../../kernel/accounts/invitations.js'
import type { UsersRepository } from '../../kernel/accounts/repository.js'
import { ChosenLocale } from '../../kernel/accounts/schemas.js'
import { tooManyRequests } from '../../kernel/http/http-errors.js'
import { LoginResponse } from '../../kernel/http/schemas.js'
import { chosenLanguageOf } from '../../kernel/language/account-language.js'
import type { SignInThrottle } from '../../kernel/rate-limit/sign-in-throttle.js'
import { type LoginDependencies, completeLogin } from '../../kernel/sessions/sign-in.js'

export interface InvitationPasskeyRoutesOptions extends LoginDependencies {
  db: Kysely<Database>
  users: UsersRepository
  firstPasskey: FirstPasskey
  throttle: SignInThrottle
  signup: SignupMode
}

const PATH = '/api/invitations/passkey'
const tags = ['auth']
/** Mailed tokens are 43 characters; the cap only bounds what a request may send. */
const InvitationToken = Type.String({ maxLength: 128, description: 'The token of the invitation link (after `#token=`)', [PLAIN_TEXT]: true })

/**
 * An invited person's account made with a passkey instead of a password (docs/administration.md,
 * "Invitations"): the passkeys feature's registration ceremony, for the account the invitation is
 * for, then the account made, proven and in its groups, in the transaction storing the passkey,
 * and signed in as a login would be. The same refusals and HUB_SIGNUP rules as a sign-up with the
 * invitation. The CSRF check stays on, as for a passkey sign-in: a ceremony runs in the hub's
 * page only, which holds the token.
 */
export async function invitationPasskeyRoutes(app: App, deps: InvitationPasskeyRoutesOptions) {
  const { db, users, firstPasskey, throttle, signup, audit, now } = deps
  const refuseWhenClosed = () => {
    if (signup === 'closed') throw forbidden(SIGNUP_CLOSED)
  }

  app.post(
    `${PATH}/options`,
    {
      schema: {
        summary: "Begin making an invited account with a passkey: options for navigator.credentials.create(), for the invitation's address, valid 5 minutes, once",
        description: 'A used, withdrawn, expired or unknown invitation is refused (403) with one message; so is every invitation while HUB_SIGNUP is closed.',
        tags,
        body: Type.Object({ token: InvitationToken }, { additionalProperties: false }),
        response: { 200: firstPasskey.schemas.options, ...errorResponses(400, 403) }
      }
    },
    async (request) => {
      refuseWhenClosed()
      const at = now()
      const invitation = await usableInvitation(db, request.body.token, at)
      return firstPasskey.begin(invitation.email, invitation.id, at)
    }
  )

  app.post(
    PATH,
    {
      schema: {
        summary: "Make the invited account with the browser's answer to the options: its passkey is its way in, its address counts as proven, it joins the invitation's groups, and it is signed in",
        description:
          'Answers as a login does (and sets the same cookies). The invitation is spent in the transaction that makes the account: if anything fails, it still works. 403 for an invitation that cannot be used, 409 when the address has an account.',
        tags,
        body: Type.Object(
          { token: InvitationToken, response: firstPasskey.schemas.response, name: Type.Optional(firstPasskey.schemas.name), locale: Type.Optional(ChosenLocale) },
          { additionalProperties: false }
        ),
        response: { 201: LoginResponse, ...errorResponses(400, 403, 409, 429) }
      }
    },
    async (request, reply) => {
      refuseWhenClosed()
      const { token, response, name, locale } = request.body
      const wait = await throttle.signupBlockedFor(request.ip)
      if (wait !== null) throw tooManyRequests(reply, wait, 'Too many sign-ups from this address; try again later')
      const at = now()
      // Refused before the ceremony's challenge is used up, as the options were: the same 403.
      const invitation = await usableInvitation(db, token, at)
      const finished = await firstPasskey.finish(response, name, invitation.id, at)
      const use = { token, userId: finished.userId, locale: chosenLanguageOf(request, locale) }
      const accepted = await acceptInvitationWithoutPassword(db, users, use, at, (trx) => finished.store(trx, at))
      await audit(request, { userId: accepted.userId, type: 'signup', detail: { method: 'passkey' } })
      await audit(request, { userId: accepted.userId, type: 'invitation.used', detail: { invitationId: accepted.invitationId, by: accepted.invitedBy } })
      await audit(request, accepted.stored)
      const answer = await completeLogin(deps, request, reply, { userId: accepted.userId, email: accepted.email, emailVerified: true }, 'passkey')
      // Only an account disabled in the instant since it was made starts no session.
      if (!answer) throw unauthorized('Sign in required')
      return reply.code(201).send(answer)
    }
  )
}
