import type { FastifyInstance } from 'fastify'
import fp from 'fastify-plugin'
import { HttpError } from '../errors.js'
import { canonicalHost } from './host-header.js'

declare module 'fastify' {
  interface FastifyContextConfig {
    /**
     * Answers whatever the Host: liveness and readiness, which orchestrators and load balancers
     * probe by the instance's address (Kubernetes sends the pod's IP) and which reveal nothing.
     */
    anyHost?: boolean
  }
  interface FastifyInstance {
    /** Whether a request with this `Host` is answered (start-up prints only the addresses that are). */
    answersHost(host: string): boolean
  }
}

export interface AllowedHostsOptions {
  /** The `Host` values the service answers to, each a name or address with an optional port. */
  hosts: readonly string[]
}

/** RFC 9110 15.5.20: the request reached a server that does not answer for its Host. */
const MISDIRECTED_REQUEST = 421
export const HOST_NOT_SERVED = 'This server does not answer for that Host'

/**
 * Refuses every request whose `Host` is not one of the service's own names. A page whose DNS name
 * was rebound to this server's address reaches it with its own name as Host; without this check
 * the page would read and write here as if same-origin, "listens on loopback only" notwithstanding.
 * The Host header is the one the connection carried, never `X-Forwarded-Host`, which such a page
 * may set itself.
 */
export const allowedHosts = fp<AllowedHostsOptions>(
  async function allowedHosts(app: FastifyInstance, { hosts }) {
    const allowed = new Set(
      hosts.map((host) => {
        const canonical = canonicalHost(host)
        if (canonical === undefined) throw new Error(`not a host: "${host}"`)
        return canonical
      })
    )
    const isAllowed = (host: string | undefined) => host !== undefined && (allowed.has(host) || allowed.has(canonicalHost(host) ?? ''))
    app.decorate('answersHost', (host: string) => isAllowed(host))
    // A callback hook, not an async one: it runs on every request and should cost no promise.
    app.addHook('onRequest', (request, _reply, done) => {
      const served = isAllowed(request.headers.host) || request.routeOptions.config.anyHost === true
      done(served ? undefined : new HttpError(MISDIRECTED_REQUEST, HOST_NOT_SERVED))
    })
  },
  { name: 'allowed-hosts' }
)
