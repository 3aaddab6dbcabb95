/**
 * `/launch?code=…&userId=…&returnUrl=…`: exchanges the one-time launch code for the end user's
 * session, keeps it (session.ts), then goes to `returnUrl`. Any failure ends on a message with
 * a way back, never a blank page.
 */
import type { ApiClient } from './api.js';
import type { HeadStart } from './head-start.js';
import { ApiError } from './api.js';
import { h } from './dom.js';
import type { SessionStore } from './session.js';
import { launchTarget, sessionFromExchange } from './session.js';
import type { Shell } from './shell.js';
import { backButton, messagePanel } from './shell.js';

export { launchTarget };

export interface LaunchDeps {
  shell: Shell;
  api: ApiClient;
  sessions: SessionStore;
  location: Location;
  history: History;
  now: () => number;
  /** Goes to the target after the exchange (default: `location.replace`, a new page load). */
  navigate?: (target: string) => void;
  /** The exchange the page's head start began (head-start.ts), with the launch's parameters. */
  headStart?: HeadStart;
}

/** What a failed exchange means for the user. */
export function launchFailureMessage(err: unknown): { title: string; body: string } {
  if (err instanceof ApiError) {
    if (err.status === 0) return { title: 'Cannot reach furrow', body: err.message };
    if (err.status === 429)
      return {
        title: 'Too many attempts',
        body: 'Please wait a minute, then open the planner again from your farm software.',
      };
    // Only a specific error code names one cause; the API may (rightly) not say which one.
    const code = err.code.toLowerCase();
    if (code.includes('expired')) {
      return {
        title: 'This sign-in link has expired',
        body:
          'Launch links are valid for 10 minutes. Go back to your farm software and open the planner again to ' +
          'get a new one.',
      };
    }
    if (code.includes('used') || code.includes('consumed') || code.includes('replay')) {
      return {
        title: 'This sign-in link was already used',
        body: 'Each launch link works once. Go back to your farm software and open the planner again to get a new one.',
      };
    }
    if (err.status >= 400 && err.status < 500) {
      return {
        title: 'This sign-in link can no longer be used',
        body:
          'Launch links work once and for 10 minutes; this one is used, expired or not valid. Go back to your ' +
          'farm software and open the planner again.',
      };
    }
    return {
      title: 'Sign-in failed',
      body: `The server could not sign you in (${err.message}). Please try again in a moment.`,
    };
  }
  return { title: 'Sign-in failed', body: 'Something went wrong while signing you in. Please try again.' };
}

export async function runLaunch(deps: LaunchDeps): Promise<void> {
  const { shell, api, sessions, location, history } = deps;
  const params = new URLSearchParams(location.search);
  const head = deps.headStart;
  const code = head ? head.code : params.get('code');
  const userId = head ? head.userId : params.get('userId');
  const returnUrl = head ? head.returnUrl : params.get('returnUrl');
  // The code is a credential: take it out of the address bar and history at once.
  history.replaceState(null, '', '/launch');

  const page = shell.page;
  const status = h('p', { class: 'launch-status', role: 'status', 'aria-live': 'polite' }, 'Signing you in…');
  page.replaceChildren(
    h(
      'section',
      { class: 'launch', 'data-testid': 'launch' },
      h('div', { class: 'spinner', 'aria-hidden': 'true' }),
      status,
    ),
  );

  const fail = (title: string, body: string): void => {
    page.replaceChildren(messagePanel(title, body, [backButton()]));
    page.dataset.state = 'launch-failed';
  };

  if (!code || !userId) {
    fail(
      'This sign-in link is incomplete',
      'The link has no launch code or user. Go back to your farm software and open the planner again.',
    );
    return;
  }
  let body: unknown;
  try {
    body = await (head?.exchange ?? api.exchangeLaunchCode(code, userId));
  } catch (err) {
    const m = launchFailureMessage(err);
    fail(m.title, m.body);
    return;
  }
  const session = sessionFromExchange(body, deps.now(), location.origin);
  if (!session) {
    fail(
      'Sign-in failed',
      'The server answered without a usable session. Please open the planner again from your farm software.',
    );
    return;
  }
  sessions.save(session);
  // The returnUrl the API stored with the code (set by the partner's server) wins over the
  // one in the address bar, which anyone could have edited.
  const stored = (body as { returnUrl?: unknown } | null)?.returnUrl;
  const target = launchTarget(typeof stored === 'string' ? stored : null, returnUrl, location.origin);
  if (!target) {
    page.replaceChildren(
      messagePanel(
        'You are signed in',
        'The page you were sent to is not part of furrow, so it was not opened. Your fields are on the home page.',
        [h('a', { href: '/', class: 'button primary', 'data-testid': 'go-home' }, 'Your fields'), backButton()],
        'info',
      ),
    );
    page.dataset.state = 'launch-no-target';
    return;
  }
  page.dataset.state = 'launch-ok';
  if (deps.navigate) deps.navigate(target);
  else location.replace(target);
}
