import { api } from './api.js'
import type { ButtonActions } from './feedback.js'

/** Disconnects an application from the account page; the list then shows what is left. */
async function disconnectApplication(button: HTMLElement): Promise<void> {
  await api('DELETE', `/api/account/applications/${encodeURIComponent(button.dataset.clientId ?? '')}`)
  location.reload()
}

export const applicationButtons: ButtonActions = {
  'disconnect-application': disconnectApplication
}
