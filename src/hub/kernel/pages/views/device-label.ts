import type { Device } from '../../http/device.js'
import type { Translate } from '../i18n/index.js'

/** "Chrome on Linux", or the half the parser knew, or the raw user agent when it knew neither. */
export function deviceLabel(t: Translate, { browser, os }: Device, userAgent: string): string {
  if (browser && os) return t('dashboard.deviceOn', { browser, os })
  return browser ?? os ?? (userAgent || t('dashboard.unknownDevice'))
}
