import { describe, expect, it } from 'vitest'
import { type HubFeature, composeFeatures } from '../../../src/hub/kernel/feature.js'
import type { HubPage, SignInMethodPages } from '../../../src/hub/kernel/pages/shell.js'
import type { ReauthenticationProof } from '../../../src/hub/kernel/sessions/reauthenticate.js'
import { NO_SECOND_FACTOR } from '../../../src/hub/kernel/sessions/second-factor.js'

const page = (path: string): HubPage => ({ path, signedIn: false, render: async ({ reply }) => reply })
const method = (field: string) => ({ pages: {} as SignInMethodPages, proof: { field } as ReauthenticationProof })

describe('composing the features', () => {
  it('refuses two features declaring one page path', () => {
    expect(() => composeFeatures([{ pages: () => [page('/privacy')] }, { pages: () => [page('/privacy')] }])).toThrow('Page declared twice: /privacy')
  })

  it('refuses two second factors', () => {
    expect(() => composeFeatures([{ secondFactor: NO_SECOND_FACTOR }, { secondFactor: NO_SECOND_FACTOR }])).toThrow('Declared by two features: secondFactor')
  })

  it('puts the second factor’s sign-in method first, then the others in the order listed', () => {
    const features: HubFeature[] = [{ signInMethod: method('passkey') }, { signInMethod: method('webauthn') }, { signInMethod: method('code'), secondFactor: NO_SECOND_FACTOR }]
    expect(composeFeatures(features).declared.proofs.map((proof) => proof.field)).toEqual(['code', 'passkey', 'webauthn'])
  })

  it('keeps the features’ datasets in the order listed, and answers no second factor when none is declared', () => {
    const dataset = (name: string) => ({ name, description: name, records: async function* () {} })
    const { declared } = composeFeatures([{ datasets: [dataset('a')] }, {}, { datasets: [dataset('b'), dataset('c')] }])
    expect(declared.datasets.map(({ name }) => name)).toEqual(['a', 'b', 'c'])
    expect(declared.secondFactor).toBe(NO_SECOND_FACTOR)
  })
})
