/** An HTTP client that keeps cookies and sends the CSRF cookie back as the header, like the hub's pages. */
export class Browserless {
  private readonly cookies = new Map<string, string>()
  constructor(private readonly base: string) {}

  /** Another client holding the same cookies, as a copied cookie jar would. */
  clone(): Browserless {
    const copy = new Browserless(this.base)
    for (const [name, value] of this.cookies) copy.cookies.set(name, value)
    return copy
  }

  csrf(): string {
    return this.cookies.get('service-csrf-token') ?? ''
  }

  async call(method: string, url: string, body?: unknown, headers: Record<string, string> = {}) {
    const response = await fetch(`${this.base}${url}`, {
      method,
      headers: {
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
        cookie: [...this.cookies].map(([name, value]) => `${name}=${value}`).join('; '),
        'x-csrf-token': this.csrf(),
        ...headers
      },
      ...(body === undefined ? {} : { body: JSON.stringify(body) })
    })
    for (const line of response.headers.getSetCookie()) {
      const [pair = ''] = line.split(';')
      const [name = '', value = ''] = pair.split(/=(.*)/s)
      if (value === '') this.cookies.delete(name)
      else this.cookies.set(name, value)
    }
    return response
  }
}
