/**
 * Where the console is: the screen in the fragment (`#/departments/eng`) and
 * that screen's list parameters (filters, sort, cursor) in the query
 * (`/console?sort=name#/departments`), so a link can be shared and the back
 * button works. A query belongs to its screen: going to a path without one
 * leaves the last screen's parameters behind (wouter's hash hook would keep
 * them, and the next screen would send them to its own list), and a link's
 * address carries its own query, so opening it in a new tab lands on the same list.
 */
import type { BaseLocationHook } from 'wouter-preact';
import { navigate as hashNavigate, useHashLocation } from 'wouter-preact/use-hash-location';

type NavigateOptions = Parameters<typeof hashNavigate>[1];

const navigate = (to: string, options?: NavigateOptions) => hashNavigate(to.includes('?') ? to : `${to}?`, options);

// wouter's hash location listens to `hashchange` only, but going back or forward between the entries its navigate()
// pushes fires `popstate` alone (Chromium): without this, the back button changes the address and not the screen.
addEventListener('popstate', () => dispatchEvent(new HashChangeEvent('hashchange')));

export const useScreenLocation: BaseLocationHook & { hrefs: (href: string) => string } = Object.assign(
  () => [useHashLocation()[0], navigate] as [string, typeof navigate],
  {
    hrefs: (href: string) => {
      const [path, search] = href.split('?');
      return `${search ? `?${search}` : location.pathname}#${path}`;
    },
  },
);
