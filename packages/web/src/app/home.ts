/**
 * `/` (and `/app`): the signed-in user's home — each organisation it can access with its credit
 * balance and its fields, each a link to the field's plan view — or, without a session, a page
 * saying how to get in.
 */
import type { ApiClient, Credits } from './api.js';
import { h } from './dom.js';
import type { SelectorOption, Shell } from './shell.js';
import { messagePanel } from './shell.js';
import { describeError } from './describe-error.js';

export interface HomeDeps {
  shell: Shell;
  api: ApiClient;
  /** The organisations of the current user (from `/api/user/current`). */
  organisations: (user: unknown) => SelectorOption[];
}

export async function showHome(deps: HomeDeps): Promise<void> {
  const { shell, api } = deps;
  const page = shell.page;
  shell.setCurrentPage('home');
  shell.setSelectorsVisible(false);
  page.dataset.state = 'loading';
  const status = h('p', { class: 'status', role: 'status', 'aria-live': 'polite' }, 'Loading your fields…');
  page.replaceChildren(h('section', { class: 'home', 'data-testid': 'home' }, h('h1', {}, 'Your fields'), status));

  let orgs: SelectorOption[];
  try {
    orgs = deps.organisations(await api.currentUser());
  } catch (err) {
    status.textContent = describeError(err, 'Your fields could not be loaded');
    status.classList.add('error');
    page.dataset.state = 'error';
    return;
  }
  const credits = await api.credits().catch((): Credits | undefined => undefined);
  const sections = await Promise.all(orgs.map(async (org) => organisationSection(shell, api, org, credits)));
  status.remove();
  const home = page.querySelector('[data-testid=home]')!;
  if (orgs.length === 0) {
    home.append(
      h(
        'p',
        { class: 'muted' },
        'You have no organisation in furrow yet. Your farm software adds it when it shares a field with you.',
      ),
    );
  }
  home.append(
    ...sections,
    h(
      'p',
      { class: 'muted' },
      'Open a field to plan its route, or ',
      h('a', { href: shell.link('/fields/new'), 'data-testid': 'new-field-link' }, 'bring a new field'),
      '. API keys for your own tools are on your ',
      h('a', { href: shell.link('/profile'), 'data-testid': 'profile-link' }, 'profile'),
      '.',
    ),
  );
  page.dataset.state = 'home';
}

async function organisationSection(
  shell: Shell,
  api: ApiClient,
  org: SelectorOption,
  credits: Credits | undefined,
): Promise<HTMLElement> {
  const balance = credits?.companies.find((c) => c.companyId === org.value)?.balance;
  const section = h(
    'section',
    { class: 'panel organisation', 'data-company-id': org.value },
    h('h2', {}, org.label),
    balance !== undefined
      ? h(
          'p',
          { class: 'muted', 'data-testid': 'company-credits' },
          `${balance} credit${balance === 1 ? '' : 's'} for planning`,
        )
      : null,
  );
  let fields: SelectorOption[];
  try {
    fields = await api.fieldsOfCompany(org.value);
  } catch (err) {
    section.append(h('p', { class: 'status error' }, describeError(err, 'The fields could not be loaded')));
    return section;
  }
  if (fields.length === 0) {
    section.append(h('p', { class: 'muted' }, 'No fields with a boundary yet: add them in your farm software.'));
    return section;
  }
  section.append(
    h(
      'ul',
      { class: 'field-list', 'data-testid': 'field-list' },
      ...fields.map((f) =>
        h(
          'li',
          {},
          h(
            'a',
            { href: shell.link(`/path-planning/boundary/${encodeURIComponent(f.value)}`), 'data-boundary-id': f.value },
            f.label,
          ),
        ),
      ),
    ),
  );
  return section;
}

/** Home without a session: what furrow is and how to get in (never a dead end, never JSON). */
export function showSignedOutHome(shell: Shell, expired: boolean): void {
  shell.setMinimal(true);
  const docs = h('a', { href: '/docs', class: 'button secondary' }, 'API reference');
  shell.page.replaceChildren(
    messagePanel(
      expired ? 'Your session has expired' : 'Welcome to furrow',
      'furrow plans the routes your machines drive across a field. You get in from your farm software: ' +
        'choose the route planner there (for example "Plan route" on a field) and it signs you in and opens your ' +
        'field. ' +
        'There is no separate password. Once in, your profile page lets you create API keys for your own tools.',
      [docs],
      'info',
    ),
  );
  shell.page.dataset.state = 'signed-out';
}
