import { adminActivity } from './features/admin/activity-readings.js'
import { accountActivity } from './features/account/activity-readings.js'
import { billingActivity } from './features/billing/activity-readings.js'
import { deletionActivity } from './features/deletion/activity-readings.js'
import { groupsActivity } from './features/groups/activity-readings.js'
import { invitationsActivity } from './features/invitations/activity-readings.js'
import { exportActivity } from './features/export/activity-readings.js'
import { oidcActivity } from './features/oidc/activity-readings.js'
import { passkeysActivity } from './features/passkeys/activity-readings.js'
import { privacyActivity } from './features/privacy/activity-readings.js'
import { signInActivity } from './features/sign-in/activity-readings.js'
import { ssoActivity } from './features/sso/activity-readings.js'
import { twoStepActivity } from './features/two-step/activity-readings.js'
import { usersActivity } from './features/users/activity-readings.js'
import { activityReadings } from './kernel/audit/activity.js'

/**
 * How every audit event reads on the activity page (docs/activity.md): the kernel's readings, then
 * each feature's, of the events it records. Composed once; it does not build until every
 * `AuditEventType` is read by the part that records it.
 */
export const ACTIVITY_READINGS = activityReadings(
  signInActivity,
  passkeysActivity,
  ssoActivity,
  privacyActivity,
  exportActivity,
  accountActivity,
  deletionActivity,
  twoStepActivity,
  billingActivity,
  usersActivity,
  oidcActivity,
  groupsActivity,
  invitationsActivity,
  adminActivity
)
