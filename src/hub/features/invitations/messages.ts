import type { Catalogues, Language } from '../../kernel/language/language.js'
import { type FeatureTranslate, featureTranslator } from '../../kernel/pages/i18n/index.js'

/**
 * The words of the console's invitations page and of the `/invite` page, in every page language;
 * the kernel's come with them through `invitationsTranslator`. The same keys and `{name}`
 * placeholders in each language.
 */
const en = {
  'invitations.section': 'Invitations',
  'invitations.title': 'Invitations',
  'invitations.mode.open': 'Anyone may make an account on this hub (HUB_SIGNUP=open); an invitation also confirms the address and puts the person in its groups.',
  'invitations.mode.invite': 'Only people you invite may make an account on this hub (HUB_SIGNUP=invite).',
  'invitations.mode.closed': 'Nobody may make an account on this hub, invited or not (HUB_SIGNUP=closed): invitations are refused. Set HUB_SIGNUP=invite to invite people.',
  'invitations.send': 'Invite someone',
  'invitations.email': 'Their email',
  'invitations.groups': 'Their groups',
  'invitations.noGroups': 'No group yet.',
  'invitations.groupsColumn': 'Groups',
  'invitations.language': 'Language of the mail',
  'invitations.submit': 'Send the invitation',
  'invitations.sendHint': 'The mail carries a link that works once, within 7 days. Inviting an address again withdraws its earlier invitation.',
  'invitations.pending': 'Pending invitations',
  'invitations.none': 'No invitation is pending.',
  'invitations.sentTo': 'Email',
  'invitations.invitedBy': 'Invited by',
  'invitations.terminal': 'the terminal',
  'invitations.expires': 'Expires',
  'invitations.withdraw': 'Withdraw',
  'invitations.withdrawDetail': 'the invitation of {email}',
  'invitations.notice.sent': 'The invitation was sent.',
  'invitations.notice.withdrawn': 'The invitation was withdrawn: its link no longer works.',
  'invitations.error.closed': 'Invitations are refused while HUB_SIGNUP is closed.',
  'invitations.error.hasAccount': 'This address already has an account.',
  'invitations.error.noPending': 'This invitation is no longer pending.',
  'invitations.error.email': 'Give a valid email address.',
  'invitations.error.group': 'One of the groups no longer exists; choose again.',
  'invitations.error.generic': 'That did not work; try again.',
  'invite.title': 'Make your account',
  'invite.intro': 'You were invited to this hub. Choose a password for your account; your address counts as confirmed.',
  'invite.email': 'Your email',
  'invite.password': 'Your password',
  'invite.submit': 'Make my account',
  'invite.passkeyHeading': 'Or no password at all',
  'invite.passkeyIntro': 'Sign in with a passkey instead: your device unlocks it with your fingerprint, face or screen lock. You can add a password later with "Forgot your password?".',
  'invite.passkeySubmit': 'Use a passkey instead',
  'invite.passkeyCancelled': 'No passkey was made (the prompt was closed or timed out); your account was not made. Try again, or choose a password.',
  'invite.refused': 'This invitation cannot be used: it was already used, withdrawn or has expired. Ask the person who runs this hub for a new one.',
  'invite.missing': 'This page needs the link from your invitation mail. Open that link again.'
} as const

export type InvitationsMessageKey = keyof typeof en

const es: Record<InvitationsMessageKey, string> = {
  'invitations.section': 'Invitaciones',
  'invitations.title': 'Invitaciones',
  'invitations.mode.open': 'Cualquiera puede crear una cuenta en este servicio (HUB_SIGNUP=open); una invitación además confirma la dirección y pone a la persona en sus grupos.',
  'invitations.mode.invite': 'Solo las personas que invites pueden crear una cuenta en este servicio (HUB_SIGNUP=invite).',
  'invitations.mode.closed': 'Nadie puede crear una cuenta en este servicio, con invitación o sin ella (HUB_SIGNUP=closed): se rechazan las invitaciones. Pon HUB_SIGNUP=invite para invitar a personas.',
  'invitations.send': 'Invitar a alguien',
  'invitations.email': 'Su correo electrónico',
  'invitations.groups': 'Sus grupos',
  'invitations.noGroups': 'Aún no hay ningún grupo.',
  'invitations.groupsColumn': 'Grupos',
  'invitations.language': 'Idioma del correo',
  'invitations.submit': 'Enviar la invitación',
  'invitations.sendHint': 'El correo lleva un enlace que sirve una sola vez, durante 7 días. Invitar de nuevo a una dirección retira su invitación anterior.',
  'invitations.pending': 'Invitaciones pendientes',
  'invitations.none': 'No hay ninguna invitación pendiente.',
  'invitations.sentTo': 'Correo electrónico',
  'invitations.invitedBy': 'Invitada por',
  'invitations.terminal': 'la terminal',
  'invitations.expires': 'Caduca',
  'invitations.withdraw': 'Retirar',
  'invitations.withdrawDetail': 'la invitación de {email}',
  'invitations.notice.sent': 'Se ha enviado la invitación.',
  'invitations.notice.withdrawn': 'Se ha retirado la invitación: su enlace ya no sirve.',
  'invitations.error.closed': 'Las invitaciones se rechazan mientras HUB_SIGNUP sea closed.',
  'invitations.error.hasAccount': 'Esta dirección ya tiene una cuenta.',
  'invitations.error.noPending': 'Esta invitación ya no está pendiente.',
  'invitations.error.email': 'Escribe una dirección de correo válida.',
  'invitations.error.group': 'Uno de los grupos ya no existe; vuelve a elegir.',
  'invitations.error.generic': 'No ha funcionado; inténtalo de nuevo.',
  'invite.title': 'Crea tu cuenta',
  'invite.intro': 'Te han invitado a este servicio. Elige una contraseña para tu cuenta; tu dirección cuenta como confirmada.',
  'invite.email': 'Tu correo electrónico',
  'invite.password': 'Tu contraseña',
  'invite.submit': 'Crear mi cuenta',
  'invite.passkeyHeading': 'O sin contraseña',
  'invite.passkeyIntro': 'Entra con una llave de acceso: tu dispositivo la desbloquea con tu huella, tu cara o el bloqueo de pantalla. Más adelante puedes añadir una contraseña con «¿Olvidaste tu contraseña?».',
  'invite.passkeySubmit': 'Usar una llave de acceso',
  'invite.passkeyCancelled': 'No se creó ninguna llave de acceso (se cerró el aviso o se agotó el tiempo); tu cuenta no se ha creado. Inténtalo de nuevo o elige una contraseña.',
  'invite.refused': 'Esta invitación no se puede usar: ya se usó, se retiró o ha caducado. Pide una nueva a quien administra este servicio.',
  'invite.missing': 'Esta página necesita el enlace de tu correo de invitación. Vuelve a abrir ese enlace.'
}

export const INVITATIONS_WORDS: Catalogues<InvitationsMessageKey> = { en, es }

export const invitationsTranslator: (language: Language) => FeatureTranslate<InvitationsMessageKey> = featureTranslator(INVITATIONS_WORDS)

export const INVITATIONS_NOTICES = ['sent', 'withdrawn'] as const
export type InvitationsNotice = (typeof INVITATIONS_NOTICES)[number]
export const INVITATIONS_ERRORS = ['closed', 'hasAccount', 'noPending', 'email', 'group', 'generic'] as const
export type InvitationsError = (typeof INVITATIONS_ERRORS)[number]
