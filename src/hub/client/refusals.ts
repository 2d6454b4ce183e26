/**
 * The API's refusals whose `{error}` is fixed English text (the rules of src/hub/kernel/accounts/credentials.ts
 * sign-up's closed door, reauthentication's refused password), each with the name of the body's `data-msg-*` attribute that words it
 * in the page's language (`msgRefusalPasswordCommon` is `data-msg-refusal-password-common`). A test
 * checks that every text those rules can answer is here and that every page carries the words.
 */
export const WORDED_REFUSALS: Readonly<Record<string, string>> = {
  'Password must be at least 8 characters': 'msgRefusalPasswordTooShort',
  'Password must be at most 128 characters': 'msgRefusalPasswordTooLong',
  'Password is too common; choose one that is harder to guess': 'msgRefusalPasswordCommon',
  'Email must not contain control or invisible characters': 'msgRefusalEmailInvisible',
  'Email must be at most 254 characters': 'msgRefusalEmailTooLong',
  'Email must be a valid email address': 'msgRefusalEmailInvalid',
  'Sign-up is closed on this hub': 'msgRefusalSignupClosed',
  'This hub takes new accounts by invitation only; ask its administrator for one': 'msgRefusalInvitationNeeded',
  // Only a page from before two-step sign-in was turned on offers the password in its dialog.
  'Two-step sign-in is on: confirm with a code from your authenticator app or a passkey': 'msgRefusalSecondFactorRequired'
}
