import type { Catalogues } from '../../kernel/language/language.js'
import { type FeatureMailTranslate, featureMailTranslator } from '../../kernel/mail/i18n.js'
import type { Language } from '../../kernel/language/language.js'

/**
 * The words of the mails billing sends: the notice of a failed payment, in every mail language; the
 * kernel's mail words (the footer) come with them through `billingMailTranslator`. The same keys and
 * `{name}` placeholders in each language (the type and test/hub/kernel/mail/catalogues.test.ts say so).
 */
const en = {
  'paymentFailed.subject': 'A payment for your Hearth plan did not go through',
  'paymentFailed.intro': 'The payment of {total} for the plan of the Hearth account {email} did not go through. Stripe, which takes the payments, will try again.',
  'paymentFailed.grace': 'Your plan stays as it is for a few days meanwhile. To keep it, sign in and choose "Manage billing" to check or change your payment method at Stripe:',
  'paymentFailed.link': 'Go to my billing page',
  'paymentFailed.ignore': 'Hearth never sees your card: payment details are only ever entered at Stripe.'
}

export type BillingMailKey = keyof typeof en

const es: Record<BillingMailKey, string> = {
  'paymentFailed.subject': 'No se ha podido cobrar un pago de tu plan de Hearth',
  'paymentFailed.intro': 'No se ha podido cobrar el pago de {total} del plan de la cuenta de Hearth {email}. Stripe, que gestiona los pagos, volverá a intentarlo.',
  'paymentFailed.grace': 'Mientras tanto tu plan sigue igual durante unos días. Para conservarlo, inicia sesión y elige «Gestionar la facturación» para revisar o cambiar tu método de pago en Stripe:',
  'paymentFailed.link': 'Ir a mi página de facturación',
  'paymentFailed.ignore': 'Hearth nunca ve tu tarjeta: los datos de pago solo se introducen en Stripe.'
}

export const BILLING_MAIL_WORDS: Catalogues<BillingMailKey> = { en, es }

export const billingMailTranslator: (language: Language) => FeatureMailTranslate<BillingMailKey> = featureMailTranslator(BILLING_MAIL_WORDS)
