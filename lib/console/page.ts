/**
 * The console's page as served: the built index.html with the deployment's
 * sign-in settings in a meta element (the page runs no inline script, so its
 * CSP can allow scripts from this origin only), and that CSP.
 */
import type { ConsoleSignIn } from '../config';

/** The meta element's name; console/src/session reads it. */
export const SIGN_IN_META = 'dept-admin-sign-in';

const escapeAttribute = (text: string) => text.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

/** The built page with the sign-in settings, when the deployment has a login, before `</head>`. */
export function renderConsolePage(builtPage: string, signIn: ConsoleSignIn | undefined): string {
  if (!signIn) return builtPage;
  const meta = `<meta name="${SIGN_IN_META}" content="${escapeAttribute(JSON.stringify(signIn))}">`;
  return builtPage.replace('</head>', `    ${meta}\n  </head>`);
}

/**
 * Only this origin, for everything: scripts, styles, images, the API. The one
 * exception is the login's token endpoint, where the page trades the code of
 * an authorization-code login for a token (OAuth requires that POST to go to
 * the issuer; it is the only other origin the page may reach).
 */
export function consoleContentSecurityPolicy(signIn: ConsoleSignIn | undefined): string {
  const connect = ["'self'", ...(signIn ? [new URL(signIn.tokenUrl).origin] : [])].join(' ');
  return [
    "default-src 'none'",
    "script-src 'self'",
    "style-src 'self'",
    "img-src 'self' data:",
    `connect-src ${connect}`,
    "base-uri 'none'",
    "form-action 'none'",
    "frame-ancestors 'none'",
  ].join('; ');
}
