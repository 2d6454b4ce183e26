import { IncomingMessage, ServerResponse } from 'node:http'
import { Socket } from 'node:net'
import { DISCOVERY_PATH } from './paths.js'

type ProviderHandler = (req: IncomingMessage, res: ServerResponse) => Promise<void>

export interface DiscoveryDocument {
  body: Buffer
  contentType: string
}

/**
 * The discovery document exactly as oidc-provider writes it for a request to the issuer's own
 * address, asked of the provider once (per provider: a key rotation builds a new one) instead of
 * at every request. oidc-provider names its endpoints after the request's Host and protocol; the
 * issuer's are the ones every application must use (docs/oidc.md, "Endpoints"), so an internal
 * name a proxy sends (HUB_ALLOWED_HOSTS) no longer leaks into the document.
 */
export async function renderDiscovery(handle: ProviderHandler, issuer: string): Promise<DiscoveryDocument> {
  const { host, protocol } = new URL(issuer)
  // Koa reads the protocol from the socket (or X-Forwarded-Proto behind a proxy): an https issuer's is an encrypted one.
  const socket = Object.assign(new Socket(), { encrypted: protocol === 'https:' })
  const request = new IncomingMessage(socket)
  Object.assign(request, { method: 'GET', url: DISCOVERY_PATH, headers: { host } })
  request.push(null)
  const response = new ServerResponse(request)
  const written = new Promise<DiscoveryDocument>((resolve, reject) => {
    response.end = ((chunk: unknown) => {
      if (response.statusCode !== 200 || !Buffer.isBuffer(chunk) && typeof chunk !== 'string') {
        reject(new Error(`oidc-provider answered discovery with ${response.statusCode}`))
      } else {
        resolve({ body: Buffer.from(chunk), contentType: String(response.getHeader('content-type')) })
      }
      return response
    }) as ServerResponse['end']
  })
  await handle(request, response)
  return written
}
