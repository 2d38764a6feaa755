/**
 * The console's frame: sign-in until there is a token, then the navigation
 * and one screen per route. Routes live in the fragment (`#/departments/eng`)
 * and a list's filters and cursor in the query, so a link can be shared and
 * the back button works, while the server only ever serves `/console`.
 */
import type { ComponentType } from 'preact';
import { Link, Route, Router, Switch, useLocation } from 'wouter-preact';
import { useScreenLocation } from './location';
import { Audit } from './screens/audit';
import { DepartmentScreen } from './screens/department';
import { Departments } from './screens/departments';
import { Group } from './screens/group';
import { Groups } from './screens/groups';
import { Overview } from './screens/overview';
import { Reports } from './screens/reports';
import { ScimTokens } from './screens/scim-tokens';
import { SignIn } from './screens/sign-in';
import { UserScreen } from './screens/user';
import { Users } from './screens/users';
import { WebhookScreen } from './screens/webhook';
import { Webhooks } from './screens/webhooks';
import { session, useSession } from './session';
import { logoutUrl, signInSettings } from './sign-in-settings';

/** Every screen, in the order of the navigation; `path` patterns are wouter's. */
export const SCREENS: Array<{ path: string; title?: string; component: ComponentType<{ params: Record<string, string> }> }> = [
  { path: '/', title: 'Overview', component: Overview },
  { path: '/users', title: 'Users', component: Users },
  { path: '/users/:id', component: UserScreen },
  { path: '/departments', title: 'Departments', component: Departments },
  { path: '/departments/:id', component: DepartmentScreen },
  { path: '/groups', title: 'Groups', component: Groups },
  { path: '/groups/:id', component: Group },
  { path: '/reports', title: 'Reports', component: Reports },
  { path: '/audit', title: 'Audit', component: Audit },
  { path: '/scim-tokens', title: 'SCIM tokens', component: ScimTokens },
  { path: '/webhooks', title: 'Webhooks', component: Webhooks },
  { path: '/webhooks/:id', component: WebhookScreen },
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

export function App() {
  const current = useSession();
  return <Router hook={useScreenLocation}>{current.status === 'signed-in' ? <Frame /> : <SignIn reason={current.reason} />}</Router>;
}
