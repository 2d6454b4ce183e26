import type { FastifyInstance } from 'fastify'
import fp from 'fastify-plugin'
import { canonicalHost } from '../../../shared/http/host-header.js'
import { pathOf } from './request-path.js'

export interface LoopbackHostsOptions {
  /** The loopback `Host` values the hub answers besides its public URL's (HubConfig.loopbackHosts). */
  hosts: readonly string[]
  /** The hub's public URL, without a trailing slash. */
  publicUrl: string
}

/**
 * A browser that opened the hub by another loopback name than its public URL's (127.0.0.1:3001 for
 * localhost:3001, the address `npm start` printed) is sent to the same page at the public URL: the
 * pages work only there, since their API calls must come from the hub's own origin, their cookies
 * are that host's, and passkeys are bound to its name. `/api/*` is answered where it was asked, for
 * scripts and curl. After the Host check, which lets these names through.
 */
export const loopbackHosts = fp<LoopbackHostsOptions>(
  async function loopbackHosts(app: FastifyInstance, { hosts, publicUrl }) {
    const aliases = new Set(hosts.map((host) => canonicalHost(host) ?? host))
    if (aliases.size === 0) return
    app.addHook('onRequest', (request, reply, done) => {
      const host = canonicalHost(request.headers.host ?? '')
      const page = (request.method === 'GET' || request.method === 'HEAD') && !pathOf(request).startsWith('/api/')
      if (host === undefined || !aliases.has(host) || !page) return done()
      // The path and query as asked; a request target in another form goes to the front page.
      const target = request.url.startsWith('/') ? request.url : '/'
      // Temporary: another HUB_PUBLIC_URL tomorrow must not meet a redirect a browser kept.
      reply.redirect(publicUrl + target, 307)
    })
  },
  { name: 'loopback-hosts', dependencies: ['allowed-hosts'] }
)
