import cookie from '@fastify/cookie'
import { allowedHosts } from '../shared/http/allowed-hosts.js'
import type { App } from '../shared/http/server.js'
import { ACTIVITY_READINGS } from './activity.js'
import { ERASURE_STEPS, eraseAccount } from './erasure.js'
import { accountFeature } from './features/account/index.js'
import { adminFeature } from './features/admin/index.js'
import { activityFeature } from './features/activity/index.js'
import { billingFeature } from './features/billing/index.js'
import { cspFeature } from './features/csp/index.js'
import { deletionFeature } from './features/deletion/index.js'
import { type ExportFeatureOptions, exportFeature } from './features/export/index.js'
import { groupsFeature } from './features/groups/index.js'
import { invitationsFeature } from './features/invitations/index.js'
import { oidcFeature } from './features/oidc/index.js'
import { passkeysFeature } from './features/passkeys/index.js'
import { privacyFeature } from './features/privacy/index.js'
import { signInFeature } from './features/sign-in/index.js'
import { ssoFeature } from './features/sso/index.js'
import { twoStepFeature } from './features/two-step/index.js'
import { usersFeature } from './features/users/index.js'
import { AUTH_COOKIE } from './kernel/http/cookies.js'
import { composeFeatures, registerFeatures } from './kernel/feature.js'
import { type KernelDependencies, buildKernel } from './kernel/kernel.js'
import { csrf } from './kernel/pipeline/csrf.js'
import { fixedDocuments } from './kernel/pipeline/fixed-documents.js'
import { loopbackHosts } from './kernel/pipeline/loopback-hosts.js'
import { roleStage } from './kernel/pipeline/role.js'
import { routeOptions } from './kernel/pipeline/route-options.js'
import { origins } from './kernel/pipeline/origins.js'
import { securityHeaders } from './kernel/pipeline/security-headers.js'
import { sensitiveChangeStage } from './kernel/pipeline/sensitive-changes.js'
import { sessionStage } from './kernel/pipeline/session.js'

export interface HubAppDependencies extends KernelDependencies, ExportFeatureOptions {}

/**
 * The identity hub: the kernel, then its features, in order (docs/architecture.md). Every request
 * passes, in this order: security headers, the Host check, the origin check (and CORS), the CSRF
 * check, then the session check where the route requires one and the administrator's role where it
 * states it; after validation, a proven address and a recent sign-in where the route states them;
 * then the route.
 */
export async function buildHubApp(deps: HubAppDependencies): Promise<App> {
  const { app, kernel } = await buildKernel(deps)
  const { config, sessions, cookieKeys, now, builtin } = kernel

  // What the hub does beyond the kernel, one feature a line, in order: their routes are registered
  // in this order, and their lists (datasets, sign-in methods, sections) follow it.
  const features = composeFeatures([
    signInFeature(kernel),
    // Recovery and verification (issue 16): the provider owns passwords and addresses otherwise.
    ...(builtin ? [accountFeature(kernel, builtin)] : []),
    passkeysFeature(kernel, builtin),
    ...(builtin ? [twoStepFeature(kernel, builtin)] : []),
    activityFeature(kernel, ACTIVITY_READINGS),
    // Payments through Stripe when the operator plugs it in (STRIPE_SECRET_KEY, docs/billing.md).
    billingFeature(kernel, config.billing.stripe),
    deletionFeature(kernel, ERASURE_STEPS),
    ssoFeature(kernel),
    cspFeature(kernel),
    privacyFeature(kernel),
    exportFeature(kernel, { applicationExportTimeoutMs: deps.applicationExportTimeoutMs }),
    oidcFeature(kernel),
    // The administrator's Users (docs/administration.md): the built-in provider's accounts, erased as users:delete does.
    ...(builtin ? [usersFeature(kernel, eraseAccount)] : []),
    groupsFeature(kernel),
    ...(builtin ? [invitationsFeature(kernel, builtin)] : []),
    // The console's own parts and the first administrator's set-up link (docs/administration.md): last, so its sections follow the others'.
    adminFeature(kernel, ACTIVITY_READINGS)
  ])

  // External plugins and the request pipeline, in the order a request meets them.
  await app.register(cookie)
  await app.register(securityHeaders)
  await app.register(allowedHosts, { hosts: [new URL(config.publicUrl).host, ...config.allowedHosts, ...config.loopbackHosts] })
  await app.register(loopbackHosts, { hosts: config.loopbackHosts, publicUrl: config.publicUrl })
  await app.register(origins, { allowedOrigins: [new URL(config.publicUrl).origin, ...config.allowedOrigins] })
  await app.register(routeOptions)
  await app.register(csrf, {
    cookieKeys,
    secureCookies: kernel.secureCookies,
    // Where the session stage has already checked the cookie's MAC, its session is the cookie's.
    sessionIdOf: (request) => request.session?.id ?? sessions.claimsOf(request.cookies[AUTH_COOKIE], now())?.sessionId ?? null
  })
  await app.register(sessionStage, { sessions, now })
  await app.register(roleStage, { db: kernel.db })
  await app.register(sensitiveChangeStage, { recentSignIn: kernel.recentSignIn, users: kernel.users })
  // Last: it records what every stage above made of a fixed document, and replays it before them.
  await app.register(fixedDocuments)
  // Each route states in its options what the pipeline asks of it (a session, no CSRF header). The
  // account's space, which several features add to, and re-authentication's, with any provider:
  // signed out, a path there that matches no route answers 401 like the routes.
  for (const prefix of ['/api/account', '/api/auth/reauthenticate']) app.unknownPaths(prefix, { session: 'required' })
  // The administrators' space, which several features add to: 401 signed out, 403 for a member.
  app.unknownPaths('/api/admin', { session: 'required', role: 'admin' })

  // The kernel's routes, each feature's routes and jobs, then the pages.
  await registerFeatures(app, kernel, features)
  return app
}
