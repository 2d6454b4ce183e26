/** Who an ID token says the bearer is, after its signature and claims have been checked. */
export interface VerifiedIdentity {
  userId: string
  /** Empty when an external provider's token carries no email claim. */
  email: string
}

/** Checks an ID token from the configured identity provider; null when it is not acceptable. */
export interface IdTokenVerifier {
  verify(idToken: string, now: Date): Promise<VerifiedIdentity | null>
}
