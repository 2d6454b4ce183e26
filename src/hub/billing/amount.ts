/** Currencies Stripe counts in whole units (no cents): 1200 JPY is ¥1200, not ¥12.00. */
const ZERO_DECIMAL_CURRENCIES = new Set(['BIF', 'CLP', 'DJF', 'GNF', 'JPY', 'KMF', 'KRW', 'MGA', 'PYG', 'RWF', 'UGX', 'VND', 'VUV', 'XAF', 'XOF', 'XPF'])

/** An amount in the currency's smallest unit as the audit trail and mails show it: `12.00 EUR`. */
export function formatAmount(amount: number, currency: string): string {
  const code = currency.toUpperCase()
  return ZERO_DECIMAL_CURRENCIES.has(code) ? `${amount} ${code}` : `${(amount / 100).toFixed(2)} ${code}`
}
