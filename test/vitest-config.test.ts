import fs from 'node:fs'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import { MODULE_MOCKS } from '../vitest.config.js'

const ROOT = path.resolve(import.meta.dirname, '..')

function testFiles(dir: string): string[] {
  return fs.readdirSync(path.join(ROOT, dir), { withFileTypes: true }).flatMap((entry) => {
    const file = `${dir}/${entry.name}`
    if (entry.isDirectory()) return testFiles(file)
    return entry.name.endsWith('.test.ts') ? [file] : []
  })
}

/**
 * The suite's workers keep the modules they loaded from file to file (README, "Tests"): a file
 * that replaces a module must run in a process of its own, or its replacement meets the copy an
 * earlier file loaded, and passes or fails by the order files happen to run in.
 */
describe('vitest.config.ts', () => {
  it('runs every test file that replaces a module with vi.mock apart from the others', () => {
    const mocking = testFiles('test').filter((file) => /\bvi\.(?:do)?[mM]ock\(/.test(fs.readFileSync(path.join(ROOT, file), 'utf8')))
    expect(mocking.sort()).toEqual([...MODULE_MOCKS].sort())
  })
})
