/**
 * The task manager pages' script: progressive enhancement only. The pages work with forms and
 * links alone; this script sends the same requests with fetch and swaps in the answer's `<main>`,
 * so a change does not reload the page. Whatever it cannot handle in place (a sign-in that leaves
 * for the hub, an answer that is not a page, a network failure) it hands back to the browser.
 */

const main = () => document.querySelector<HTMLElement>('main#main')
const announcer = () => document.getElementById('page-announcer')

/** What to put the focus back on after the swap: the same button of the same form, when it is still there. */
interface FocusTarget {
  formAction: string
  buttonValue: string
}

/** Only links and forms of the page's own content, on this site: the header's sign-out and language switch stay full navigations. */
const handledUrl = (url: URL) => url.origin === location.origin

async function show(url: URL, init: RequestInit, focusTarget: FocusTarget | null, history: 'push' | 'none'): Promise<boolean> {
  let response: Response
  try {
    // `same-origin`: a redirect to the hub (the session ended) fails here and becomes a real navigation.
    response = await fetch(url, { ...init, mode: 'same-origin', credentials: 'same-origin' })
  } catch {
    return false
  }
  if (!(response.headers.get('content-type') ?? '').startsWith('text/html')) return false
  const next = new DOMParser().parseFromString(await response.text(), 'text/html')
  const nextMain = next.querySelector('main#main')
  const currentMain = main()
  if (!nextMain || !currentMain || next.documentElement.lang !== document.documentElement.lang) return false

  currentMain.replaceWith(document.adoptNode(nextMain))
  document.title = next.title
  // A refused form answers its page without a redirect: its address is no page to come back to.
  const landedOnPage = init.method === 'GET' || response.redirected
  if (history === 'push' && landedOnPage && response.url !== location.href) window.history.pushState(null, '', response.url)
  settleFocus(focusTarget)
  return true
}

/**
 * The focus where the person was (a status button), else on the new content; and the change said
 * out loud: the page's notice (after a status change, which task is now in which status), which a
 * region swapped in with the page would not be read from.
 */
function settleFocus(target: FocusTarget | null) {
  const content = main()
  if (!content) return
  const form = target && [...content.querySelectorAll('form')].find((candidate) => candidate.getAttribute('action') === target.formAction)
  const button = form && [...form.querySelectorAll('button')].find((candidate) => candidate.value === target.buttonValue)
  const notice = content.querySelector('.notice')
  if (button) {
    button.focus()
    announce(notice?.textContent ?? `${form.getAttribute('aria-label') ?? ''}: ${button.textContent ?? ''}`)
  } else {
    content.focus()
    announce(notice?.textContent ?? content.querySelector('h1')?.textContent ?? document.title)
  }
}

function announce(text: string) {
  const region = announcer()
  if (!region) return
  // Emptied first, so that the same words twice in a row are still read.
  region.textContent = ''
  window.setTimeout(() => {
    region.textContent = text
  }, 50)
}

/** A form the browser should send itself: after this script could not. */
const handBack = new WeakSet<HTMLFormElement>()

document.addEventListener('submit', (event) => {
  const form = event.target
  if (!(form instanceof HTMLFormElement) || !main()?.contains(form) || handBack.has(form)) return
  const action = new URL(form.action, location.href)
  if (!handledUrl(action)) return
  event.preventDefault()
  const submitter = event.submitter instanceof HTMLButtonElement ? event.submitter : null
  const fields = new FormData(form, submitter)
  const body = new URLSearchParams([...fields].flatMap(([name, value]) => (typeof value === 'string' ? [[name, value]] : [])))
  const isGet = form.method.toLowerCase() === 'get'
  if (isGet) action.search = body.toString()
  const init: RequestInit = isGet ? { method: 'GET' } : { method: 'POST', body, headers: { 'content-type': 'application/x-www-form-urlencoded' } }
  const focusTarget = submitter?.name === 'status' ? { formAction: form.getAttribute('action') ?? '', buttonValue: submitter.value } : null
  form.setAttribute('aria-busy', 'true')
  void show(action, init, focusTarget, 'push').then((shown) => {
    if (shown) return
    form.removeAttribute('aria-busy')
    handBack.add(form)
    form.requestSubmit(submitter)
  })
})

document.addEventListener('click', (event) => {
  const link = event.target instanceof Element ? event.target.closest('a') : null
  if (!link || !main()?.contains(link) || event.defaultPrevented || event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return
  const url = new URL(link.href, location.href)
  if (!handledUrl(url) || link.target !== '') return
  event.preventDefault()
  void show(url, { method: 'GET' }, null, 'push').then((shown) => {
    if (!shown) location.assign(url)
  })
})

// Back and forward move between the states pushed above: show that address's page again.
window.addEventListener('popstate', () => {
  void show(new URL(location.href), { method: 'GET' }, null, 'none').then((shown) => {
    if (!shown) location.reload()
  })
})
