import type { Catalogues, Language } from '../../kernel/language/language.js'
import { type FeatureMailTranslate, featureMailTranslator } from '../../kernel/mail/i18n.js'

/** The words of the invitation mail, in every mail language; the kernel's mail words (the footer) come with them. */
const en = {
  'invitation.subject': 'You are invited to make a Hearth account',
  'invitation.intro': 'The administrator of the Hearth hub at {origin} invites you to make an account for {email}. Choose your password, or a passkey, with this link:',
  'invitation.link': 'Make my account',
  'invitation.validity': 'The link works once, within {days} days.',
  'invitation.ignore': 'If you did not expect this, ignore this mail: no account is made.'
}

export type InvitationMailKey = keyof typeof en

const es: Record<InvitationMailKey, string> = {
  'invitation.subject': 'Te invitan a crear una cuenta de Hearth',
  'invitation.intro': 'Quien administra el servicio Hearth de {origin} te invita a crear una cuenta para {email}. Elige tu contraseña, o una llave de acceso, con este enlace:',
  'invitation.link': 'Crear mi cuenta',
  'invitation.validity': 'El enlace sirve una sola vez, durante {days} días.',
  'invitation.ignore': 'Si no esperabas este correo, ignóralo: no se crea ninguna cuenta.'
}

export const INVITATION_MAIL_WORDS: Catalogues<InvitationMailKey> = { en, es }

export const invitationMailTranslator: (language: Language) => FeatureMailTranslate<InvitationMailKey> = featureMailTranslator(INVITATION_MAIL_WORDS)
