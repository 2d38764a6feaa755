/**
 * The console's OAuth login in Chromium, against an issuer on this machine
 * standing in for the stack's Cognito hosted login (or an external issuer):
 * the deployment's settings reach the page through the template
 * (context console* keys → the console function's environment → the page's
 * meta element and CSP), the page sends the person to the issuer with a PKCE
 * challenge, and trades the code and its verifier for the token it then
 * calls the API with.
 */
import { createHash } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { READ_TOKEN } from '../support/api';
import { settled, useConsole } from '../support/console';

const harness = useConsole();
const CLIENT_ID = 'console-client';

interface Login {
  challenge: string;
  redirectUri: string;
  verifierChecked?: boolean;
}

/** An authorization server of the least kind: authorizes everyone at once, and issues the local read token for a good code. */
function startIssuer(consoleOrigin: () => string) {
  const logins = new Map<string, Login>();
  const refused: string[] = [];
  const server: Server = createServer((request, response) => {
    const url = new URL(request.url!, 'http://issuer');
    if (request.method === 'GET' && url.pathname === '/authorize') {
      const params = url.searchParams;
      if (params.get('response_type') !== 'code' || params.get('client_id') !== CLIENT_ID || params.get('code_challenge_method') !== 'S256') {
        refused.push(`authorize: ${url.search}`);
        response.writeHead(400).end();
        return;
      }
      const code = `code-${logins.size}`;
      logins.set(code, { challenge: params.get('code_challenge')!, redirectUri: params.get('redirect_uri')! });
      const back = new URL(params.get('redirect_uri')!);
      back.searchParams.set('code', code);
      back.searchParams.set('state', params.get('state')!);
      response.writeHead(302, { location: back.href }).end();
      return;
    }
    if (url.pathname === '/token') {
      // The page is another origin: the browser asks first (CORS), as it does of Cognito's token endpoint.
      const cors = { 'access-control-allow-origin': consoleOrigin(), 'access-control-allow-headers': 'content-type' };
      if (request.method === 'OPTIONS') return void response.writeHead(204, cors).end();
      let body = '';
      request.on('data', (chunk: Buffer) => (body += chunk.toString('utf8')));
      request.on('end', () => {
        const form = new URLSearchParams(body);
        const login = logins.get(form.get('code') ?? '');
        const verifier = form.get('code_verifier') ?? '';
        const challenge = createHash('sha256').update(verifier).digest('base64url');
        if (!login || form.get('grant_type') !== 'authorization_code' || form.get('redirect_uri') !== login.redirectUri || challenge !== login.challenge) {
          refused.push(`token: ${body}`);
          response.writeHead(400, { ...cors, 'content-type': 'application/json' }).end(JSON.stringify({ error: 'invalid_grant' }));
          return;
        }
        login.verifierChecked = true;
        response
          .writeHead(200, { ...cors, 'content-type': 'application/json', 'cache-control': 'no-store' })
          .end(JSON.stringify({ access_token: READ_TOKEN, token_type: 'Bearer', expires_in: 3600 }));
      });
      return;
    }
    response.writeHead(404).end();
  });
  return { server, logins, refused };
}

describe('signing in to the console through the deployment login', () => {
  const issuer = startIssuer(() => new URL(harness.api.baseUrl).origin);
  let issuerUrl: string;

  beforeAll(async () => {
    await new Promise<void>((resolve) => issuer.server.listen(0, '127.0.0.1', resolve));
    issuerUrl = `http://127.0.0.1:${(issuer.server.address() as AddressInfo).port}`;
    await harness.api.redeploy({
      context: {
        reportEmailDomains: '*',
        jwtIssuer: issuerUrl,
        jwtAudience: 'api-clients',
        consoleClientId: CLIENT_ID,
        consoleAuthorizeUrl: `${issuerUrl}/authorize`,
        consoleTokenUrl: `${issuerUrl}/token`,
        consoleScopes: 'admin/read admin/write',
      },
    });
  }, 120_000);
  afterAll(() => new Promise<void>((resolve) => issuer.server.close(() => resolve())));

  it('sends the person to the issuer with a PKCE challenge, and uses the token it trades the code for', async () => {
    const page = await harness.open('/', { token: null });
    const csp = (await fetch(`${harness.api.baseUrl}/console`)).headers.get('content-security-policy');
    expect(csp).toContain(`connect-src 'self' ${issuerUrl};`);
    await page.page.getByRole('button', { name: 'Sign in' }).click();
    await page.page
      .getByRole('heading', { name: 'Overview' })
      .waitFor({ timeout: 20_000 })
      .catch(async (error: Error) => {
        throw new Error(`${error.message}\nat ${page.page.url()}\nfaults: ${page.faults.join('\n')}\nissuer refused: ${issuer.refused.join('\n')}\n${await page.page.content()}`);
      });
    await settled(page.page);
    expect(issuer.refused).toEqual([]);
    expect([...issuer.logins.values()].map((login) => login.verifierChecked)).toEqual([true]);
    // The token the issuer gave may only read: the console says so, and the address bar holds no code.
    await expect.poll(() => page.page.getByText('Read only').count()).toBe(1);
    expect(page.page.url()).toBe(`${harness.api.baseUrl}/console#/`);
    // Nothing but the issuer's login and token endpoint besides the service's own.
    expect(page.faults.filter((fault) => !fault.startsWith(`request elsewhere: ${issuerUrl}/`))).toEqual([]);
  });
});
