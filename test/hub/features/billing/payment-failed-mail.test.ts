import { describe, expect, it } from 'vitest'
import { paymentFailedMail } from '../../../../src/hub/features/billing/mails.js'

describe('the payment-failed mail', () => {
  it('says what failed, in English and Spanish, and links to the billing page rather than to a portal session', () => {
    const english = paymentFailedMail({ publicUrl: 'https://hub.example', language: 'en', email: 'ada@example.com', total: '12.00 EUR' })
    expect(english.subject).toBe('A payment for your Hearth plan did not go through')
    expect(english.text).toContain('The payment of 12.00 EUR for the plan of the Hearth account ada@example.com did not go through.')
    expect(english.html).toContain('href="https://hub.example/billing"')

    const spanish = paymentFailedMail({ publicUrl: 'https://hub.example', language: 'es', email: 'ada@example.com', total: '12.00 EUR' })
    expect(spanish.subject).toBe('No se ha podido cobrar un pago de tu plan de Hearth')
    expect(spanish.html).toContain('lang="es"')
    expect(spanish.text).toContain('https://hub.example/billing')
    for (const mail of [english, spanish]) expect(mail.text).not.toContain('billing.stripe.com')
  })
})
