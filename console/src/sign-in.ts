/**
 * The deployment's OAuth login (the stack's Cognito hosted login, or an
 * external issuer's): authorization code with PKCE, by oauth4webapi. The
 * settings come from the page (lib/console/page.ts puts them in a meta
 * element); a deployment without them, and `npm start`, take a pasted token.
 */
import * as oauth from 'oauth4webapi';

const META = 'dept-admin-sign-in';
const PENDING_KEY = 'dept-admin-console-login';

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
const redirectUri = () => `${location.origin}${location.pathname}`;

function authorizationServer(settings: SignInSettings): oauth.AuthorizationServer {
  return {
    issuer: settings.issuer ?? new URL(settings.tokenUrl).origin,
    authorization_endpoint: settings.authorizeUrl,
    token_endpoint: settings.tokenUrl,
  };
}

export async function startLogin(settings: SignInSettings): Promise<void> {
  const verifier = oauth.generateRandomCodeVerifier();
  const state = oauth.generateRandomState();
  sessionStorage.setItem(PENDING_KEY, JSON.stringify({ verifier, state }));
  const url = new URL(settings.authorizeUrl);
  url.searchParams.set('response_type', 'code');
  url.searchParams.set('client_id', settings.clientId);
  url.searchParams.set('redirect_uri', redirectUri());
  url.searchParams.set('scope', settings.scopes);
  url.searchParams.set('state', state);
  url.searchParams.set('code_challenge', await oauth.calculatePKCECodeChallenge(verifier));
  url.searchParams.set('code_challenge_method', 'S256');
  location.assign(url.href);
}

/** Back from the login (`?code=...&state=...`): trades the code for an access token; undefined when this is no return. */
export async function finishLogin(settings: SignInSettings): Promise<string | undefined> {
  const pending = sessionStorage.getItem(PENDING_KEY);
  const params = new URLSearchParams(location.search);
  if (!pending || (!params.has('code') && !params.has('error'))) return undefined;
  sessionStorage.removeItem(PENDING_KEY);
  history.replaceState(null, '', `${location.pathname}#/`);
  const { verifier, state } = JSON.parse(pending) as { verifier: string; state: string };
  const server = authorizationServer(settings);
  const client: oauth.Client = { client_id: settings.clientId };
  const callback = oauth.validateAuthResponse(server, client, params, state);
  const response = await oauth.authorizationCodeGrantRequest(server, client, oauth.None(), callback, redirectUri(), verifier);
  const result = await oauth.processAuthorizationCodeResponse(server, client, response, { requireIdToken: false });
  return result.access_token;
}

/** The issuer's logout, when it has one, back to this page. */
export function logoutUrl(settings: SignInSettings): string | undefined {
  if (!settings.logoutUrl) return undefined;
  const url = new URL(settings.logoutUrl);
  url.searchParams.set('client_id', settings.clientId);
  url.searchParams.set('logout_uri', redirectUri());
  return url.href;
}
