/**
 * Names of common passkey providers by AAGUID, from the community list at
 * github.com/passkeydeveloper/passkey-authenticator-aaguids: a new passkey is called "iCloud
 * Keychain" rather than "Passkey" when nobody names it. Kept to the providers most people use, in
 * code rather than fetched: the hub makes no outbound request to name a passkey.
 */
const PROVIDER_NAMES: Readonly<Record<string, string>> = {
  'fbfc3007-154e-4ecc-8c0b-6e020557d7bd': 'iCloud Keychain',
  'dd4ec289-e01d-41c9-bb89-70fa845d4bf2': 'iCloud Keychain (Managed)',
  'ea9b8d66-4d01-1d21-3ce4-b6b48cb575d4': 'Google Password Manager',
  'adce0002-35bc-c60a-648b-0b25f1f05503': 'Chrome on Mac',
  '771b48fd-d3d4-4f74-9232-fc157ab0507a': 'Edge on Mac',
  '08987058-cadc-4b81-b6e1-30de50dcbe96': 'Windows Hello',
  '9ddd1817-af5a-4672-a2b9-3e3dd95000a9': 'Windows Hello',
  '6028b017-b1d4-4c02-b4b3-afcdafc96bb2': 'Windows Hello',
  '53414d53-554e-4700-0000-000000000000': 'Samsung Pass',
  'bada5566-a7aa-401f-bd96-45619a55120d': '1Password',
  'd548826e-79b4-db40-a3d8-11116f7e8349': 'Bitwarden',
  '531126d6-e717-415c-9320-3d9aa6981239': 'Dashlane'
}

/** What a passkey is called until its owner names it. */
const DEFAULT_PASSKEY_NAME = 'Passkey'

/** The provider's name for a known AAGUID (lower-case, as the WebAuthn library writes it), else "Passkey". */
export function defaultPasskeyName(aaguid: string): string {
  return PROVIDER_NAMES[aaguid] ?? DEFAULT_PASSKEY_NAME
}
