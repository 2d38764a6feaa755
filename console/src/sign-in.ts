/**
 * The deployment's OAuth login (the stack's Cognito hosted login, or an external issuer's): authorization code with
 * PKCE, by oauth4webapi. Loaded only when a login starts or returns (main.tsx, screens/sign-in.tsx): a console
 * signed in by a pasted token or `npm start`'s link never downloads it.
 */
import * as oauth from 'oauth4webapi';
import { PENDING_LOGIN_KEY, redirectUri, type SignInSettings } from './sign-in-settings';

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
  sessionStorage.setItem(PENDING_LOGIN_KEY, JSON.stringify({ verifier, state }));
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

/** Back from the login (`?code=...&state=...`, returningFromLogin): trades the code for an access token. */
export async function finishLogin(settings: SignInSettings): Promise<string> {
  const pending = sessionStorage.getItem(PENDING_LOGIN_KEY)!;
  const params = new URLSearchParams(location.search);
  sessionStorage.removeItem(PENDING_LOGIN_KEY);
  history.replaceState(null, '', `${location.pathname}#/`);
  const { verifier, state } = JSON.parse(pending) as { verifier: string; state: string };
  const server = authorizationServer(settings);
  const client: oauth.Client = { client_id: settings.clientId };
  const callback = oauth.validateAuthResponse(server, client, params, state);
  // Plain http only to an issuer on this machine (the stack refuses any other http URL: infra/stack.ts).
  const loopback = ['127.0.0.1', 'localhost', '[::1]'].includes(new URL(settings.tokenUrl).hostname);
  const response = await oauth.authorizationCodeGrantRequest(server, client, oauth.None(), callback, redirectUri(), verifier, {
    [oauth.allowInsecureRequests]: loopback,
  });
  const result = await oauth.processAuthorizationCodeResponse(server, client, response, { requireIdToken: false });
  return result.access_token;
}
