import { applicationName } from '../../kernel/pages/application-names.js'
import type { HubPage } from '../../kernel/pages/shell.js'
import { ExportPage } from './views/export.js'

export interface ExportPagesOptions {
  datasets: readonly { name: string; description: string }[]
  /** The applications an export asks for what they hold (HUB_APPS `export=`), by id. */
  applications: readonly string[]
}

/** The export page: what an export holds, and its buttons. */
export function exportPages({ datasets, applications }: ExportPagesOptions): HubPage[] {
  return [
    {
      path: '/export',
      signedIn: true,
      async render({ request, reply, session, shell }) {
        const names = applications.map((id) => applicationName(shell.applicationNames, id))
        return <ExportPage context={await shell.contextOf(request, reply, session)} datasets={datasets} applications={names} />
      }
    }
  ]
}
