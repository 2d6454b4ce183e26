import { chromium } from 'playwright-core'
const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: ['--no-sandbox','--disable-gpu','--disable-background-networking','--disable-component-update','--disable-sync','--no-first-run'] })
const page = await browser.newPage()
page.on('console', (m) => console.log('console', m.type(), m.text().slice(0, 100), JSON.stringify(m.location())))
await page.addInitScript(`
  document.addEventListener('securitypolicyviolation', (e) => console.log('VIOL', e.violatedDirective, e.blockedURI, e.sourceFile, e.lineNumber, e.columnNumber, e.sample))
  new MutationObserver((records) => { for (const r of records) for (const n of r.addedNodes) if (n.nodeName === 'STYLE') console.log('MO STYLE', JSON.stringify(n.textContent).slice(0, 500), n.parentNode && n.parentNode.nodeName) }).observe(document, { childList: true, subtree: true })
  for (const name of ['appendChild', 'insertBefore']) {
    const original = Node.prototype[name]
    Node.prototype[name] = function (node, ...rest) {
      const styles = node && node.querySelectorAll ? [...node.querySelectorAll('style')] : []
      if (node && node.nodeName && node.nodeName.toLowerCase() === 'style') styles.push(node)
      for (const st of styles) console.log('STYLE', JSON.stringify(st.textContent).slice(0, 300), (node.outerHTML || '').slice(0, 300))
      if (false) console.log('STYLE via', name, JSON.stringify(node.textContent).slice(0, 300), new Error().stack.split('\\n').slice(1,4).join(' | '))
      return original.call(this, node, ...rest)
    }
  }
`)
const cdp = await page.context().newCDPSession(page)
cdp.on('Log.entryAdded', (e) => console.log('LOG', JSON.stringify(e.entry).slice(0, 1500)))
cdp.on('Audits.issueAdded', (e) => console.log('ISSUE', JSON.stringify(e.issue).slice(0, 1500)))
await cdp.send('Log.enable')
await cdp.send('Audits.enable')
await page.goto(process.argv[2] + '/docs')
await page.locator('.opblock').first().waitFor()
await page.waitForTimeout(500); await page.setViewportSize({ width: 1200, height: 900 }); await page.screenshot({ path: '/tmp/docs.png' })
await browser.close()
