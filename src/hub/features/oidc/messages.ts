import { type Language, catalogueTranslator } from '../../kernel/language/language.js'

/**
 * The provider pages' own messages, beside the pages' shared catalogue so that the provider's
 * wording stays in one file; the same languages, the same `{name}` placeholders.
 */
const en = {
  'consent.title': 'Allow {client} to sign you in?',
  'consent.intro': '{client} is asking to use your Hearth account. If you allow it, it receives:',
  'consent.scope.openid': 'An identifier for your account, the same every time you sign in to it',
  'consent.scope.email': 'Your email address, and whether it is verified',
  'consent.scope.profile': 'Your name, when your privacy settings show your profile',
  'consent.scope.offline_access': 'Access while you are not using it, until you disconnect it',
  'consent.remembered': 'Your answer is remembered. You can disconnect {client} at any time on your account page.',
  'consent.allow': 'Allow',
  'consent.deny': 'Deny',
  'logout.title': 'Sign out?',
  'logout.intro': 'You are signing out of Hearth and of the applications you signed in to with it.',
  'logout.confirm': 'Sign out',
  'logout.cancel': 'Stay signed in',
  'error.title': 'Sign-in could not continue',
  'error.intro': 'The application sent a request the hub cannot accept. Go back to the application and try again.',
  'error.detail': 'Details: {detail}',
  'applications.heading': 'Connected applications',
  'applications.none': 'No application outside Hearth signs you in.',
  'applications.revoke': 'Disconnect'
}

export type OidcMessageKey = keyof typeof en

const es: Record<OidcMessageKey, string> = {
  'consent.title': '¿Permitir que {client} te identifique?',
  'consent.intro': '{client} pide usar tu cuenta de Hearth. Si lo permites, recibirá:',
  'consent.scope.openid': 'Un identificador de tu cuenta, el mismo cada vez que entres en ella',
  'consent.scope.email': 'Tu dirección de correo y si está verificada',
  'consent.scope.profile': 'Tu nombre, cuando tu configuración de privacidad muestra tu perfil',
  'consent.scope.offline_access': 'Acceso mientras no la usas, hasta que la desconectes',
  'consent.remembered': 'Tu respuesta se recuerda. Puedes desconectar {client} cuando quieras desde la página de tu cuenta.',
  'consent.allow': 'Permitir',
  'consent.deny': 'Rechazar',
  'logout.title': '¿Cerrar sesión?',
  'logout.intro': 'Vas a cerrar la sesión de Hearth y de las aplicaciones en las que entraste con ella.',
  'logout.confirm': 'Cerrar sesión',
  'logout.cancel': 'Seguir con la sesión abierta',
  'error.title': 'No se pudo continuar con el inicio de sesión',
  'error.intro': 'La aplicación envió una petición que el hub no puede aceptar. Vuelve a la aplicación e inténtalo de nuevo.',
  'error.detail': 'Detalles: {detail}',
  'applications.heading': 'Aplicaciones conectadas',
  'applications.none': 'Ninguna aplicación ajena a Hearth te identifica.',
  'applications.revoke': 'Desconectar'
}

export const OIDC_CATALOGUES: Record<Language, Record<OidcMessageKey, string>> = { en, es }

export type OidcTranslate = (key: OidcMessageKey, values?: Record<string, string>) => string

export function oidcTranslatorFor(language: Language): OidcTranslate {
  return catalogueTranslator(OIDC_CATALOGUES[language])
}
