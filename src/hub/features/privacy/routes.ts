import type { FastifyRequest } from 'fastify'
import { Type } from 'typebox'
import { ErrorResponse } from '../../../shared/http/schemas.js'
import { PLAIN_TEXT } from '../../../shared/http/validation.js'
import type { App } from '../../../shared/http/server.js'
import { requestOrigin } from '../../kernel/audit/context.js'
import { PURPOSE_PATTERN } from './consent-purposes.js'
import type { PrivacyService } from './service.js'
import { PrivacySettings, PrivacySettingsPatch } from './settings.js'

export interface PrivacyRoutesOptions {
  privacy: PrivacyService
  /** The signed-in user of a request that passed the session check. */
  userOf: (request: FastifyRequest) => string
}

const ConsentRecord = Type.Object({
  id: Type.String(),
  purpose: Type.String(),
  granted: Type.Boolean(),
  version: Type.Union([Type.String(), Type.Null()]),
  recordedAt: Type.String({ format: 'date-time' })
})

const ConsentBody = Type.Object(
  {
    purpose: Type.String({ pattern: PURPOSE_PATTERN, description: 'e.g. analytics, marketing, terms, data-sharing:tasks' }),
    granted: Type.Boolean(),
    version: Type.Optional(Type.String({ maxLength: 64, description: 'The policy version shown to the person', [PLAIN_TEXT]: true }))
  },
  { additionalProperties: false }
)

const ConsentOverview = Type.Object({
  consents: Type.Array(ConsentRecord, { description: 'Newest first' }),
  current: Type.Record(
    Type.String(),
    Type.Object({ granted: Type.Boolean(), version: Type.Union([Type.String(), Type.Null()]), recordedAt: Type.String() })
  )
})

const errors = { 400: ErrorResponse, 401: ErrorResponse, 403: ErrorResponse }
const tags = ['privacy']

export async function privacyRoutes(app: App, { privacy, userOf }: PrivacyRoutesOptions) {
  // Signed out, a path below that matches no route answers 401 like the routes, not 404.
  app.unknownPaths('/api/privacy', { session: 'required' })
  app.get(
    '/api/privacy/settings',
    { config: { session: 'required' }, schema: { summary: 'Get the privacy settings (defaults included)', tags, response: { 200: PrivacySettings, ...errors } } },
    async (request) => privacy.settings(userOf(request))
  )

  app.put(
    '/api/privacy/settings',
    {
      config: { session: 'required' },
      schema: {
        summary: 'Update part of the privacy settings',
        tags,
        body: PrivacySettingsPatch,
        response: { 200: PrivacySettings, ...errors }
      }
    },
    async (request) => privacy.updateSettings(userOf(request), request.body, requestOrigin(request))
  )

  app.get(
    '/api/privacy/consent',
    { config: { session: 'required' }, schema: { summary: 'Get the consent history and the current decision per purpose', tags, response: { 200: ConsentOverview, ...errors } } },
    async (request) => privacy.consents(userOf(request))
  )

  app.post(
    '/api/privacy/consent',
    { config: { session: 'required' }, schema: { summary: 'Record a consent decision (append-only)', tags, body: ConsentBody, response: { 200: ConsentRecord, ...errors } } },
    async (request) => {
      const { purpose, granted, version } = request.body
      return privacy.recordConsent(userOf(request), { purpose, granted, version: version ?? null }, requestOrigin(request))
    }
  )
}
