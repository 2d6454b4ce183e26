import { describe, expect, it } from 'vitest'
import { WORDED_REFUSALS } from '../../../../src/hub/client/refusals.js'
import { translatorFor } from '../../../../src/hub/kernel/pages/i18n/index.js'
import { SECOND_FACTOR_REQUIRED } from '../../../../src/hub/features/two-step/second-factor.js'
import { EMAIL_MAX_LENGTH, PASSWORD_MAX_LENGTH, emailProblem, passwordProblem } from '../../../../src/hub/kernel/accounts/credentials.js'
import { databasesUnderTest } from '../../../helpers/databases.js'
import { hubAppPerSuite, uniqueEmail } from '../../../helpers/hub-app.js'

/** `msgRefusalPasswordCommon` is the dataset name of `data-msg-refusal-password-common`. */
const attributeOf = (datasetName: string) => `data-${datasetName.replace(/[A-Z]/g, (letter) => `-${letter.toLowerCase()}`)}`

/**
 * A refusal the hub explains is shown as that explanation in the page's language: every fixed
 * English text of the credential rules has its words on every page (the browser half, what the
 * script shows, is in browser.test.ts).
 */
describe('the API refusals the pages word themselves', () => {
  const [database] = databasesUnderTest()
  const suite = hubAppPerSuite(database!)

  it('covers every text the email and password rules answer', () => {
    const answers = [
      emailProblem('ana\u200b@example.com'),
      emailProblem(`${'a'.repeat(EMAIL_MAX_LENGTH)}@example.com`),
      emailProblem('not an address'),
      passwordProblem('short'),
      passwordProblem('x'.repeat(PASSWORD_MAX_LENGTH + 1)),
      passwordProblem('password1')
    ]
    for (const answer of answers) expect(Object.keys(WORDED_REFUSALS)).toContain(answer)
  })

  it('covers the password a reauthentication refuses while two-step sign-in is on', () => {
    expect(WORDED_REFUSALS[SECOND_FACTOR_REQUIRED]).toBe('msgRefusalSecondFactorRequired')
  })

  it('covers what sign-up answers for a common password', async () => {
    const response = await suite.app.inject({ method: 'POST', url: '/api/auth/signup', payload: { email: uniqueEmail(), password: 'password1' } })
    expect(response.statusCode).toBe(400)
    expect(WORDED_REFUSALS[response.json<{ error: string }>().error]).toBe('msgRefusalPasswordCommon')
  })

  it.each(['en', 'es'] as const)('every page carries their words in %s', async (language) => {
    const body = (await suite.app.inject({ method: 'GET', url: '/signup', headers: { cookie: `lang=${language}` } })).body
    expect(body).toContain(`${attributeOf('msgRefusalPasswordCommon')}="${translatorFor(language)('refusal.passwordCommon')}"`)
    for (const datasetName of Object.values(WORDED_REFUSALS)) expect(body).toMatch(new RegExp(`<body [^>]*${attributeOf(datasetName)}="[^"]+"`))
  })
})
