/** The billing page's buttons: each asks the hub for a Stripe page (Checkout, Customer Portal) and goes there. */

import { api } from './api.js'
import { type ButtonActions, message } from './feedback.js'

/**
 * Follows the `{url}` the hub answered. Only a web page is followed: a `javascript:` or `data:`
 * URL, however it got there, must never run in the hub's origin. http: is for the Stripe stand-in
 * a test or a local set-up points the hub at; Stripe's own pages are https:.
 */
async function goToAnswered(response: Response): Promise<void> {
  const { url } = (await response.json()) as { url?: unknown }
  const target = webUrl(url)
  if (!target) throw new Error(message('msgGeneric').replace('{message}', String(url)))
  location.assign(target)
}

/** URL.canParse is younger than the browsers the script is built for. */
function webUrl(url: unknown): string | undefined {
  if (typeof url !== 'string') return undefined
  try {
    const parsed = new URL(url)
    return parsed.protocol === 'https:' || parsed.protocol === 'http:' ? parsed.href : undefined
  } catch {
    return undefined
  }
}

export const billingButtons: ButtonActions = {
  subscribe: async (button) => goToAnswered(await api('POST', '/api/billing/checkout', { plan: button.dataset.plan })),
  'manage-billing': async () => goToAnswered(await api('POST', '/api/billing/portal'))
}
