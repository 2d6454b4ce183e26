import { type Catalogues, type Language, catalogueTranslator } from '../../kernel/language/language.js'
import { featureTranslator } from '../../kernel/pages/i18n/index.js'

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
  'applications.revoke': 'Disconnect',
  'applications.logo': 'Logo of {name}'
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
  'applications.revoke': 'Desconectar',
  'applications.logo': 'Logotipo de {name}'
}

export const OIDC_CATALOGUES: Record<Language, Record<OidcMessageKey, string>> = { en, es }

export type OidcTranslate = (key: OidcMessageKey, values?: Record<string, string>) => string

export function oidcTranslatorFor(language: Language): OidcTranslate {
  return catalogueTranslator(OIDC_CATALOGUES[language])
}

/**
 * The console's Applications section (docs/administration.md, "Applications"), in every page
 * language; the kernel's own messages (layout, forms) come with them through `clientsTranslator`.
 */
const clientsEn = {
  'clients.section': 'Applications',
  'clients.intro':
    'The applications that sign people in with this hub over OpenID Connect. The same list as the command clients:list; every change counts at once.',
  'clients.none': 'No application is registered yet.',
  'clients.name': 'Name',
  'clients.clientId': 'Client id',
  'clients.kind': 'Kind',
  'clients.redirectUris': 'Redirect URIs',
  'clients.added': 'Added',
  'clients.public': 'Public',
  'clients.confidential': 'Confidential',
  'clients.firstParty': 'first party',
  'clients.add.heading': 'Add an application',
  'clients.add.submit': 'Add the application',
  'clients.field.name': 'Name',
  'clients.field.nameHint': 'What the consent page and the account page show; the client id when left empty.',
  'clients.field.clientId': 'Client id',
  'clients.field.clientIdHint': '1 to 59 lower-case letters, digits, “_” or “-”. It cannot be changed later.',
  'clients.field.redirectUris': 'Redirect URIs, one per line',
  'clients.field.redirectUrisHint':
    'Where the hub sends the browser back with a code: http(s) addresses without a fragment, matched exactly. A public phone or desktop application may also use its own scheme (app.immich:///oauth-callback) and http://127.0.0.1/… on any port.',
  'clients.field.postLogoutRedirectUris': 'Post-logout redirect URIs, one per line',
  'clients.field.backchannelLogoutUri': 'Back-channel logout URI',
  'clients.field.backchannelLogoutUriHint': 'Where the hub tells the application that a session ended; empty for none.',
  'clients.field.kind': 'Kind',
  'clients.field.confidential': 'Confidential: a server-side application that keeps a secret',
  'clients.field.public': 'Public: a single-page or phone application without a secret (PKCE is its proof)',
  'clients.field.firstParty': 'First party: the family’s own application, which skips the consent page',
  'clients.edit.heading': 'Settings',
  'clients.edit.submit': 'Save changes',
  'clients.edit.kindFixed': 'The client id and the kind are fixed at registration.',
  'clients.secret.heading': 'Secret',
  'clients.secret.intro': 'A new secret replaces the current one, which stops working at once: the application signs no one in until it has the new one.',
  'clients.secret.submit': 'Replace the secret',
  'clients.secret.publicNone': 'A public application has no secret: PKCE is its proof.',
  'clients.secret.title': 'The secret of {name}',
  'clients.secret.once': 'Copy this secret into the application’s settings now. It is shown only this once: the hub keeps only a hash of it.',
  'clients.secret.replaced': 'The old secret has stopped working.',
  'clients.secret.issuer': 'Issuer',
  'clients.secret.value': 'Client secret',
  'clients.secret.done': 'I have copied it: back to the application',
  'clients.remove.heading': 'Remove',
  'clients.remove.link': 'Remove this application…',
  'clients.remove.title': 'Remove {name}?',
  'clients.remove.intro': 'Every grant, code and token the application holds ends now, and it can no longer sign anyone in. This cannot be undone.',
  'clients.remove.submit': 'Remove the application',
  'clients.remove.cancel': 'Keep it',
  'clients.notice.added': 'The application was added.',
  'clients.notice.changed': 'The changes were saved.',
  'clients.notice.removed': 'The application was removed, with its grants and tokens.',
  'clients.error.id': 'The client id must be 1 to 59 characters: lower-case letters, digits, “_” or “-”.',
  'clients.error.name': 'The name must be 1 to {max} characters, none of them invisible.',
  'clients.error.noRedirectUri': 'Give at least one redirect URI.',
  'clients.error.tooManyUris': 'At most {max} redirect URIs and {max} post-logout redirect URIs.',
  'clients.error.uri': 'Not an http(s) address without a fragment, of at most {length} characters: {uri}',
  'clients.error.taken': 'An application with the client id {clientId} already exists.',
  'clients.error.publicHasNoSecret': 'A public application has no secret to replace.',
  'clients.error.idTokenAlg': 'Choose EdDSA, RS256 or ES256 for the ID tokens.',
  'clients.error.pkce': 'A public application always uses PKCE: it is its only proof.',
  'clients.error.authMethod': 'A confidential application sends its secret in a Basic header or in the request body; a public one sends none.',
  'clients.error.nativeUri':
    'A private-use scheme such as {uri} is for phone and desktop applications, which are public: register it on a public application, beside loopback (127.0.0.1) or https addresses only.',
  'clients.error.logoUrl': 'The logo must be an https address (http only on localhost) of at most {logoMax} characters, without a fragment.',
  'clients.logo.alt': 'Logo of {name}',
  'clients.settings.idTokenAlg': 'ID tokens signed with',
  'clients.settings.pkce': 'PKCE',
  'clients.settings.authMethod': 'Secret sent',
  'clients.field.logoUrl': 'Logo URL',
  'clients.field.logoUrlHint': 'An https address of an image the consent page shows beside the name; empty for none.',
  'clients.field.idTokenAlg': 'ID token signing algorithm',
  'clients.field.idTokenAlgHint': 'EdDSA unless the application needs another: RS256 is the one every OpenID Connect application knows (Immich, older applications).',
  'clients.field.pkce': 'PKCE',
  'clients.field.pkceRequired': 'Required (recommended)',
  'clients.field.pkceOptional': 'Optional: for a server-side application that sends none (confidential only)',
  'clients.field.authMethod': 'How the application sends its secret',
  'clients.field.authBasic': 'In a Basic header (client_secret_basic)',
  'clients.field.authPost': 'In the request body (client_secret_post)',
  'clients.field.authHint': 'A public application sends none.',
  'clients.pkce.required': 'required',
  'clients.pkce.optional': 'optional'
} as const

export type ClientsMessageKey = keyof typeof clientsEn

const clientsEs: Record<ClientsMessageKey, string> = {
  'clients.section': 'Aplicaciones',
  'clients.intro':
    'Las aplicaciones que identifican a las personas con este hub mediante OpenID Connect. La misma lista que la orden clients:list; cada cambio cuenta al momento.',
  'clients.none': 'Todavía no hay ninguna aplicación registrada.',
  'clients.name': 'Nombre',
  'clients.clientId': 'Id de cliente',
  'clients.kind': 'Tipo',
  'clients.redirectUris': 'URI de redirección',
  'clients.added': 'Añadida',
  'clients.public': 'Pública',
  'clients.confidential': 'Confidencial',
  'clients.firstParty': 'propia',
  'clients.add.heading': 'Añadir una aplicación',
  'clients.add.submit': 'Añadir la aplicación',
  'clients.field.name': 'Nombre',
  'clients.field.nameHint': 'Lo que muestran la página de consentimiento y la de la cuenta; el id de cliente si lo dejas vacío.',
  'clients.field.clientId': 'Id de cliente',
  'clients.field.clientIdHint': 'De 1 a 59 letras minúsculas, cifras, «_» o «-». No se puede cambiar después.',
  'clients.field.redirectUris': 'URI de redirección, una por línea',
  'clients.field.redirectUrisHint':
    'Adonde el hub devuelve el navegador con un código: direcciones http(s) sin fragmento, comparadas exactamente. Una aplicación pública de teléfono o de escritorio también puede usar su propio esquema (app.immich:///oauth-callback) y http://127.0.0.1/… en cualquier puerto.',
  'clients.field.postLogoutRedirectUris': 'URI de redirección tras cerrar sesión, una por línea',
  'clients.field.backchannelLogoutUri': 'URI de cierre de sesión por canal trasero',
  'clients.field.backchannelLogoutUriHint': 'Donde el hub avisa a la aplicación de que una sesión terminó; vacía si no hay.',
  'clients.field.kind': 'Tipo',
  'clients.field.confidential': 'Confidencial: una aplicación de servidor que guarda un secreto',
  'clients.field.public': 'Pública: una aplicación de una sola página o de teléfono sin secreto (PKCE es su prueba)',
  'clients.field.firstParty': 'Propia: una aplicación de la familia, que no pasa por la página de consentimiento',
  'clients.edit.heading': 'Configuración',
  'clients.edit.submit': 'Guardar los cambios',
  'clients.edit.kindFixed': 'El id de cliente y el tipo se fijan al registrarla.',
  'clients.secret.heading': 'Secreto',
  'clients.secret.intro': 'Un secreto nuevo sustituye al actual, que deja de funcionar al momento: la aplicación no identifica a nadie hasta que tenga el nuevo.',
  'clients.secret.submit': 'Cambiar el secreto',
  'clients.secret.publicNone': 'Una aplicación pública no tiene secreto: PKCE es su prueba.',
  'clients.secret.title': 'El secreto de {name}',
  'clients.secret.once': 'Copia ahora este secreto en la configuración de la aplicación. Solo se muestra esta vez: el hub guarda solo un hash.',
  'clients.secret.replaced': 'El secreto anterior ha dejado de funcionar.',
  'clients.secret.issuer': 'Emisor',
  'clients.secret.value': 'Secreto de cliente',
  'clients.secret.done': 'Ya lo he copiado: volver a la aplicación',
  'clients.remove.heading': 'Eliminar',
  'clients.remove.link': 'Eliminar esta aplicación…',
  'clients.remove.title': '¿Eliminar {name}?',
  'clients.remove.intro': 'Todos los permisos, códigos y tokens de la aplicación terminan ahora, y ya no podrá identificar a nadie. No se puede deshacer.',
  'clients.remove.submit': 'Eliminar la aplicación',
  'clients.remove.cancel': 'Conservarla',
  'clients.notice.added': 'Se añadió la aplicación.',
  'clients.notice.changed': 'Se guardaron los cambios.',
  'clients.notice.removed': 'Se eliminó la aplicación, con sus permisos y tokens.',
  'clients.error.id': 'El id de cliente debe tener de 1 a 59 caracteres: letras minúsculas, cifras, «_» o «-».',
  'clients.error.name': 'El nombre debe tener de 1 a {max} caracteres, ninguno invisible.',
  'clients.error.noRedirectUri': 'Indica al menos una URI de redirección.',
  'clients.error.tooManyUris': 'Como mucho {max} URI de redirección y {max} URI de redirección tras cerrar sesión.',
  'clients.error.uri': 'No es una dirección http(s) sin fragmento, de como mucho {length} caracteres: {uri}',
  'clients.error.taken': 'Ya existe una aplicación con el id de cliente {clientId}.',
  'clients.error.publicHasNoSecret': 'Una aplicación pública no tiene secreto que cambiar.',
  'clients.error.idTokenAlg': 'Elige EdDSA, RS256 o ES256 para los tokens de ID.',
  'clients.error.pkce': 'Una aplicación pública siempre usa PKCE: es su única prueba.',
  'clients.error.authMethod': 'Una aplicación confidencial envía su secreto en una cabecera Basic o en el cuerpo de la petición; una pública no envía ninguno.',
  'clients.error.nativeUri':
    'Un esquema de uso privado como {uri} es para aplicaciones de teléfono o de escritorio, que son públicas: regístralo en una aplicación pública, junto a direcciones de loopback (127.0.0.1) o https solamente.',
  'clients.error.logoUrl': 'El logotipo debe ser una dirección https (http solo en localhost) de como mucho {logoMax} caracteres, sin fragmento.',
  'clients.logo.alt': 'Logotipo de {name}',
  'clients.settings.idTokenAlg': 'Tokens de ID firmados con',
  'clients.settings.pkce': 'PKCE',
  'clients.settings.authMethod': 'Envío del secreto',
  'clients.field.logoUrl': 'URL del logotipo',
  'clients.field.logoUrlHint': 'Una dirección https de una imagen que la página de consentimiento muestra junto al nombre; vacía si no hay.',
  'clients.field.idTokenAlg': 'Algoritmo de firma de los tokens de ID',
  'clients.field.idTokenAlgHint': 'EdDSA salvo que la aplicación necesite otro: RS256 es el que conocen todas las aplicaciones OpenID Connect (Immich, aplicaciones antiguas).',
  'clients.field.pkce': 'PKCE',
  'clients.field.pkceRequired': 'Obligatorio (recomendado)',
  'clients.field.pkceOptional': 'Opcional: para una aplicación de servidor que no lo envía (solo confidenciales)',
  'clients.field.authMethod': 'Cómo envía la aplicación su secreto',
  'clients.field.authBasic': 'En una cabecera Basic (client_secret_basic)',
  'clients.field.authPost': 'En el cuerpo de la petición (client_secret_post)',
  'clients.field.authHint': 'Una aplicación pública no envía ninguno.',
  'clients.pkce.required': 'obligatorio',
  'clients.pkce.optional': 'opcional'
}

export const CLIENTS_MESSAGES: Catalogues<ClientsMessageKey> = { en: clientsEn, es: clientsEs }

/** The translator of the console's Applications section: its messages and the kernel's, composed once. */
export const clientsTranslator = featureTranslator(CLIENTS_MESSAGES)
