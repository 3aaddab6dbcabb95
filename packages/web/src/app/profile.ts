/**
 * `/profile`: the signed-in user, its credit balances, and its API keys (keys are
 * created in the web application's profile and shown once): create (the secret is shown in
 * this page once, never again), list, revoke. Talks to `/api/user/api-keys`, which only ever
 * touches the user's own keys.
 */
import type { ApiClient, ApiKeyInfo, CreatedApiKey } from './api.js';
import { clear, h } from './dom.js';
import { describeError } from './describe-error.js';
import type { Shell } from './shell.js';

export function keyState(k: ApiKeyInfo, nowMs: number): 'active' | 'revoked' | 'expired' {
  if (k.revokedAt !== null) return 'revoked';
  if (k.expiresAt !== null && Date.parse(k.expiresAt) <= nowMs) return 'expired';
  return 'active';
}

function day(iso: string | null): string {
  return iso ? iso.slice(0, 10) : '—';
}

export class ProfilePage {
  private readonly status = h('p', { class: 'status', role: 'status', 'aria-live': 'polite', 'data-testid': 'status' });
  private readonly keyList = h('div', { class: 'key-list', 'data-testid': 'api-keys' });
  private readonly created = h('div', { class: 'new-key', 'data-testid': 'new-key', hidden: true });
  private readonly nameInput = h('input', {
    id: 'key-name',
    name: 'name',
    type: 'text',
    maxlength: 200,
    required: true,
    autocomplete: 'off',
    placeholder: 'e.g. Farm office script',
  });

  constructor(
    private readonly shell: Shell,
    private readonly api: ApiClient,
  ) {}

  async start(): Promise<void> {
    const { shell } = this;
    shell.setCurrentPage('profile');
    shell.setSelectorsVisible(false);
    const page = shell.page;
    page.dataset.state = 'loading';
    const who = h('div', { class: 'who', 'data-testid': 'who' });
    const form = h(
      'form',
      { class: 'create-key', 'data-testid': 'create-key', novalidate: true },
      h('label', { for: 'key-name' }, 'Name of the new key'),
      this.nameInput,
      h('button', { type: 'submit', class: 'button primary', 'data-testid': 'create-key-button' }, 'Create key'),
    );
    form.addEventListener('submit', (e) => {
      e.preventDefault();
      void this.create();
    });
    page.replaceChildren(
      h(
        'section',
        { class: 'profile', 'data-testid': 'profile' },
        h('h1', {}, 'Profile'),
        who,
        h(
          'section',
          { class: 'panel' },
          h('h2', {}, 'API keys'),
          h(
            'p',
            { class: 'muted' },
            'A key lets your own tools call the furrow API as you (header X-API-KEY), on the organisations you can ' +
              'open here. ' +
              'It is shown once, when you create it; furrow keeps only a fingerprint of it. Revoke a key you no ' +
              'longer use.',
          ),
          form,
          this.created,
          this.keyList,
        ),
        this.status,
      ),
    );
    const [user, credits] = await Promise.all([
      this.api.currentUser().catch(() => undefined),
      this.api.credits().catch(() => undefined),
    ]);
    const u = ((user as Record<string, unknown> | undefined)?.['user'] ?? {}) as Record<string, unknown>;
    const name = typeof u['name'] === 'string' ? u['name'] : undefined;
    const email = typeof u['email'] === 'string' ? u['email'] : undefined;
    who.append(h('p', {}, name ?? 'Signed in', email ? ` · ${email}` : ''));
    if (credits)
      who.append(
        h('p', { class: 'muted', 'data-testid': 'user-credits' }, `Your own credits: ${credits.user.balance}`),
      );
    await this.refresh();
    page.dataset.state = 'profile';
  }

  private setStatus(text: string, error = false): void {
    this.status.textContent = text;
    this.status.classList.toggle('error', error);
  }

  private async refresh(): Promise<void> {
    let keys: ApiKeyInfo[];
    try {
      keys = await this.api.myApiKeys();
    } catch (err) {
      this.setStatus(describeError(err, 'Your API keys could not be loaded'), true);
      return;
    }
    clear(this.keyList);
    if (keys.length === 0) {
      this.keyList.append(h('p', { class: 'muted' }, 'You have no API keys yet.'));
      return;
    }
    const now = Date.now();
    const rows = keys.map((k) => {
      const state = keyState(k, now);
      const revoke = h('button', { type: 'button', class: 'button secondary', 'data-testid': 'revoke-key' }, 'Revoke');
      revoke.addEventListener('click', () => void this.revoke(k, revoke));
      return h(
        'tr',
        { 'data-key-id': k.keyId, 'data-state': state },
        h('td', {}, k.name),
        h('td', {}, h('code', {}, k.keyId)),
        h('td', {}, day(k.createdAt)),
        h(
          'td',
          { class: 'key-state' },
          state === 'active'
            ? k.expiresAt
              ? `active until ${day(k.expiresAt)}`
              : 'active'
            : `${state} ${day(k.revokedAt ?? k.expiresAt)}`,
        ),
        h('td', {}, state === 'active' ? revoke : null),
      );
    });
    this.keyList.append(
      h(
        'table',
        { class: 'keys-table' },
        h(
          'thead',
          {},
          h('tr', {}, ...['Name', 'Key id', 'Created', 'State', ''].map((t) => h('th', { scope: 'col' }, t))),
        ),
        h('tbody', {}, ...rows),
      ),
    );
  }

  private async create(): Promise<void> {
    const name = this.nameInput.value.trim();
    if (name === '') {
      this.nameInput.setAttribute('aria-invalid', 'true');
      this.nameInput.focus();
      this.setStatus('Give the key a name, so you know later what uses it.', true);
      return;
    }
    this.nameInput.removeAttribute('aria-invalid');
    let made: CreatedApiKey;
    try {
      made = await this.api.createMyApiKey(name);
    } catch (err) {
      this.setStatus(describeError(err, 'The key could not be created'), true);
      return;
    }
    this.nameInput.value = '';
    this.showOnce(made);
    this.setStatus(`Key "${made.name}" created.`);
    await this.refresh();
  }

  /** The secret, this once: a read-only field to copy from, and "Done" forgets it. */
  private showOnce(made: CreatedApiKey): void {
    const value = h('input', {
      type: 'text',
      readonly: true,
      class: 'secret',
      'data-testid': 'new-api-key',
      'aria-label': 'Your new API key',
      value: made.apiKey,
    });
    const copy = h('button', { type: 'button', class: 'button secondary' }, 'Copy');
    copy.addEventListener('click', () => {
      value.select();
      navigator.clipboard?.writeText(made.apiKey).then(
        () => this.setStatus('Copied.'),
        () => this.setStatus('Select the key and copy it (Ctrl+C).'),
      );
    });
    const done = h(
      'button',
      { type: 'button', class: 'button primary', 'data-testid': 'new-key-done' },
      'Done, I stored it',
    );
    done.addEventListener('click', () => {
      clear(this.created);
      this.created.hidden = true;
      this.nameInput.focus();
    });
    clear(this.created);
    this.created.append(
      h('h3', {}, `Your new key "${made.name}"`),
      h(
        'p',
        { class: 'warning' },
        'Copy it now and keep it safe: this is the only time it is shown. If you lose it, revoke it and create ' +
          'another.',
      ),
      h('div', { class: 'secret-row' }, value, copy),
      done,
    );
    this.created.hidden = false;
    value.focus();
    value.select();
  }

  private async revoke(k: ApiKeyInfo, button: HTMLButtonElement): Promise<void> {
    // Two steps: the first click asks, the second revokes (a revoked key cannot come back).
    if (button.dataset.confirm !== 'true') {
      button.dataset.confirm = 'true';
      button.textContent = 'Really revoke?';
      return;
    }
    button.disabled = true;
    try {
      await this.api.revokeMyApiKey(k.keyId);
      this.setStatus(`Key "${k.name}" revoked: it no longer works.`);
    } catch (err) {
      this.setStatus(describeError(err, 'The key could not be revoked'), true);
    }
    await this.refresh();
  }
}
