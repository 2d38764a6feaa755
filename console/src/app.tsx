/**
 * The console's frame: sign-in until there is a token, then the navigation
 * and one screen per route. Routes live in the fragment (`#/departments/eng`)
 * and a list's filters and cursor in the query, so a link can be shared and
 * the back button works, while the server only ever serves `/console`.
 */
import type { ComponentType } from 'preact';
import { Link, Route, Router, Switch, useLocation, type AroundNavHandler } from 'wouter-preact';
import { useHashLocation } from 'wouter-preact/use-hash-location';
import { Audit } from './screens/audit';
import { Group } from './screens/group';
import { Groups } from './screens/groups';
import { Overview } from './screens/overview';
import { Reports } from './screens/reports';
import { ScimTokens } from './screens/scim-tokens';
import { SignIn } from './screens/sign-in';
import { session, useSession } from './session';
import { logoutUrl, signInSettings } from './sign-in-settings';

/** Every screen, in the order of the navigation; `path` patterns are wouter's. */
export const SCREENS: Array<{ path: string; title?: string; component: ComponentType<{ params: Record<string, string> }> }> = [
  { path: '/', title: 'Overview', component: Overview },
  { path: '/groups', title: 'Groups', component: Groups },
  { path: '/groups/:id', component: Group },
  { path: '/reports', title: 'Reports', component: Reports },
  { path: '/audit', title: 'Audit', component: Audit },
  { path: '/scim-tokens', title: 'SCIM tokens', component: ScimTokens },
];

function NavLink({ href, children }: { href: string; children: string }) {
  const [location] = useLocation();
  const current = href === '/' ? location === '/' : location === href || location.startsWith(`${href}/`);
  return (
    <Link href={href} aria-current={current ? 'page' : undefined}>
      {children}
    </Link>
  );
}

function signOut() {
  const settings = signInSettings();
  session.signOut();
  const logout = settings && logoutUrl(settings);
  if (logout) location.assign(logout);
}

function Frame() {
  const current = useSession();
  return (
    <>
      <a class="skip" href="#main" onClick={(event) => (event.preventDefault(), document.getElementById('main')?.focus())}>
        Skip to content
      </a>
      <header>
        <span class="brand">Admin console</span>
        <nav aria-label="Screens">
          {SCREENS.filter((screen) => screen.title).map((screen) => (
            <NavLink key={screen.path} href={screen.path}>
              {screen.title!}
            </NavLink>
          ))}
        </nav>
        <span class="who">{current.status === 'signed-in' && current.canWrite === false ? 'Read only' : ''}</span>
        <button type="button" onClick={signOut}>
          Sign out
        </button>
      </header>
      <main id="main" tabIndex={-1}>
        <Switch>
          {SCREENS.map(({ path, component: Screen }) => (
            <Route key={path} path={path}>
              {(params: Record<string, string>) => <Screen params={params} />}
            </Route>
          ))}
          <Route>
            <h1>Not found</h1>
            <p>
              This console has no such screen. <Link href="/">Go to the overview</Link>.
            </p>
          </Route>
        </Switch>
      </main>
    </>
  );
}

/**
 * Every address is `{page}?{query}#{path}`: the screen in the fragment, a list's filters and cursor in the query.
 * A link's href says both, so it opens the same page in a new tab or when shared (wouter's hash links would put the
 * query inside the fragment, which matches no route); and a target without a query clears the current one (wouter's
 * hash navigation keeps it, which would carry one list's cursor to another screen).
 */
function hrefOf(to: string): string {
  const [path, query] = to.split('?');
  return `${location.pathname}${query ? `?${query}` : ''}#${path}`;
}
// wouter's hash location listens to `hashchange` only, but going back or forward between the entries its navigate()
// pushes fires `popstate` alone (Chromium): without this, the back button changes the address and not the screen.
addEventListener('popstate', () => dispatchEvent(new HashChangeEvent('hashchange')));

const clearingQuery: AroundNavHandler = (navigate, to, options) => navigate(to.includes('?') ? to : `${to}?`, options);

export function App() {
  const current = useSession();
  return (
    <Router hook={useHashLocation} hrefs={hrefOf} aroundNav={clearingQuery}>
      {current.status === 'signed-in' ? <Frame /> : <SignIn reason={current.reason} />}
    </Router>
  );
}
