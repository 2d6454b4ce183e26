import { Readable, pipeline } from 'node:stream'
import { loadOnce } from '../../../shared/load-once.js'
import type { ApplicationExportResult } from './application-exports.js'
import type { ExportDataset, ExportRecord } from '../../kernel/records/datasets.js'

export const EXPORT_FORMATS = ['json', 'csv'] as const
export type ExportFormat = (typeof EXPORT_FORMATS)[number]

export const CSV_COLUMNS = ['dataset', 'recordId', 'field', 'value', 'recordedAt'] as const

/** The CSV writer, imported with the first CSV export. */
const csvStringify = loadOnce(() => import('csv-stringify'))

interface ExportHeader {
  userId: string
  exportedAt: string
  /** What each application gave, asked while the hub's own datasets are written. */
  applications: Promise<Record<string, ApplicationExportResult>>
}

/**
 * `{"format", "userId", "exportedAt", "datasets": {"<name>": [records]}, "applications": {"<id>":
 * {"status": "exported", "datasets": {...}} or {"status": "unavailable", "reason"}}}`, written as
 * the records arrive instead of built in memory.
 */
export function jsonExport(datasets: ExportDataset[], header: ExportHeader): Readable {
  async function* chunks() {
    yield `{"format":"hearth-export/1","userId":${JSON.stringify(header.userId)},"exportedAt":"${header.exportedAt}","datasets":{`
    for (const [index, dataset] of datasets.entries()) {
      yield `${index === 0 ? '' : ','}${JSON.stringify(dataset.name)}:[`
      let first = true
      for await (const record of dataset.records(header.userId)) {
        yield `${first ? '' : ','}${JSON.stringify(flatten(record))}`
        first = false
      }
      yield ']'
    }
    yield `},"applications":${JSON.stringify(Object.fromEntries(Object.entries(await header.applications).map(([id, result]) => [id, flattenApplication(result)])))}}\n`
  }
  return Readable.from(chunks())
}

/**
 * RFC 4180 through csv-stringify, one row per field of each record; an application's datasets
 * are named `applications.<id>.<dataset>`, an unavailable one has its `status` and `reason` rows
 * under `applications.<id>`. A cell a spreadsheet would run
 * as a formula (leading `=`, `+`, `-`, `@`, tab or CR) is neutralised with a leading `'`.
 */
export async function csvExport(datasets: ExportDataset[], header: ExportHeader): Promise<Readable> {
  const { stringify } = await csvStringify()
  async function* rows() {
    for (const dataset of datasets) {
      for await (const record of dataset.records(header.userId)) {
        for (const [field, value] of Object.entries(record.fields)) {
          yield [dataset.name, record.id, field, cell(value), record.recordedAt ?? '']
        }
      }
    }
    for (const [applicationId, result] of Object.entries(await header.applications)) {
      const prefix = `applications.${applicationId}`
      if (result.status === 'unavailable') {
        yield [prefix, '', 'status', result.status, '']
        yield [prefix, '', 'reason', result.reason, '']
        continue
      }
      for (const [name, records] of Object.entries(result.datasets)) {
        for (const record of records) {
          for (const [field, value] of Object.entries(record.fields)) yield [`${prefix}.${name}`, record.id, field, cell(value), record.recordedAt ?? '']
        }
      }
    }
  }
  // pipeline, not pipe: a failed read (the database, a bad row) must reach the stream the reply
  // sends, which Fastify then logs and ends; pipe would leave it open and the error unhandled.
  return pipeline(
    Readable.from(rows()),
    stringify({ header: true, columns: [...CSV_COLUMNS], escape_formulas: true, record_delimiter: 'windows' }),
    // The error surfaces on the returned stream; there is nothing more to do with it here.
    () => {}
  )
}

function flatten(record: ExportRecord): Record<string, unknown> {
  return { id: record.id, recordedAt: record.recordedAt, ...record.fields }
}

function flattenApplication(result: ApplicationExportResult) {
  if (result.status === 'unavailable') return result
  const datasets = Object.fromEntries(Object.entries(result.datasets).map(([name, records]) => [name, records.map(flatten)]))
  return { status: result.status, datasets }
}

function cell(value: unknown): string {
  if (value === null || value === undefined) return ''
  return typeof value === 'string' ? value : JSON.stringify(value)
}
