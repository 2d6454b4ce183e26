import { type ApplicationNames, applicationName, purposeLabel } from '../../../kernel/pages/application-names.js'
import { ColumnHeadings, FormMessage, Layout, type PageContext, Timestamp, formatTimestamp } from '../../../kernel/pages/layout.js'
import type { ConsentOverview } from '../service.js'
import { OPTIONAL_COOKIES, PROFILE_VISIBILITIES, type PrivacySettings, RETENTION_DAYS } from '../settings.js'
import { privacyTranslator } from '../messages.js'

/** The policy version recorded with each consent given on this page. */
export const PRIVACY_POLICY_VERSION = '2026-01'

export interface PrivacyPageProps {
  context: PageContext
  settings: PrivacySettings
  consents: ConsentOverview
  names: ApplicationNames
}

/** The purposes the page offers a choice for: the terms, the optional cookies that need consent, and sharing per application. */
export function consentPurposes(applications: readonly string[]): string[] {
  return ['terms', 'analytics', 'marketing', ...applications.map((application) => `data-sharing:${application}`)]
}

export function PrivacyPage({ context, settings, consents, names }: PrivacyPageProps) {
  const t = privacyTranslator(context.language)
  return (
    <Layout context={context} title={t('privacy.title')}>
      <SettingsForm context={context} settings={settings} names={names} />
      <ConsentChoices context={context} consents={consents} purposes={consentPurposes(Object.keys(settings.dataSharing))} names={names} />
      <ConsentHistory context={context} consents={consents} names={names} />
    </Layout>
  )
}

/** Field names are the document's paths (`cookies.analytics`), so the client builds the PUT body from them alone. */
function SettingsForm({ context: { language }, settings, names }: { context: PageContext; settings: PrivacySettings; names: ApplicationNames }) {
  const t = privacyTranslator(language)
  const applications = Object.entries(settings.dataSharing)
  return (
    <section aria-labelledby="settings-heading">
      <h2 id="settings-heading">{t('privacy.settings')}</h2>
      <p class="hint" data-settings-saved={settings.updatedAt ?? ''}>
        {settings.updatedAt ? t('privacy.lastSaved', { date: formatTimestamp(settings.updatedAt, language) }) : t('privacy.neverSaved')}
      </p>
      <form class="stacked-form" data-form="privacy-settings">
        {applications.length > 0 && (
          <fieldset>
            <legend>{t('privacy.dataSharing')}</legend>
            {applications.map(([application, shared]) => (
              <Checkbox name={`dataSharing.${application}`} label={applicationName(names, application)} checked={shared} />
            ))}
          </fieldset>
        )}
        <fieldset>
          <legend>{t('privacy.cookies')}</legend>
          <Checkbox name="cookies.necessary" label={t('privacy.cookie.necessary')} checked disabled />
          {OPTIONAL_COOKIES.map((cookie) => (
            <Checkbox name={`cookies.${cookie}`} label={t(`privacy.cookie.${cookie}`)} checked={settings.cookies[cookie]} />
          ))}
        </fieldset>
        <label for="retention">{t('privacy.retention', { min: RETENTION_DAYS.min, max: RETENTION_DAYS.max })}</label>
        <input
          id="retention"
          name="retention.activityLogDays"
          type="number"
          inputMode="numeric"
          min={RETENTION_DAYS.min}
          max={RETENTION_DAYS.max}
          step={1}
          required
          value={settings.retention.activityLogDays}
        />
        <fieldset>
          <legend>{t('privacy.visibility')}</legend>
          {PROFILE_VISIBILITIES.map((visibility) => (
            <div class="choice">
              <input
                id={`visibility-${visibility}`}
                type="radio"
                name="visibility.profile"
                value={visibility}
                checked={settings.visibility.profile === visibility}
              />
              <label for={`visibility-${visibility}`}>{t(`privacy.visibility.${visibility}`)}</label>
            </div>
          ))}
        </fieldset>
        <button type="submit">{t('privacy.save')}</button>
        <FormMessage />
      </form>
    </section>
  )
}

function Checkbox({ name, label, checked, disabled }: { name: string; label: string; checked: boolean; disabled?: boolean }) {
  const id = `field-${name.replace(/[^a-zA-Z0-9_-]/g, '-')}`
  return (
    <div class="choice">
      <input id={id} type="checkbox" name={name} checked={checked} disabled={disabled} />
      <label for={id}>{label}</label>
    </div>
  )
}

function ConsentChoices({ context: { language }, consents, purposes, names }: { context: PageContext; consents: ConsentOverview; purposes: string[]; names: ApplicationNames }) {
  const t = privacyTranslator(language)
  return (
    <section aria-labelledby="consent-heading">
      <h2 id="consent-heading">{t('privacy.consents')}</h2>
      <p>{t('privacy.consentsIntro')}</p>
      <table>
        <ColumnHeadings labels={[t('privacy.purpose'), t('privacy.decision'), t('privacy.recordedAt'), '']} />
        <tbody>
          {purposes.map((purpose) => {
            const current = consents.current[purpose]
            const granted = current?.granted ?? false
            const label = purposeLabel(t, purpose, names)
            return (
              <tr data-purpose={purpose} data-granted={granted ? 'true' : 'false'}>
                <th scope="row">{label}</th>
                <td data-label={t('privacy.decision')}>{granted ? t('privacy.granted') : t('privacy.withdrawn')}</td>
                <td data-label={t('privacy.recordedAt')}>{current ? <Timestamp iso={current.recordedAt} language={language} /> : '—'}</td>
                <td>
                  <button
                    type="button"
                    data-action="consent"
                    data-purpose={purpose}
                    data-granted={granted ? 'false' : 'true'}
                    data-version={PRIVACY_POLICY_VERSION}
                  >
                    {granted ? t('privacy.withdraw', { purpose: label }) : t('privacy.grant', { purpose: label })}
                  </button>
                </td>
              </tr>
            )
          })}
        </tbody>
      </table>
      <FormMessage />
    </section>
  )
}

function ConsentHistory({ context: { language }, consents, names }: { context: PageContext; consents: ConsentOverview; names: ApplicationNames }) {
  const t = privacyTranslator(language)
  return (
    <section aria-labelledby="history-heading">
      <h2 id="history-heading">{t('privacy.history')}</h2>
      {consents.consents.length === 0 ? (
        <p>{t('privacy.noHistory')}</p>
      ) : (
        <table data-consent-history>
          <ColumnHeadings labels={[t('privacy.recordedAt'), t('privacy.purpose'), t('privacy.decision'), t('privacy.version')]} />
          <tbody>
            {consents.consents.map((record) => (
              <tr data-purpose={record.purpose} data-granted={record.granted ? 'true' : 'false'}>
                <td data-label={t('privacy.recordedAt')}>
                  <Timestamp iso={record.recordedAt} language={language} />
                </td>
                <td data-label={t('privacy.purpose')}>{purposeLabel(t, record.purpose, names)}</td>
                <td data-label={t('privacy.decision')}>{record.granted ? t('privacy.granted') : t('privacy.withdrawn')}</td>
                <td data-label={t('privacy.version')}>{record.version ?? '—'}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </section>
  )
}
