import { Readable, pipeline } from 'node:stream'
import { stringify } from 'csv-stringify'
import type { ExportDataset, ExportRecord } from './datasets.js'

export const EXPORT_FORMATS = ['json', 'csv'] as const
export type ExportFormat = (typeof EXPORT_FORMATS)[number]

export const CSV_COLUMNS = ['dataset', 'recordId', 'field', 'value', 'recordedAt'] as const

interface ExportHeader {
  userId: string
  exportedAt: string
}

/**
 * `{"format", "userId", "exportedAt", "datasets": {"<name>": [records]}}`, written as the
 * records arrive instead of built in memory.
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
    yield '}}\n'
  }
  return Readable.from(chunks())
}

/**
 * RFC 4180 through csv-stringify, one row per field of each record. A cell a spreadsheet would run
 * as a formula (leading `=`, `+`, `-`, `@`, tab or CR) is neutralised with a leading `'`.
 */
export function csvExport(datasets: ExportDataset[], header: ExportHeader): Readable {
  async function* rows() {
    for (const dataset of datasets) {
      for await (const record of dataset.records(header.userId)) {
        for (const [field, value] of Object.entries(record.fields)) {
          yield [dataset.name, record.id, field, cell(value), record.recordedAt ?? '']
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

function cell(value: unknown): string {
  if (value === null || value === undefined) return ''
  return typeof value === 'string' ? value : JSON.stringify(value)
}
