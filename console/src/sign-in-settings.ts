/**
 * The deployment's login settings, from the page (lib/console/page.ts puts them in a meta element): what the
 * console needs before it loads the OAuth code (sign-in.ts, loaded only when a login starts or returns).
 */

const META = 'dept-admin-sign-in';
/** A login under way: its PKCE verifier and state, kept in this tab until the issuer sends the person back. */
export const PENDING_LOGIN_KEY = 'dept-admin-console-login';

export interface SignInSettings {
  authorizeUrl: string;
  tokenUrl: string;
  clientId: string;
  scopes: string;
  logoutUrl?: string;
  issuer?: string;
}

export function signInSettings(): SignInSettings | undefined {
  const content = document.querySelector<HTMLMetaElement>(`meta[name="${META}"]`)?.content;
  return content ? (JSON.parse(content) as SignInSettings) : undefined;
}

/** Where the login comes back to: this page, without query or fragment (as registered with the issuer). */
export const redirectUri = () => `${location.origin}${location.pathname}`;

/** Whether this page load is the issuer sending the person back from a login this tab started. */
export function returningFromLogin(): boolean {
  const params = new URLSearchParams(location.search);
  return sessionStorage.getItem(PENDING_LOGIN_KEY) !== null && (params.has('code') || params.has('error'));
}

/** The issuer's logout, when it has one, back to this page. */
export function logoutUrl(settings: SignInSettings): string | undefined {
  if (!settings.logoutUrl) return undefined;
  const url = new URL(settings.logoutUrl);
  url.searchParams.set('client_id', settings.clientId);
  url.searchParams.set('logout_uri', redirectUri());
  return url.href;
}
