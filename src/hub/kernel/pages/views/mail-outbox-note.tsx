import type { Translate } from '../i18n/index.js'

/**
 * On a page that promises a mail, when the hub writes its mail to DATA_DIR/outbox instead of
 * sending it (no HUB_SMTP_URL): where the mail went, and the command that shows it. `command` is
 * undefined when mail is sent, and then nothing is shown.
 */
export function MailOutboxNote({ t, command }: { t: Translate; command: string | undefined }) {
  if (command === undefined) return null
  return (
    <p class="notice" data-mail-outbox>
      {t('mail.outbox')} <code>{command}</code>
    </p>
  )
}
