import { text } from 'node:stream/consumers'
import { describe, expect, it } from 'vitest'
import type { ExportDataset, ExportRecord } from '../../../../src/hub/kernel/records/datasets.js'
import { csvExport, jsonExport } from '../../../../src/hub/features/export/formats.js'

const dataset = (name: string, records: ExportRecord[]): ExportDataset => ({
  name,
  description: name,
  async *records() {
    yield* records
  }
})

const datasets = [
  dataset('account', [{ id: 'u1', recordedAt: '2026-01-01T00:00:00.000Z', fields: { email: 'ana@example.org' } }]),
  dataset('notes', [
    { id: 'n1', recordedAt: null, fields: { text: '=HYPERLINK("http://evil")', tags: ['a', 'b'] } },
    { id: 'n2', recordedAt: null, fields: { text: 'line one\r\nline "two", three' } }
  ]),
  dataset('empty', [])
]
const header = { userId: 'u1', exportedAt: '2026-02-02T00:00:00.000Z', applications: Promise.resolve({}) }

describe('export formats', () => {
  it('JSON holds every dataset, by name, with every record', async () => {
    const document = JSON.parse(await text(jsonExport(datasets, header)))
    expect(document).toEqual({
      format: 'hearth-export/1',
      userId: 'u1',
      exportedAt: '2026-02-02T00:00:00.000Z',
      datasets: {
        account: [{ id: 'u1', recordedAt: '2026-01-01T00:00:00.000Z', email: 'ana@example.org' }],
        notes: [
          { id: 'n1', recordedAt: null, text: '=HYPERLINK("http://evil")', tags: ['a', 'b'] },
          { id: 'n2', recordedAt: null, text: 'line one\r\nline "two", three' }
        ],
        empty: []
      },
      applications: {}
    })
  })

  it('CSV is one table, a row per field, quoted per RFC 4180', async () => {
    const csv = await text(await csvExport(datasets, header))
    expect(csv.split('\r\n')[0]).toBe('dataset,recordId,field,value,recordedAt')
    expect(csv).toContain('account,u1,email,ana@example.org,2026-01-01T00:00:00.000Z\r\n')
    expect(csv).toContain('notes,n1,tags,"[""a"",""b""]",\r\n')
    expect(csv).toContain('notes,n2,text,"line one\r\nline ""two"", three",\r\n')
  })

  it.each(['=1+1', '+1', '-1', '@SUM(A1)', '\tcmd', '\rcmd'])('CSV neutralises a cell a spreadsheet would run: %j', async (value) => {
    const csv = await text(await csvExport([dataset('d', [{ id: 'r', recordedAt: null, fields: { value } }])], header))
    const row = csv.split('\r\n')[1]!
    expect(row).toMatch(/^d,r,value,"?'/)
  })

  it('CSV ends with the error of a dataset that fails part way, instead of staying open', async () => {
    const failing: ExportDataset = {
      name: 'broken',
      description: 'broken',
      async *records() {
        yield { id: 'r1', recordedAt: null, fields: { value: 'one' } }
        throw new Error('database gone')
      }
    }
    await expect(text(await csvExport([failing], header))).rejects.toThrow('database gone')
  })
})
