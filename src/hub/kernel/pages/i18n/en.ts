/**
 * The kernel's page text, in English: the layout and navigation, sign-in and sign-up, forms and
 * refusals, the dashboard and sessions, the security page and the recent-sign-in dialog. A feature
 * keeps its own in its `messages.ts` (docs/architecture.md, "Messages"). The Spanish catalogue has
 * the same keys (the type says so and a test checks it). `{name}` marks a value filled in when rendering.
 */
export const en = {
  'site.name': 'Hearth',
  'site.skipToContent': 'Skip to content',
  'site.mainNavigation': 'Main',
  'site.language': 'Language',
  'site.languageSwitch': 'Change language',
  'nav.dashboard': 'Dashboard',
  'nav.privacy': 'Privacy',
  'nav.export': 'Export',
  'nav.account': 'Account',
  'nav.signOut': 'Sign out',
  'nav.security': 'Security',
  'nav.administration': 'Administration',
  'console.navigation': 'Administration sections',

  'form.email': 'Email',
  'form.password': 'Password',
  'form.passwordHint': '8 to 128 characters; common passwords are refused.',
  'form.working': 'Working…',
  'form.saved': 'Saved.',
  'error.network': 'The hub could not be reached. Check your connection and try again.',
  'error.invalidCredentials': 'Wrong email or password.',
  'error.emailTaken': 'An account with this email already exists. Sign in instead.',
  'error.tooManyRequests': 'Too many attempts. Wait a little and try again.',
  'error.generic': 'Something went wrong: {message}',
  'refusal.passwordTooShort': 'Choose a password of at least 8 characters.',
  'refusal.passwordTooLong': 'Choose a password of at most 128 characters.',
  'refusal.passwordCommon': 'This password is one of the most common ones, so it is easy to guess. Choose another.',
  'refusal.emailInvisible': 'The email address holds invisible characters. Type it again.',
  'refusal.emailTooLong': 'The email address is too long: it can have at most 254 characters.',
  'refusal.emailInvalid': 'Enter a valid email address, such as ana@example.com.',
  'refusal.signupClosed': 'This hub does not take new accounts. Ask its administrator for one.',
  'refusal.invitationNeeded': 'This hub takes new accounts by invitation only. Ask its administrator for an invitation.',
  'refusal.secondFactorRequired': 'Two-step sign-in is on for your account: reload the page to confirm with a code from your authenticator app or a passkey.',

  'login.title': 'Sign in',
  'login.intro': 'Sign in once to use every Hearth application.',
  'login.submit': 'Sign in',
  'login.noAccount': 'No account yet?',
  'login.signUpLink': 'Create one',
  'login.forgotPassword': 'Forgot your password?',
  'login.accountDeleted': 'Your account was deleted. A confirmation is on its way to your address.',
  'login.passwordReset': 'Your password was changed and every session of your account was signed out. Sign in with the new password.',
  'login.passwordResetFirstProof':
    'Your password was changed and your address is confirmed now. It had not been confirmed before, so anyone could have made this account with it: every passkey, two-step sign-in with its recovery codes, application allowed to sign in as you and session the account had was removed. Sign in with the new password, then add again what was yours.',

  'signup.byInvitation': 'This hub takes new accounts by invitation only. If you were invited, open the link in your invitation mail.',
  'signup.title': 'Create your account',
  'signup.submit': 'Create account',
  'signup.haveAccount': 'Already have an account?',
  'signup.signInLink': 'Sign in',

  'mail.outbox':
    'This hub sends no mail: HUB_SMTP_URL is not set, so each mail it promises here is written to the outbox folder of its data directory (DATA_DIR/outbox) instead. Whoever runs the hub reads the newest, links included, with:',

  'account.currentPassword': 'Current password',
  'account.wrongPassword': 'The current password is wrong.',
  'deletion.heading': 'Delete my account',
  'deletion.erased':
    "Deleting your account erases, at once and for good: your account and profile, every session, your privacy settings and consent decisions, your activity history, and what the family's applications hold about you, such as your tasks and access in the task manager.",
  'deletion.kept': 'We keep one record that an account was deleted: its id and the time, nothing else. A confirmation is mailed to your address before it is erased.',
  'deletion.recentSignIn': 'Deleting takes a sign-in less than 10 minutes old.',
  'deletion.submit': 'Delete my account for good',
  'deletion.signInAgain': 'Your sign-in is more than 10 minutes old: sign in again, then delete your account within 10 minutes.',
  'deletion.signInAgainLink': 'Sign in again',

  'dashboard.title': 'Dashboard',
  'dashboard.signedInAs': 'Signed in as {email}',
  'dashboard.applications': 'Your applications',
  'dashboard.noApplications': 'No application is registered yet.',
  'dashboard.open': 'Open {application}',
  'dashboard.sessions': 'Your active sessions',
  'dashboard.sessionDevice': 'Device',
  'dashboard.sessionStarted': 'Signed in',
  'dashboard.sessionLastSeen': 'Last active',
  'dashboard.thisSession': 'This session',
  'dashboard.unknownDevice': 'Unknown device',
  'dashboard.deviceOn': '{browser} on {os}',
  'dashboard.endSession': 'Sign out',
  'dashboard.endSessionDetail': '({device}, signed in {date})',
  'dashboard.endOtherSessions': 'Sign out everywhere else',

  'privacy.purpose.terms': 'Terms of use',
  'privacy.purpose.analytics': 'Analytics',
  'privacy.purpose.marketing': 'Marketing',
  'privacy.purpose.dataSharing': 'Sharing with {application}',
  'privacy.purpose.oidc': 'Signing in to {application}',

  'dashboard.activityLink': 'See your account activity',

  'security.title': 'Security',
  'security.intro': 'Where your account is signed in, and how you sign in.',
  'security.manageLink': 'Sessions, two-step sign-in and passkeys',
  'security.confirmAddressFirst': 'Confirm your address first: two-step sign-in and passkeys can be added once the link mailed to it has been opened.',
  'security.confirmAddressLink': 'Ask for a new link on your account page',
  'security.externalProvider': 'How you sign in (your password, a second step, passkeys) is managed by your sign-in provider.',
  'reauth.heading': 'Confirm it is you',
  'reauth.intro': 'This change needs you to have signed in within the last 10 minutes. Confirm it is you and the change goes ahead.',
  'reauth.confirmPassword': 'Confirm with the password',
  'reauth.cancel': 'Cancel',
  'reauth.cancelled': 'Nothing was changed: the change needs you to confirm it is you.',
  'dashboard.billingLink': 'Your plan and billing'
} as const

export type MessageKey = keyof typeof en
