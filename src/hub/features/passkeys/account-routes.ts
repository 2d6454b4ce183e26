import type { Kysely } from 'kysely'
import { Type } from 'typebox'
import type { Database } from '../../../shared/database/schema.js'
import { badRequest, notFound, unauthorized } from '../../../shared/errors.js'
import { errorResponses } from '../../../shared/http/schemas.js'
import type { App } from '../../../shared/http/server.js'
import { normaliseDisplayName, visibleNameProblem } from '../../kernel/accounts/display-name.js'
import { browserLanguageOf, languageOfAccount } from '../../kernel/language/account-language.js'
import type { AuditRequest } from '../../kernel/audit/context.js'
import { conflict } from '../../kernel/http/http-errors.js'
import type { MailQueue } from '../../kernel/mail/queue.js'
import { passkeyAddedMail } from './mails.js'
import { sessionOf } from '../../kernel/sessions/request-session.js'
import { sessionHandle } from '../../kernel/sessions/session-handle.js'
import type { UsersRepository } from '../../kernel/accounts/repository.js'
import { defaultPasskeyName } from './authenticator-names.js'
import { challengeOf, registrationOptions, verifiedRegistration } from './ceremonies.js'
import type { PasskeyChallenges } from './challenges.js'
import type { RelyingParty } from './relying-party.js'
import type { PasskeyRepository } from './repository.js'
import { AddedPasskey, CeremonyOptions, ListedPasskey, PasskeyName, RegistrationResponse } from './schemas.js'

const PASSKEYS_PATH = '/api/account/passkeys'
/** Passkeys one account may hold: more than anyone's devices, few enough that the sign-in lists stay short. */
export const PASSKEY_LIMIT = 20
export const PASSKEY_LIMIT_REACHED = `An account holds at most ${PASSKEY_LIMIT} passkeys; remove one to add another`
const tags = ['account']
const PasskeyParams = Type.Object({ id: Type.String({ description: 'A passkey id from the list' }) })
const NewPasskeyBody = Type.Object({ response: RegistrationResponse, name: Type.Optional(PasskeyName) }, { additionalProperties: false })
const RenameBody = Type.Object({ name: PasskeyName }, { additionalProperties: false })

export interface PasskeyAccountRoutesOptions {
  /** For the transaction that stores a passkey together with the mail reporting it. */
  db: Kysely<Database>
  passkeys: PasskeyRepository
  challenges: PasskeyChallenges
  users: UsersRepository
  relyingParty: RelyingParty
  mailQueue: MailQueue
  audit: AuditRequest
  publicUrl: string
  now: () => Date
}

/** A name as stored, or 400 saying why it cannot be one. */
function passkeyName(typed: string): string {
  const problem = visibleNameProblem('Passkey name', typed)
  if (problem) throw badRequest(problem)
  return normaliseDisplayName(typed)
}

/** A person's own passkeys (issue 18): registering, listing, renaming, removing. The session stage has checked the cookie. */
export async function passkeyAccountRoutes(app: App, deps: PasskeyAccountRoutesOptions) {
  const { db, passkeys, challenges, users, relyingParty, mailQueue, audit, publicUrl, now } = deps
  const accountOf = async (userId: string) => {
    const user = await users.findById(userId)
    // A session outlives no account, but a read can race its deletion.
    if (!user) throw unauthorized('Sign in required')
    return user
  }

  app.post(
    `${PASSKEYS_PATH}/options`,
    {
      // On the options too, so a page asks for the proof before the authenticator's prompt, not after.
      config: { session: 'required', verifiedAddress: true, recentSignIn: true },
      schema: {
        summary: 'Begin adding a passkey: options for navigator.credentials.create(), valid 5 minutes, once, in this session; the address must be verified (403)',
        tags,
        response: { 200: CeremonyOptions, ...errorResponses(401, 403, 409) }
      }
    },
    async (request) => {
      const session = sessionOf(request)
      const user = await accountOf(session.userId)
      // Here too, so a person at the cap is told before their authenticator makes a credential for nothing.
      if ((await passkeys.countOf(user.id)) >= PASSKEY_LIMIT) throw conflict(PASSKEY_LIMIT_REACHED)
      const at = now()
      const challenge = await challenges.issueForRegistration({ userId: user.id, sessionHandle: sessionHandle(session.id) }, at)
      const existing = await passkeys.credentialIdsOf(user.id)
      return registrationOptions(relyingParty, { userId: user.id, email: user.email, displayName: user.displayName }, existing, challenge)
    }
  )

  app.post(
    PASSKEYS_PATH,
    {
      config: { session: 'required', verifiedAddress: true, recentSignIn: true },
      schema: {
        summary: 'Finish adding a passkey with the browser’s answer to the options',
        tags,
        body: NewPasskeyBody,
        response: { 201: AddedPasskey, ...errorResponses(400, 401, 403, 409) }
      }
    },
    async (request, reply) => {
      const session = sessionOf(request)
      const { response } = request.body
      // Before the challenge is used up: a refused name costs the person no ceremony.
      const typedName = request.body.name === undefined ? undefined : passkeyName(request.body.name)
      const at = now()
      const challenge = challengeOf(response)
      if (challenge === null || !(await challenges.takeForRegistration(challenge, { userId: session.userId, sessionHandle: sessionHandle(session.id) }, at))) {
        throw badRequest('This passkey request expired, was already used or was not made in this session; begin again')
      }
      const credential = await verifiedRegistration(relyingParty, response, challenge)
      if (!credential) throw badRequest('The passkey could not be verified')
      const user = await accountOf(session.userId)
      const name = typedName ?? defaultPasskeyName(credential.aaguid)
      const notice = passkeyAddedMail({ publicUrl, language: languageOfAccount(user.locale, browserLanguageOf(request)), email: user.email, name })
      const added = await db.transaction().execute(async (trx) => {
        if ((await passkeys.countLocked(user.id, trx)) >= PASSKEY_LIMIT) throw conflict(PASSKEY_LIMIT_REACHED)
        const inserted = await passkeys.insert({ ...credential, userId: user.id, name }, at, trx)
        if (inserted) await mailQueue.enqueue({ to: user.email, userId: user.id, ...notice }, at, trx)
        return inserted
      })
      if (!added) throw conflict('This passkey is registered already')
      await audit(request, { userId: user.id, type: 'passkey.added', detail: { passkey: added.id, name } })
      return reply.code(201).send({ id: added.id, name: added.name, createdAt: added.createdAt })
    }
  )

  app.get(
    PASSKEYS_PATH,
    { config: { session: 'required' }, schema: { summary: 'List your passkeys, oldest first', tags, response: { 200: Type.Object({ passkeys: Type.Array(ListedPasskey) }), ...errorResponses(401) } } },
    async (request) => ({ passkeys: await passkeys.listOf(sessionOf(request).userId) })
  )

  app.patch(
    `${PASSKEYS_PATH}/:id`,
    {
      config: { session: 'required' },
      schema: {
        summary: 'Rename one of your passkeys',
        tags,
        params: PasskeyParams,
        body: RenameBody,
        response: { 200: ListedPasskey, ...errorResponses(400, 401, 403, 404) }
      }
    },
    async (request) => {
      const { userId } = sessionOf(request)
      const name = passkeyName(request.body.name)
      const renamed = await passkeys.rename(userId, request.params.id, name)
      if (!renamed) throw notFound('Passkey not found')
      await audit(request, { userId, type: 'passkey.renamed', detail: { passkey: renamed.id, name } })
      return renamed
    }
  )

  app.delete(
    `${PASSKEYS_PATH}/:id`,
    {
      config: { session: 'required', recentSignIn: true },
      schema: {
        summary: 'Remove one of your passkeys: it no longer signs in',
        tags,
        params: PasskeyParams,
        response: { 204: { type: 'null', description: 'Removed' }, ...errorResponses(401, 403, 404) }
      }
    },
    async (request, reply) => {
      const { userId } = sessionOf(request)
      if (!(await passkeys.remove(userId, request.params.id))) throw notFound('Passkey not found')
      await audit(request, { userId, type: 'passkey.removed', detail: { passkey: request.params.id } })
      return reply.code(204).send(null)
    }
  )
}
