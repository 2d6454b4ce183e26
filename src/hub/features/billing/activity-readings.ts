import type { ActivityReadings } from '../../kernel/audit/activity.js'

/** How the events this feature records read on their owner's activity page (docs/activity.md). */
export const billingActivity = {
  'billing.plan.changed': {
    shows: ['plan', 'status', 'source'],
    sentence: { en: 'Your plan is now {plan} ({status})', es: 'Tu plan ahora es {plan} ({status})' }
  },
  // `plan` is free when the group no longer has one.
  'billing.group-plan.changed': {
    shows: ['group', 'plan'],
    sentence: { en: 'Your group {group} is now on the plan {plan}', es: 'Tu grupo {group} tiene ahora el plan {plan}' }
  },
  'billing.checkout.started': {
    shows: ['plan'],
    sentence: { en: 'Started subscribing to {plan}', es: 'Empezaste a suscribirte a {plan}' }
  },
  'billing.portal.opened': {
    shows: [],
    sentence: { en: 'Opened billing management', es: 'Abriste la gestión de pagos' }
  },
  // `total` is the amount as Stripe reported it, already written with its currency ("12.00 EUR").,
  'billing.invoice.paid': {
    shows: ['total'],
    sentence: { en: 'Paid an invoice of {total}', es: 'Pagaste una factura de {total}' }
  },
  'billing.payment.failed': {
    shows: ['total'],
    sentence: { en: 'A payment of {total} failed', es: 'Falló un pago de {total}' }
  }
} as const satisfies ActivityReadings
