import fs from 'node:fs'
import { createRequire } from 'node:module'
import path from 'node:path'
import { type Browser, type Page, type Request, type Response, chromium } from 'playwright-core'

/** Debian's Chromium; the tests never download a browser. */
const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium'
const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run'
]

let noticePrinted = false

/**
 * Whether Chromium is here for the browser suites: when it is missing they are skipped with a
 * notice. In CI a missing Chromium is a failure, never a silent skip.
 */
export function chromiumUnderTest(): boolean {
  if (fs.existsSync(CHROMIUM)) return true
  if (process.env.CI === 'true') throw new Error(`Chromium not found at ${CHROMIUM}: it must be installed in CI (apt-get install -y chromium, or set CHROMIUM_PATH)`)
  if (!noticePrinted) {
    noticePrinted = true
    console.warn(`Notice: Chromium was not found at ${CHROMIUM}, so the browser tests are skipped (apt-get install -y chromium, or set CHROMIUM_PATH).`)
  }
  return false
}

/** Headless Chromium, with `args` after ours; Playwright gives each launch a fresh, temporary user-data directory. */
export function launchChromium(args: readonly string[] = []): Promise<Browser> {
  if (!fs.existsSync(CHROMIUM)) throw new Error(`Chromium not found at ${CHROMIUM}: install Debian's chromium package or set CHROMIUM_PATH`)
  return chromium.launch({ executablePath: CHROMIUM, headless: true, args: [...CHROMIUM_ARGS, ...args] })
}

/**
 * Records every CSP violation a page meets: the browser's `securitypolicyviolation` events
 * (a listener installed before any page script, through the DevTools protocol, not the page)
 * and the console's "Refused to ..." errors.
 */
export async function recordCspViolations(page: Page, into: string[]): Promise<void> {
  await page.exposeFunction('__recordCspViolation', (violation: string) => into.push(violation))
  await page.addInitScript(`document.addEventListener('securitypolicyviolation', (event) =>
    window.__recordCspViolation(event.violatedDirective + ' blocked ' + event.blockedURI + ' on ' + location.pathname))`)
  page.on('console', (message) => {
    if (message.type() === 'error' && /Content Security Policy/i.test(message.text())) into.push(message.text())
  })
}

const AXE_SOURCE = fs.readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8')

/**
 * axe-core's serious and critical violations on the page as it is now. The library is evaluated
 * through the DevTools protocol, so the page's CSP stays in force for the page's own scripts.
 */
export async function seriousAccessibilityViolations(page: Page): Promise<{ rule: string; targets: string[] }[]> {
  // Once per document, and nothing handed back: setting axe up is as costly as a run of it, and
  // Playwright would serialize what the library's last statement gives.
  if (!(await page.evaluate(() => 'axe' in window))) await page.evaluate(`${AXE_SOURCE}\n;undefined`)
  return page.evaluate(`axe.run(document, { resultTypes: ['violations'] }).then((results) => results.violations
    .filter((violation) => violation.impact === 'serious' || violation.impact === 'critical')
    .map((violation) => ({ rule: violation.id, targets: violation.nodes.map((node) => node.target.join(' ')) })))`)
}

/** What the page shows, for a failure's report; it may be gone or hung by then. */
const visibleText = (page: Page): Promise<string> => page.locator('body').innerText({ timeout: 1_000 }).catch(() => '(no text)')
/** An address short enough for a line of a report. */
const shortUrl = (url: string) => url.slice(0, 160)

/**
 * Keeps a screenshot of each page under test-results/, for a test that failed, and prints where
 * each page was and what it said: CI keeps the log, not the files.
 */
export async function keepScreenshots(pages: Page[], testName: string): Promise<void> {
  const dir = path.resolve('test-results', 'browser')
  fs.mkdirSync(dir, { recursive: true })
  const base = testName.replace(/[^a-z0-9]+/gi, '-').toLowerCase()
  for (const [index, page] of pages.entries()) {
    if (page.isClosed()) continue
    await page.screenshot({ path: path.join(dir, `${base}-${index}.png`), fullPage: true }).catch(() => undefined)
    console.error(`[${testName}] page ${index} at ${page.url()}:\n${(await visibleText(page)).slice(0, 600)}`)
  }
}

/** What the page asked for and what happened to it, for a failure's own message. */
export interface RequestTrail {
  /** The last events, oldest first: requests, answers, failures, navigations and load events. */
  events: string[]
  /** Requests sent and not yet answered or failed. */
  waiting: Set<Request>
}

/**
 * Records the page's requests, answers, navigations and load events, kept for a failure's own
 * message: CI keeps the end of its log, where the failures are summed up, and not what a test
 * printed on the way.
 */
export function recordRequestTrail(page: Page): RequestTrail {
  const trail: RequestTrail = { events: [], waiting: new Set() }
  const started = Date.now()
  const keep = (line: string) => {
    trail.events.push(`${String(Date.now() - started).padStart(7)} ms ${line}`)
    if (trail.events.length > 30) trail.events.shift()
  }
  page.on('request', (request) => {
    trail.waiting.add(request)
    keep(`-> ${request.method()} ${shortUrl(request.url())} (${request.resourceType()})`)
  })
  page.on('response', (response) => keep(`<- ${response.status()} ${shortUrl(response.url())} ${shortUrl(response.headers().location ?? '')}`))
  page.on('requestfinished', (request) => trail.waiting.delete(request))
  page.on('requestfailed', (request) => {
    trail.waiting.delete(request)
    keep(`xx ${shortUrl(request.url())}: ${request.failure()?.errorText ?? ''}`)
  })
  page.on('framenavigated', (frame) => {
    if (frame === page.mainFrame()) keep(`navigated to ${shortUrl(frame.url())}`)
  })
  page.on('domcontentloaded', () => keep('DOMContentLoaded'))
  page.on('load', () => keep('load'))
  return trail
}

/** An error that says, after `error`'s message, where the page is, what it shows, and its trail. */
export async function withWhereThePageIs(error: unknown, page: Page, trail: RequestTrail, more = ''): Promise<Error> {
  const said = error instanceof Error ? error.message : String(error)
  const waiting = [...trail.waiting].map((request) => `${request.method()} ${shortUrl(request.url())}`)
  return new Error(
    `${said}\nThe page is at ${page.url()} and shows: ${(await visibleText(page)).slice(0, 300)}\nStill waiting for: ${waiting.join(', ') || 'nothing'}\nIts last events:\n${trail.events.join('\n')}${more}`
  )
}

/**
 * What a keyboard user should be able to reach: links, buttons and fields, one radio button per
 * group, that are rendered (a `hidden` one, such as a form's username for password managers, is
 * nobody's to reach).
 */
const FOCUSABLE_CONTROLS = `[...document.querySelectorAll('a[href], button:not([disabled]), input:not([type=hidden]):not([disabled]), select, textarea')]
  .filter((element) => element.checkVisibility())
  .filter((element) => !(element.type === 'radio' && !element.checked && document.querySelector('input[type=radio][name="' + element.name + '"]:checked')))`

/**
 * Presses Tab from the top of the page until focus comes round again, and reports the controls
 * it never reached and the ones that had no visible focus outline when focused.
 */
export async function keyboardWalk(page: Page): Promise<{ unreached: string[]; withoutFocusOutline: string[] }> {
  await page.evaluate(`document.activeElement && document.activeElement.blur(); window.scrollTo(0, 0)`)
  const total = await page.evaluate<number>(`${FOCUSABLE_CONTROLS}.length`)
  const reached = new Set<number>()
  const withoutFocusOutline: string[] = []
  for (let step = 0; step < total + 5; step++) {
    await page.keyboard.press('Tab')
    const focused = await page.evaluate<{ index: number; label: string; outlined: boolean }>(`(() => {
      const element = document.activeElement
      const style = getComputedStyle(element)
      return {
        index: ${FOCUSABLE_CONTROLS}.indexOf(element),
        label: element.outerHTML.slice(0, 80),
        outlined: style.outlineStyle !== 'none' && parseFloat(style.outlineWidth) >= 2
      }
    })()`)
    if (focused.index < 0 || reached.has(focused.index)) break
    reached.add(focused.index)
    if (!focused.outlined) withoutFocusOutline.push(focused.label)
  }
  const unreached = await page.evaluate<string[]>(
    `${FOCUSABLE_CONTROLS}.filter((_, index) => !${JSON.stringify([...reached])}.includes(index)).map((element) => element.outerHTML.slice(0, 80))`
  )
  return { unreached, withoutFocusOutline }
}

/** A phone narrower than most (360 px) and a desktop: the widths every page is checked at. */
export const PAGE_WIDTHS = [360, 1280] as const

export interface PageVisit {
  url: string
  width: (typeof PAGE_WIDTHS)[number]
  language: 'en' | 'es'
  /** The answer to the page's load. */
  response: Response | null
}

/**
 * Each page in each language at each width: loaded on the phone, then the window widened. The
 * pages' layout is CSS alone (no script reads the width), so the page at 1280 px is the one a
 * desktop loads, and a second load would only cost time. The language is the `lang` cookie; a
 * relative address is taken from the page's current one.
 */
export async function visitInEveryLanguageAndWidth(page: Page, urls: readonly string[], check: (visit: PageVisit) => Promise<void>): Promise<void> {
  for (const language of ['en', 'es'] as const) {
    for (const url of urls) {
      await page.context().addCookies([{ name: 'lang', value: language, url: new URL(url, page.url()).origin }])
      await page.setViewportSize({ width: PAGE_WIDTHS[0], height: 800 })
      const response = await page.goto(url)
      for (const width of PAGE_WIDTHS) {
        await page.setViewportSize({ width, height: 800 })
        await check({ url, width, language, response })
      }
    }
  }
}
