/** The privacy settings, consents and the data export. */

import { api } from './api.js'
import { saveFile } from './download.js'
import type { ButtonActions, FormHandlers } from './feedback.js'

/** The PUT body from the form: each field is named by its path in the settings document. */
function settingsPatch(form: HTMLFormElement): Record<string, Record<string, unknown>> {
  const patch: Record<string, Record<string, unknown>> = {}
  for (const field of form.querySelectorAll<HTMLInputElement>('input[name]:not([disabled])')) {
    const [group, key] = field.name.split(/\.(.*)/s)
    if (!group || !key) continue
    if (field.type === 'radio' && !field.checked) continue
    const value = field.type === 'checkbox' ? field.checked : field.type === 'number' ? Number(field.value) : field.value
    patch[group] = { ...patch[group], [key]: value }
  }
  return patch
}

async function recordConsent(button: HTMLElement): Promise<void> {
  const { purpose, granted, version } = button.dataset
  await api('POST', '/api/privacy/consent', { purpose, granted: granted === 'true', version })
  location.reload()
}

/** Fetches the export and hands it to the browser as a download under the server's file name. */
async function downloadExport(button: HTMLElement): Promise<void> {
  const format = button.dataset.format
  const response = await api('POST', '/api/export', { format })
  const disposition = response.headers.get('content-disposition') ?? ''
  const fileName = /filename="([^"]+)"/.exec(disposition)?.[1] ?? `hearth-export.${format}`
  saveFile(await response.blob(), fileName)
}

export const privacyForms: FormHandlers = {
  'privacy-settings': async (form) => {
    await api('PUT', '/api/privacy/settings', settingsPatch(form))
    location.reload()
  }
}

export const privacyButtons: ButtonActions = {
  consent: recordConsent,
  export: downloadExport
}
