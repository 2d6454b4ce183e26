import type { Language } from '../../../kernel/language/language.js'
import { ColumnHeadings, FormMessage, Layout, type PageContext, Timestamp } from '../../../kernel/pages/layout.js'
import { wholeUnits } from '../amount.js'
import { INVOICES_SHOWN } from '../invoices.js'
import type { BillingOverview } from '../overview.js'
import { HOUSEHOLD_FORM_PATH, type HouseholdError } from '../household-form.js'
import { CSRF_FORM_FIELD } from '../../../kernel/pipeline/csrf.js'
import type { Plan } from '../plans.js'
import { billingTranslator } from '../messages.js'

export interface BillingPageProps {
  context: PageContext
  overview: BillingOverview
  /** The plans one can move to: sold through Stripe, other than the one in effect. Empty without Stripe. */
  offers: Plan[]
  /** Whether Stripe takes payments (STRIPE_SECRET_KEY): without it there is no payment button at all. */
  payments: boolean
  /** For an administrator where Stripe takes payments: the form that lets their subscription pay for a group. */
  household?: HouseholdFormProps | undefined
}

export interface HouseholdFormProps {
  groups: { id: string; name: string }[]
  csrf: string
  notice: boolean
  error: HouseholdError | undefined
}

/** The account's plan, what it grants, the plans on offer and the invoices paid (docs/billing.md). */
export function BillingPage({ context, overview, offers, payments, household }: BillingPageProps) {
  const t = billingTranslator(context.language)
  return (
    <Layout context={context} title={t('billing.title')}>
      <CurrentPlan context={context} overview={overview} payments={payments} />
      {(overview.groupPlans.length > 0 || overview.household !== null) && <GroupPlans context={context} overview={overview} />}
      {household && <HouseholdForm context={context} overview={overview} form={household} />}
      {payments && <Offers context={context} offers={offers} />}
      <InvoiceList context={context} invoices={overview.invoices} />
    </Layout>
  )
}

function CurrentPlan({ context, overview, payments }: { context: PageContext; overview: BillingOverview; payments: boolean }) {
  const { language } = context
  const t = billingTranslator(language)
  const { plan, status, entitlements, currentPeriodEnd, cancelAtPeriodEnd } = overview
  return (
    // The API's one 409 of each button, in the page's words: the client looks for data-msg-email-taken nearest the button.
    <section aria-labelledby="plan-heading" data-msg-email-taken={t('billing.noCustomer')}>
      <h2 id="plan-heading">{t('billing.currentPlan')}</h2>
      <dl class="billing-summary">
        <dt>{t('billing.plan')}</dt>
        <dd data-plan={plan.id}>{plan.name}</dd>
        <dt>{t('billing.status')}</dt>
        <dd data-status={status}>{t(`billing.status.${status}`)}</dd>
        {currentPeriodEnd !== null && (
          <>
            <dt>{cancelAtPeriodEnd ? t('billing.cancelsOn') : t('billing.periodEnd')}</dt>
            <dd>
              <Timestamp iso={currentPeriodEnd} language={language} />
            </dd>
          </>
        )}
      </dl>
      {cancelAtPeriodEnd && <p class="notice">{t('billing.cancelsAtPeriodEnd')}</p>}
      {/* The payment-failure mail sends the person here: say what to do, where it can be done. */}
      {status === 'past_due' && payments && <p class="notice">{t('billing.pastDue')}</p>}
      <h3>{t('billing.entitlements')}</h3>
      {entitlements.length === 0 ? (
        <p>{t('billing.noEntitlements')}</p>
      ) : (
        <ul class="entitlement-list">
          {entitlements.map((entitlement) => (
            <li data-entitlement={entitlement}>
              <code>{entitlement}</code> <span class="hint">{t('billing.entitlementFrom', { sources: sourcesOf(overview, entitlement, t) })}</span>
            </li>
          ))}
        </ul>
      )}
      {payments ? (
        <>
          <p class="hint">{t('billing.manageHint')}</p>
          <p class="button-row">
            <button type="button" data-action="manage-billing">
              {t('billing.manage')}
            </button>
          </p>
          <FormMessage />
        </>
      ) : (
        <p class="hint">{t('billing.byHand')}</p>
      )}
    </section>
  )
}

/** Where an entitlement comes from, in words: the person's own plan, and each group's plan that grants it. */
function sourcesOf(overview: BillingOverview, entitlement: string, t: ReturnType<typeof billingTranslator>): string {
  const names = new Map(overview.groupPlans.map(({ group, plan }) => [group.id, plan.name]))
  return overview.entitlementSources
    .filter((source) => source.entitlement === entitlement)
    .map((source) => (source.group === undefined ? t('billing.fromOwn') : t('billing.fromGroup', { plan: names.get(source.group.id) ?? source.plan, group: source.group.name })))
    .join(', ')
}

/** The household plan (docs/billing.md): the person's groups' plans, and the group their own subscription pays for. */
function GroupPlans({ context, overview }: { context: PageContext; overview: BillingOverview }) {
  const { language } = context
  const t = billingTranslator(language)
  return (
    <section aria-labelledby="group-plans-heading">
      <h2 id="group-plans-heading">{t('billing.groupPlans')}</h2>
      {overview.household !== null && <p data-household={overview.household.group.id}>{t('billing.household', { group: overview.household.group.name })}</p>}
      {overview.groupPlans.length > 0 && (
        <ul class="entitlement-list">
          {overview.groupPlans.map(({ group, plan, until }) => (
            <li data-group-plan={group.id}>
              {t('billing.groupPlan', { group: group.name, plan: plan.name })}
              {until !== null && (
                <>
                  {' '}
                  {t('billing.cancelsOn')} <Timestamp iso={until} language={language} />
                </>
              )}
            </li>
          ))}
        </ul>
      )}
    </section>
  )
}

/** The administrator's plain form (no script needed): let their Stripe subscription pay for a group's plan. */
function HouseholdForm({ context, overview, form }: { context: PageContext; overview: BillingOverview; form: HouseholdFormProps }) {
  const t = billingTranslator(context.language)
  return (
    <section aria-labelledby="household-heading">
      <h2 id="household-heading">{t('billing.shareHeading')}</h2>
      {form.notice && overview.household !== null && (
        <p class="notice" role="status">
          {t('billing.shared', { group: overview.household.group.name })}
        </p>
      )}
      {form.error !== undefined && (
        <p class="notice" role="alert">
          {t(form.error === 'nothing-to-share' ? 'billing.nothingToShare' : 'billing.noGroupToShare')}
        </p>
      )}
      <p class="hint">{t('billing.shareHint')}</p>
      {form.groups.length === 0 ? (
        <p>{t('billing.noGroups')}</p>
      ) : (
        <form method="post" action={HOUSEHOLD_FORM_PATH}>
          <input type="hidden" name={CSRF_FORM_FIELD} value={form.csrf} />
          <label for="household-group">{t('billing.shareGroup')}</label>
          <select id="household-group" name="groupId">
            {form.groups.map((group) => (
              <option value={group.id} selected={overview.household?.group.id === group.id}>
                {group.name}
              </option>
            ))}
          </select>
          <p class="button-row">
            <button type="submit">{t('billing.share')}</button>
          </p>
        </form>
      )}
    </section>
  )
}

function Offers({ context, offers }: { context: PageContext; offers: Plan[] }) {
  const { language } = context
  const t = billingTranslator(language)
  return (
    <section aria-labelledby="offers-heading" data-msg-email-taken={t('billing.alreadySubscribed')}>
      <h2 id="offers-heading">{t('billing.offers')}</h2>
      {offers.length === 0 ? (
        <p>{t('billing.noOffers')}</p>
      ) : (
        <ul class="offer-list">
          {offers.map((plan) => (
            <li data-offer={plan.id}>
              <h3>{plan.name}</h3>
              {plan.price !== null && plan.currency !== null && plan.interval !== null && (
                <p>{t(`billing.pricePer.${plan.interval}`, { price: formatMoney(plan.price, plan.currency, language) })}</p>
              )}
              {plan.entitlements.length > 0 && <p>{t('billing.includes', { entitlements: plan.entitlements.join(', ') })}</p>}
              <button type="button" data-action="subscribe" data-plan={plan.id}>
                {t('billing.subscribe', { plan: plan.name })}
              </button>
            </li>
          ))}
        </ul>
      )}
      <FormMessage />
    </section>
  )
}

function InvoiceList({ context, invoices }: { context: PageContext; invoices: BillingOverview['invoices'] }) {
  const { language } = context
  const t = billingTranslator(language)
  return (
    <section aria-labelledby="invoices-heading">
      <h2 id="invoices-heading">{t('billing.invoices')}</h2>
      {invoices.length === 0 ? (
        <p>{t('billing.noInvoices')}</p>
      ) : (
        <table class="invoice-list">
          <ColumnHeadings labels={[t('billing.paidOn'), t('billing.amount'), t('billing.invoice')]} />
          <tbody>
            {invoices.map((invoice) => (
              <tr data-invoice={invoice.id}>
                <td data-label={t('billing.paidOn')}>
                  <Timestamp iso={invoice.paidAt} language={language} />
                </td>
                <td data-label={t('billing.amount')}>{formatMoney(invoice.amount, invoice.currency, language)}</td>
                <td data-label={t('billing.invoice')}>
                  {/* Stripe's hosted page, in a tab of its own that cannot reach back into this one. */}
                  {invoice.url !== null && isWebUrl(invoice.url) ? (
                    <a href={invoice.url} target="_blank" rel="noopener noreferrer">
                      {t('billing.viewInvoice', { id: invoice.id })}
                    </a>
                  ) : (
                    invoice.id
                  )}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      {invoices.length >= INVOICES_SHOWN && <p class="hint">{t('billing.olderInvoices', { count: INVOICES_SHOWN })}</p>}
    </section>
  )
}

/**
 * An amount as Stripe reports it, in the page's language: 1200 EUR is "€12.00" in English and
 * "12,00 €" in Spanish; a currency Stripe counts without cents (JPY) is not divided.
 */
export function formatMoney(amount: number, currency: string, language: Language): string {
  return new Intl.NumberFormat(language, { style: 'currency', currency: currency.toUpperCase() }).format(wholeUnits(amount, currency))
}

/** Only a web page is linked: the URL came from a webhook, and a `javascript:` one must never become a link. */
function isWebUrl(url: string): boolean {
  return URL.canParse(url) && ['https:', 'http:'].includes(new URL(url).protocol)
}
