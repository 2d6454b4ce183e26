import type { PageContext } from '../layout.js'

/** In place of a way to add a sign-in method while the address is unproven: what to do first, and where. */
export function ConfirmAddressFirst({ t }: { t: PageContext['t'] }) {
  return (
    <p data-confirm-address-first>
      {t('security.confirmAddressFirst')} <a href="/account">{t('security.confirmAddressLink')}</a>
    </p>
  )
}
