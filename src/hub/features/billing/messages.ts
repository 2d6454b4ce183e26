import type { Catalogues } from '../../kernel/language/language.js'
import { type FeatureTranslate, featureTranslator } from '../../kernel/pages/i18n/index.js'

/**
 * The words of the billing page, in every page language; the kernel's own messages (layout, forms, dialog)
 * come with them through `billingTranslator`. The same keys and `{name}` placeholders in each language
 * (the type and test/hub/kernel/pages/catalogues.test.ts say so).
 */
const en = {
  'billing.title': 'Plan and billing',
  'billing.currentPlan': 'Your plan',
  'billing.plan': 'Plan',
  'billing.status': 'Status',
  'billing.status.active': 'Active',
  'billing.status.trialing': 'Trial',
  'billing.status.past_due': 'Payment overdue',
  'billing.status.canceled': 'Ended',
  'billing.periodEnd': 'Current period ends',
  'billing.cancelsOn': 'Ends on',
  'billing.cancelsAtPeriodEnd': 'Your subscription is canceled: it ends at the end of the current period and is not renewed.',
  'billing.pastDue': 'Your last payment failed. Update your payment method with “Manage billing” to keep your plan.',
  'billing.entitlements': 'What your plan includes',
  'billing.noEntitlements': 'Nothing beyond what every account has.',
  'billing.fromOwn': 'your plan',
  'billing.fromGroup': 'the plan {plan} of the group {group}',
  'billing.entitlementFrom': 'from {sources}',
  'billing.groupPlans': 'Your groups’ plans',
  'billing.groupPlan': 'The group {group} has the plan {plan}: you have what it includes, beside your own plan.',
  'billing.household': 'Your subscription pays for the plan of the group {group}: its members have what your plan includes.',
  'billing.shareHeading': 'Pay for a group',
  'billing.shareHint': 'Let your subscription pay for a group’s plan: every member has what your plan includes, for as long as your subscription lasts. One group at a time.',
  'billing.shareGroup': 'Group',
  'billing.share': 'Let my subscription pay for this group',
  'billing.shared': 'Your subscription now pays for the group {group}.',
  'billing.nothingToShare': 'You have no active subscription to share: subscribe to a plan first.',
  'billing.noGroupToShare': 'That group no longer exists.',
  'billing.noGroups': 'There is no group yet: make one under Administration, Groups.',
  'billing.manage': 'Manage billing',
  'billing.manageHint': 'Change your payment method, see every invoice or cancel, on Stripe: Hearth never sees your card.',
  'billing.byHand': 'Plans are set by whoever runs this hub: ask them to change yours.',
  'billing.offers': 'Other plans',
  'billing.noOffers': 'No other plan is on offer.',
  'billing.pricePer.month': '{price} a month',
  'billing.pricePer.year': '{price} a year',
  'billing.includes': 'Includes: {entitlements}',
  'billing.subscribe': 'Subscribe to {plan}',
  'billing.alreadySubscribed': 'You have a subscription already: change or cancel it with “Manage billing”.',
  'billing.noCustomer': 'You have not paid through Stripe yet: subscribe to a plan first.',
  'billing.invoices': 'Invoices',
  'billing.noInvoices': 'No invoice yet.',
  'billing.paidOn': 'Paid',
  'billing.amount': 'Amount',
  'billing.invoice': 'Invoice',
  'billing.viewInvoice': 'View invoice {id} (opens in a new tab)',
  'billing.olderInvoices': 'Only the latest {count} invoices are shown; billing management and your data export have them all.'
} as const

export type BillingMessageKey = keyof typeof en

/** Looks up this feature's messages and the kernel's in one page language. */
export type BillingTranslate = FeatureTranslate<BillingMessageKey>

const es: Record<BillingMessageKey, string> = {
  'billing.title': 'Plan y facturación',
  'billing.currentPlan': 'Tu plan',
  'billing.plan': 'Plan',
  'billing.status': 'Estado',
  'billing.status.active': 'Activo',
  'billing.status.trialing': 'Prueba',
  'billing.status.past_due': 'Pago pendiente',
  'billing.status.canceled': 'Terminado',
  'billing.periodEnd': 'El periodo actual termina',
  'billing.cancelsOn': 'Termina el',
  'billing.cancelsAtPeriodEnd': 'Tu suscripción está cancelada: termina al final del periodo actual y no se renueva.',
  'billing.pastDue': 'Tu último pago falló. Actualiza tu forma de pago con «Gestionar la facturación» para conservar tu plan.',
  'billing.entitlements': 'Lo que incluye tu plan',
  'billing.noEntitlements': 'Nada más de lo que tiene toda cuenta.',
  'billing.fromOwn': 'tu plan',
  'billing.fromGroup': 'el plan {plan} del grupo {group}',
  'billing.entitlementFrom': 'de {sources}',
  'billing.groupPlans': 'Los planes de tus grupos',
  'billing.groupPlan': 'El grupo {group} tiene el plan {plan}: tienes lo que incluye, además de tu propio plan.',
  'billing.household': 'Tu suscripción paga el plan del grupo {group}: sus miembros tienen lo que incluye tu plan.',
  'billing.shareHeading': 'Pagar por un grupo',
  'billing.shareHint': 'Deja que tu suscripción pague el plan de un grupo: cada miembro tiene lo que incluye tu plan mientras dure tu suscripción. Un grupo a la vez.',
  'billing.shareGroup': 'Grupo',
  'billing.share': 'Que mi suscripción pague por este grupo',
  'billing.shared': 'Tu suscripción paga ahora por el grupo {group}.',
  'billing.nothingToShare': 'No tienes una suscripción activa que compartir: suscríbete primero a un plan.',
  'billing.noGroupToShare': 'Ese grupo ya no existe.',
  'billing.noGroups': 'Aún no hay ningún grupo: crea uno en Administración, Grupos.',
  'billing.manage': 'Gestionar la facturación',
  'billing.manageHint': 'Cambia tu forma de pago, consulta todas tus facturas o cancela, en Stripe: Hearth nunca ve tu tarjeta.',
  'billing.byHand': 'Los planes los asigna quien administra este hub: pídele que cambie el tuyo.',
  'billing.offers': 'Otros planes',
  'billing.noOffers': 'No hay otro plan a la venta.',
  'billing.pricePer.month': '{price} al mes',
  'billing.pricePer.year': '{price} al año',
  'billing.includes': 'Incluye: {entitlements}',
  'billing.subscribe': 'Suscribirse a {plan}',
  'billing.alreadySubscribed': 'Ya tienes una suscripción: cámbiala o cancélala con «Gestionar la facturación».',
  'billing.noCustomer': 'Aún no has pagado con Stripe: suscríbete primero a un plan.',
  'billing.invoices': 'Facturas',
  'billing.noInvoices': 'Aún no hay facturas.',
  'billing.paidOn': 'Pagada',
  'billing.amount': 'Importe',
  'billing.invoice': 'Factura',
  'billing.viewInvoice': 'Ver la factura {id} (se abre en otra pestaña)',
  'billing.olderInvoices': 'Solo se muestran las últimas {count} facturas; la gestión de la facturación y tu exportación de datos las tienen todas.'
}

export const BILLING_MESSAGES: Catalogues<BillingMessageKey> = { en, es }

/** The translator of this feature's views in a page's language: its messages and the kernel's, composed once. */
export const billingTranslator = featureTranslator(BILLING_MESSAGES)
