import type { FastifyRequest } from 'fastify'
import { createGrantsRepository } from '../../../shared/access-grants/repository.js'
import type { FeaturesDeclared, HubFeature } from '../../kernel/feature.js'
import type { Kernel } from '../../kernel/kernel.js'
import { sessionOf } from '../../kernel/sessions/request-session.js'
import type { ExportDataset } from '../../kernel/records/datasets.js'
import { exportAllowance } from './allowance.js'
import { applicationExports } from './application-exports.js'
import { hubDatasets } from './hub-datasets.js'
import { exportPages } from './pages.js'
import { exportRoutes } from './routes.js'
import { trailDatasets } from './trail-datasets.js'

export interface ExportFeatureOptions {
  /** How long an export waits for each application; 5 s by default. */
  applicationExportTimeoutMs?: number
}

/**
 * What a person may take with them (docs/privacy.md, "Export"): the kernel's own records (account,
 * sessions, known devices), the datasets the features declare, then the access grants and the audit
 * trail; and what each application exports of them.
 */
export function exportFeature(kernel: Kernel, { applicationExportTimeoutMs }: ExportFeatureOptions = {}): HubFeature {
  const { db, config, keyring, logger, now } = kernel
  let datasets: ExportDataset[] | undefined
  // One list, made once, for the routes and the page.
  const datasetsOf = (declared: FeaturesDeclared) =>
    (datasets ??= [...hubDatasets(db), ...declared.datasets, ...trailDatasets(db, createGrantsRepository(db))])
  return {
    async routes(app, declared) {
      await app.register(exportRoutes, {
        datasets: datasetsOf(declared),
        audit: kernel.auditTrail,
        allowExport: exportAllowance(kernel.counterStore),
        applicationExports: applicationExports({ endpoints: config.appExports, keyring, issuer: config.publicUrl, logger, now, timeoutMs: applicationExportTimeoutMs }),
        userOf: (request: FastifyRequest) => sessionOf(request).userId
      })
    },
    pages: (declared) => exportPages({ datasets: datasetsOf(declared), applications: Object.keys(config.appExports) })
  }
}
