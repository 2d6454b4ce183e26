import fs from 'node:fs'
import path from 'node:path'
import { checkoutRoot } from '../../../shared/checkout.js'
import type { App } from '../../../shared/http/server.js'
import { FAVICON_PATH, FAVICON_SVG } from './favicon.js'

/** The client scripts and stylesheet, under content-hashed names written by `npm run build`. */
export interface PageAssets {
  /** URL paths for the page shell. */
  script: string
  stylesheet: string
  /** The task manager pages' script (src/tasks/client), served by the task manager. */
  tasksScript: string
  files: ReadonlyMap<string, { body: Buffer; contentType: string }>
}

/** What scripts/build-client.ts writes beside the bundles. */
export const ASSETS_MANIFEST = 'manifest.json'
export const ASSETS_URL_PREFIX = '/assets/'

/**
 * `dist/public` of this checkout, wherever this module runs from (the server bundle,
 * dist/src/hub/kernel/pages, or src/hub/kernel/pages under the test runner).
 */
export function builtAssetsDir(): string {
  return path.join(checkoutRoot(), 'dist', 'public')
}

const CONTENT_TYPES: Record<string, string> = {
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.map': 'application/json'
}

/** Reads the built assets once at start-up; a missing build stops start-up with a message saying so. */
export function loadPageAssets(dir: string = builtAssetsDir()): PageAssets {
  const manifestPath = path.join(dir, ASSETS_MANIFEST)
  if (!fs.existsSync(manifestPath)) throw new Error(`The hub's page assets are missing (${manifestPath}); run npm run build`)
  const manifest = JSON.parse(fs.readFileSync(manifestPath, 'utf8')) as { script: string; stylesheet: string; tasksScript: string }
  const files = new Map(
    fs
      .readdirSync(dir)
      .filter((name) => name !== ASSETS_MANIFEST && CONTENT_TYPES[path.extname(name)] !== undefined)
      .map((name) => [name, { body: fs.readFileSync(path.join(dir, name)), contentType: CONTENT_TYPES[path.extname(name)] as string }])
  )
  return { script: ASSETS_URL_PREFIX + manifest.script, stylesheet: ASSETS_URL_PREFIX + manifest.stylesheet, tasksScript: ASSETS_URL_PREFIX + manifest.tasksScript, files }
}

/** A year, immutable: each build names its files by their content, so a changed file is a new URL. */
const LONG_CACHE = 'public, max-age=31536000, immutable'
/** The icon keeps one name, so a changed icon must reach browsers within a day. */
const DAY_CACHE = 'public, max-age=86400'

export async function assetRoutes(app: App, { assets }: { assets: PageAssets }) {
  app.get<{ Params: { file: string } }>(`${ASSETS_URL_PREFIX}:file`, { schema: { hide: true } }, async (request, reply) => {
    const file = assets.files.get(request.params.file)
    if (!file) return reply.code(404).send({ error: 'Asset not found' })
    return reply.header('cache-control', LONG_CACHE).type(file.contentType).send(file.body)
  })
  app.get(FAVICON_PATH, { schema: { hide: true } }, async (_request, reply) =>
    reply.header('cache-control', DAY_CACHE).type('image/svg+xml; charset=utf-8').send(FAVICON_SVG)
  )
  // Asked for by browsers on what links no icon (a JSON answer opened in a tab): nothing to show, and no 404 in the log.
  app.get('/favicon.ico', { schema: { hide: true } }, async (_request, reply) => reply.header('cache-control', DAY_CACHE).code(204).send())
}
