/** Entry point of the browser application: picks the page from the path. */
import { ApiClient, type StoredBoundary } from './api.js';
import { h } from './dom.js';
import { sanitizeTheme } from './embedding.js';
import { showHome, showSignedOutHome } from './home.js';
import { runLaunch } from './launch.js';
import { takeHeadStart, type HeadStartField } from './head-start.js';
import type { FeatureCollection } from './geo.js';
import { NewFieldPage } from './new-field.js';
import { ProfilePage } from './profile.js';
import { PlanView } from './plan-view.js';
import type { Session } from './session.js';
import { SessionStore } from './session.js';
import type { SelectorOption } from './shell.js';
import { Shell, backButton, messagePanel } from './shell.js';

function memoryStorage(): Storage {
  const m = new Map<string, string>();
  return {
    get length() {
      return m.size;
    },
    clear: () => m.clear(),
    getItem: (k) => m.get(k) ?? null,
    key: (i) => [...m.keys()][i] ?? null,
    removeItem: (k) => void m.delete(k),
    setItem: (k, v) => void m.set(k, v),
  };
}

function tabStorage(): Storage {
  try {
    const st = window.sessionStorage;
    st.getItem('furrow.probe');
    return st;
  } catch {
    // Storage blocked (e.g. strict third-party settings): keep the session for this page only.
    return memoryStorage();
  }
}

function list(v: unknown): Record<string, unknown>[] {
  return Array.isArray(v) ? v.filter((x): x is Record<string, unknown> => typeof x === 'object' && x !== null) : [];
}

function str(v: unknown): string | undefined {
  return typeof v === 'string' ? v : undefined;
}

/** Organisations of the current user, tolerant to how /api/user/current names them. */
export function organisationsOf(user: unknown): SelectorOption[] {
  const u = (typeof user === 'object' && user !== null ? user : {}) as Record<string, unknown>;
  const raw = [
    ...list(u['companies']),
    ...list(u['companyAccess']),
    ...list(u['companyAccesses']),
    ...list(u['organizations']),
  ];
  const out = new Map<string, string>();
  for (const c of raw) {
    const inner = (typeof c['company'] === 'object' && c['company'] !== null ? c['company'] : c) as Record<
      string,
      unknown
    >;
    const id = str(inner['companyId']) ?? str(inner['id']) ?? str(c['companyId']);
    if (id && !out.has(id)) out.set(id, str(inner['name']) ?? id);
  }
  return [...out].map(([value, label]) => ({ value, label }));
}

/** The app's pages (the server answers others with this page and status 404). */
export function isAppPath(path: string): boolean {
  return (
    ['/', '/app', '/launch', '/profile', '/fields/new'].includes(path) ||
    /^\/path-planning\/boundary\/[^/]+$/.test(path)
  );
}

/** The field the launch's head start asked for (head-start.ts), for the page the launch opens. */
let launchedField: Promise<HeadStartField | undefined> | undefined;

async function main(): Promise<void> {
  // On the page's performance timeline (the launch budget's test prints it, docs/benchmarks/web.md).
  if (performance.getEntriesByName('furrow:app-run').length === 0) performance.mark('furrow:app-run');
  const mount = document.getElementById('root') ?? document.body;
  const shell = new Shell(mount, location.search);
  const sessions = new SessionStore(tabStorage());
  const path = location.pathname.replace(/\/+$/, '') || '/';

  const signedOut = (title: string, body: string) => {
    shell.setMinimal(true);
    shell.page.replaceChildren(messagePanel(title, body, [backButton()]));
    shell.page.dataset.state = 'signed-out';
  };

  let session: Session | undefined;
  const api = new ApiClient({
    token: () => session?.token,
    onUnauthorized: () => {
      sessions.clear();
      session = undefined;
      signedOut('Your session has ended', 'Open the planner again from your farm software to continue.');
    },
  });
  shell.onSignOut = () => {
    sessions.clear();
    session = undefined;
    signedOut('You are signed out', 'Open the planner again from your farm software to continue.');
  };

  if (!isAppPath(path)) {
    shell.setMinimal(true);
    shell.page.replaceChildren(
      messagePanel(
        'Page not found',
        'There is no page at this address. Start again from your fields.',
        [h('a', { class: 'button primary', href: '/', 'data-testid': 'home-link' }, 'Your fields')],
        'info',
      ),
    );
    shell.page.dataset.state = 'not-found';
    document.title = 'Page not found · furrow';
    return;
  }

  if (path === '/launch') {
    shell.setMinimal(true);
    // A page of the app opens in this page, without loading it again: the launch is on the way to
    // the plan, and the bundle is already parsed. Anything else is a new page load.
    const navigate = (target: string): void => {
      const url = new URL(target, location.origin);
      const to = url.pathname.replace(/\/+$/, '') || '/';
      if (url.origin !== location.origin || to === '/launch' || !isAppPath(to)) return location.replace(target);
      history.replaceState(null, '', `${url.pathname}${url.search}${url.hash}`);
      mount.replaceChildren();
      void main().catch(failed);
    };
    const headStart = takeHeadStart(window);
    launchedField = headStart?.field;
    await runLaunch({ shell, api, sessions, location, history, now: () => Date.now(), navigate, headStart });
    return;
  }

  const loaded = sessions.load();
  session = loaded.session;
  if (session) {
    shell.setAllowedOrigins(session.allowedOrigins);
    shell.setTheme(session.theme);
  }
  shell.listenForEmbeddingMessages(window);

  const isHome = path === '/' || path === '/app';
  if (!session && isHome) {
    showSignedOutHome(shell, loaded.expired);
    return;
  }
  if (!session) {
    signedOut(
      loaded.expired ? 'Your session has expired' : 'Sign-in needed',
      loaded.expired
        ? 'For your safety sessions end after a while. Open the planner again from your farm software.'
        : 'Open the planner from your farm software: it signs you in and brings you to your field.',
    );
    return;
  }
  // Honour the expiry while the page stays open.
  const left = session.expiresAtMs - Date.now();
  setTimeout(
    () => {
      sessions.clear();
      session = undefined;
      signedOut('Your session has expired', 'Open the planner again from your farm software to continue.');
    },
    Math.min(Math.max(left, 0), 2_147_000_000),
  );

  if (path === '/profile') {
    await new ProfilePage(shell, api).start();
    return;
  }
  if (path === '/fields/new') {
    const user = await api.currentUser().catch(() => undefined);
    new NewFieldPage({ shell, api, organisations: organisationsOf(user) }).start();
    return;
  }
  const m = /^\/path-planning\/boundary\/([^/]+)$/.exec(path);
  if (!m) {
    await showHome({ shell, api, organisations: organisationsOf });
    return;
  }
  const boundaryId = decodeURIComponent(m[1]);
  // Asked for first: the page, its map and its form are built while it comes. After a launch, the
  // head start has asked for it already, and for its first plan when the plan view plans it.
  const launched = launchedField?.then((f) => (f?.boundaryId === boundaryId ? f : undefined));
  launchedField = undefined;
  const boundary = launched ? launched.then((f) => f?.boundary ?? api.boundary(boundaryId)) : api.boundary(boundaryId);
  boundary.catch(() => undefined); // (the plan view says what went wrong)
  const firstPlan: Promise<FeatureCollection | undefined> | undefined = launched?.then((f) => f?.plan);
  shell.setCurrentPage('plan');
  shell.setFields([{ value: boundaryId, label: 'This field' }], boundaryId);
  shell.onFieldSelected = (id) => {
    if (id && id !== boundaryId) location.assign(`/path-planning/boundary/${encodeURIComponent(id)}${location.search}`);
  };

  // Organisations, partner theme and allowed origins from the current user; the fields of the
  // organisation in the field selector (best effort: the plan view works without them).
  const loadFields = async (companyId: string, selected: string): Promise<void> => {
    try {
      const fields = await api.fieldsOfCompany(companyId);
      if (!fields.some((f) => f.value === selected)) fields.unshift({ value: selected, label: 'This field' });
      shell.setFields(fields, selected);
    } catch {
      shell.setFields([{ value: selected, label: 'This field' }], selected);
    }
  };
  // Asked for once the boundary is in (after the plan request of a field opened the first time).
  let userLoaded: Promise<unknown> | undefined;
  const currentUser = () =>
    (userLoaded ??= api.currentUser().then(
      (user) => user,
      () => undefined,
    ));
  shell.onOrgSelected = (companyId) => {
    if (companyId) void loadFields(companyId, boundaryId);
  };
  const onBoundary = (b: StoredBoundary): void => {
    void currentUser().then((user) => {
      const orgs = organisationsOf(user);
      const current = b.companyId && orgs.some((o) => o.value === b.companyId) ? b.companyId : orgs[0]?.value;
      shell.setOrganisations(orgs, current);
      if (current) void loadFields(current, boundaryId);
      const u = (user ?? {}) as Record<string, unknown>;
      const partner = (u['partner'] ?? u['embedding']) as Record<string, unknown> | undefined;
      const origins = [u['allowedOrigins'], partner?.['allowedOrigins'], partner?.['embedOrigins']].flatMap((v) =>
        Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string') : [],
      );
      const theme = sanitizeTheme(u['theme'] ?? partner?.['theme']);
      if (origins.length === 0 && !theme) return;
      const updated = sessions.update({
        allowedOrigins: [...new Set([...(session?.allowedOrigins ?? []), ...origins])],
        ...(theme ? { theme } : {}),
      });
      if (updated) {
        shell.setAllowedOrigins(updated.allowedOrigins);
        shell.setTheme(updated.theme);
      }
    });
  };

  await new PlanView({ shell, api, boundaryId, onBoundary, boundary, firstPlan }).start();
}

/** Last resort: never leave a blank page. */
function failed(err: unknown): void {
  const root = document.getElementById('root') ?? document.body;
  root.replaceChildren(
    h(
      'section',
      { class: 'message-panel error', role: 'alert' },
      h('h1', {}, 'Something went wrong'),
      h('p', {}, 'Please reload the page.'),
    ),
  );
  console.error(err);
}

main().catch(failed);
