import { FormMessage, Layout, type PageContext } from '../../../kernel/pages/layout.js'
import { type ExportTranslate, exportTranslator, isExportMessageKey } from '../messages.js'

export interface ExportPageProps {
  context: PageContext
  datasets: readonly { name: string; description: string }[]
  /** The applications asked for what they hold about the person, by display name. */
  applications: readonly string[]
}

export function ExportPage({ context, datasets, applications }: ExportPageProps) {
  const t = exportTranslator(context.language)
  return (
    <Layout context={context} title={t('export.title')}>
      <p>{t('export.intro')}</p>
      <ul>
        {datasets.map(({ name, description }) => (
          <li>{datasetLabel(t, name) ?? description}</li>
        ))}
        {applications.length > 0 && <li>{t('export.applications', { applications: applications.join(', ') })}</li>}
      </ul>
      <p class="button-row">
        <button type="button" data-action="export" data-format="json">
          {t('export.json')}
        </button>
        <button type="button" data-action="export" data-format="csv">
          {t('export.csv')}
        </button>
      </p>
      <p class="hint">{t('export.limit')}</p>
      <FormMessage />
    </Layout>
  )
}

/** The catalogue's name for a dataset it knows; a dataset added later shows its own description until translated. */
function datasetLabel(t: ExportTranslate, name: string): string | undefined {
  const key = `export.dataset.${name}`
  return isExportMessageKey(key) ? t(key) : undefined
}
