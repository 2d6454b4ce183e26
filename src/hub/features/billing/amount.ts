/** Currencies Stripe counts in whole units (no cents): 1200 JPY is ¥1200, not ¥12.00. */
const ZERO_DECIMAL_CURRENCIES = new Set(['BIF', 'CLP', 'DJF', 'GNF', 'JPY', 'KMF', 'KRW', 'MGA', 'PYG', 'RWF', 'UGX', 'VND', 'VUV', 'XAF', 'XOF', 'XPF'])

/**
 * Stripe's amount (in what it calls the currency's smallest unit) in the currency's whole units.
 * Stripe's own list decides, not the currency's ISO digits: it counts ISK and HUF in hundredths too.
 */
export function wholeUnits(amount: number, currency: string): number {
  return ZERO_DECIMAL_CURRENCIES.has(currency.toUpperCase()) ? amount : amount / 100
}

/** An amount in the currency's smallest unit as the audit trail and mails show it: `12.00 EUR`. */
export function formatAmount(amount: number, currency: string): string {
  const code = currency.toUpperCase()
  const units = wholeUnits(amount, code)
  return `${ZERO_DECIMAL_CURRENCIES.has(code) ? units : units.toFixed(2)} ${code}`
}
