/**
 * What still breaks the hub's shape (docs/architecture.md), one line per pair of folders or knot,
 * as test/architecture.test.ts finds it. The list only shrinks: mend a line's imports, then delete
 * the line; a new break fails the test.
 */
export const STILL_KNOTTED: readonly string[] = [
  'feature imports a feature: hub/features/billing -> hub/features/account',
  'feature imports a feature: hub/features/deletion -> hub/features/account',
  'feature imports a feature: hub/features/oidc -> hub/features/billing',
  'feature imports a feature: hub/features/oidc -> hub/features/privacy',
  'feature imports a feature: hub/features/passkeys -> hub/features/account',
  'feature imports a feature: hub/features/sign-in -> hub/features/account',
  'feature imports a feature: hub/features/sign-in -> hub/features/two-step',
  'feature imports a feature: hub/features/sso -> hub/features/billing',
  'feature imports a feature: hub/features/two-step -> hub/features/account',
  'feature imports a feature: hub/features/two-step -> hub/features/passkeys',
  'folders knotted in hub/kernel: accounts, audit, http, mail, pipeline, security-events, sessions, tokens',
  'folders knotted in hub: features, kernel',
  'kernel imports a feature: hub/kernel/pages -> hub/features/account',
  'kernel imports a feature: hub/kernel/pages -> hub/features/activity',
  'kernel imports a feature: hub/kernel/pages -> hub/features/billing',
  'kernel imports a feature: hub/kernel/pages -> hub/features/oidc',
  'kernel imports a feature: hub/kernel/pages -> hub/features/passkeys',
  'kernel imports a feature: hub/kernel/pages -> hub/features/privacy',
  'kernel imports a feature: hub/kernel/pages -> hub/features/two-step',
  'kernel imports a feature: hub/kernel/pipeline -> hub/features/billing',
  'kernel imports a feature: hub/kernel/pipeline -> hub/features/oidc',
  'kernel imports a feature: hub/kernel/sessions -> hub/features/account',
  'kernel imports a feature: hub/kernel/sessions -> hub/features/passkeys',
  'kernel imports a feature: hub/kernel/sessions -> hub/features/two-step',
  'kernel imports a feature: hub/kernel/tokens -> hub/features/billing',
  'kernel imports a feature: hub/kernel/tokens -> hub/features/privacy'
]
