/**
 * The app's frame: side navigation, organisation and field selectors, partner theme, and the
 * embedding rules (URL flags and `embedded-mode` messages from allowed parent origins).
 */
import { clear, h } from './dom.js';
import type { ChromeVisibility, EmbeddingState, PartnerTheme } from './embedding.js';
import {
  applyEmbeddedModeMessage,
  embeddingFromUrl,
  embeddingQuery,
  isOriginAllowed,
  parseEmbeddedModeMessage,
  resolveVisibility,
} from './embedding.js';

/** The app's pages in the side navigation. */
export type NavId = 'home' | 'plan' | 'new-field' | 'profile';

export interface SelectorOption {
  value: string;
  label: string;
}

export class Shell {
  readonly root: HTMLElement;
  readonly page: HTMLElement;
  private readonly sideNav: HTMLElement;
  private readonly orgSelector: HTMLElement;
  private readonly fieldSelector: HTMLElement;
  private readonly orgSelect: HTMLSelectElement;
  private readonly fieldSelect: HTMLSelectElement;
  private readonly partnerName: HTMLElement;
  private state: EmbeddingState;
  private theme?: PartnerTheme;
  private allowedOrigins: string[] = [];
  /** Pages without a session (launch, messages) show no navigation and no selectors. */
  private minimal = false;
  /** The organisation and field selectors belong to the plan view; other pages hide them. */
  private selectors = true;
  /** Embedding flags of the page's URL, carried onto the app's own links. */
  private readonly linkQuery: string;
  /** Called when a field is chosen in the field selector (value = boundaryId). */
  onFieldSelected?: (boundaryId: string) => void;
  onOrgSelected?: (companyId: string) => void;
  onSignOut?: () => void;

  constructor(mount: HTMLElement, search: string) {
    this.state = embeddingFromUrl(search);
    this.linkQuery = embeddingQuery(search);
    this.orgSelect = h('select', { id: 'org-select', name: 'organisation' });
    this.fieldSelect = h('select', { id: 'field-select', name: 'field' });
    this.orgSelect.addEventListener('change', () => this.onOrgSelected?.(this.orgSelect.value));
    this.fieldSelect.addEventListener('change', () => this.onFieldSelected?.(this.fieldSelect.value));
    this.sideNav = h(
      'nav',
      { class: 'side-nav', 'aria-label': 'Main navigation', 'data-testid': 'side-nav' },
      h('div', { class: 'brand' }, h('span', { class: 'brand-mark', 'aria-hidden': 'true' }, '≋'), 'furrow'),
      h(
        'ul',
        {},
        h('li', {}, h('a', { href: this.link('/'), 'data-nav': 'home' }, 'Your fields')),
        h('li', { hidden: true }, h('a', { href: '#page', 'data-nav': 'plan' }, 'Path planning')),
        h('li', {}, h('a', { href: this.link('/fields/new'), 'data-nav': 'new-field' }, 'Bring a field')),
        h('li', {}, h('a', { href: this.link('/profile'), 'data-nav': 'profile' }, 'Profile and API keys')),
        h('li', {}, h('a', { href: '/docs' }, 'API reference')),
      ),
      h('button', { type: 'button', class: 'link-button sign-out', onclick: () => this.onSignOut?.() }, 'Sign out'),
    );
    this.orgSelector = h(
      'div',
      { class: 'selector org-selector', 'data-testid': 'org-selector' },
      h('label', { for: 'org-select' }, 'Organisation'),
      this.orgSelect,
    );
    this.fieldSelector = h(
      'div',
      { class: 'selector field-selector', 'data-testid': 'field-selector' },
      h('label', { for: 'field-select' }, 'Field'),
      this.fieldSelect,
    );
    this.partnerName = h('span', { class: 'partner-name', 'data-testid': 'partner-name' });
    this.page = h('main', { id: 'page', class: 'page', tabindex: -1 });
    this.root = h(
      'div',
      { class: 'app' },
      h('a', { href: '#page', class: 'skip-link' }, 'Skip to content'),
      this.sideNav,
      h(
        'div',
        { class: 'main-col' },
        h('header', { class: 'top-bar' }, this.orgSelector, this.fieldSelector, this.partnerName),
        this.page,
      ),
    );
    clear(mount);
    mount.append(this.root);
    this.render();
  }

  get embedding(): EmbeddingState {
    return { ...this.state };
  }

  get visibility(): ChromeVisibility {
    return resolveVisibility(this.state);
  }

  /** A path of the app with the page's embedding flags (so an iframe keeps its mode). */
  link(path: string): string {
    return `${path}${this.linkQuery}`;
  }

  /** Marks the current page in the side navigation. */
  setCurrentPage(id: NavId): void {
    for (const a of Array.from(this.sideNav.querySelectorAll<HTMLAnchorElement>('a[data-nav]'))) {
      const current = a.dataset.nav === id;
      if (current) a.setAttribute('aria-current', 'page');
      else a.removeAttribute('aria-current');
      if (a.dataset.nav === 'plan') a.parentElement!.hidden = !current;
    }
  }

  setSelectorsVisible(visible: boolean): void {
    this.selectors = visible;
    this.render();
  }

  setMinimal(minimal: boolean): void {
    this.minimal = minimal;
    this.render();
  }

  setTheme(theme: PartnerTheme | undefined): void {
    this.theme = theme;
    this.render();
  }

  setAllowedOrigins(origins: string[]): void {
    this.allowedOrigins = [...origins];
  }

  setOrganisations(options: SelectorOption[], selected?: string): void {
    fillSelect(this.orgSelect, options, selected, 'No organisation');
  }

  setFields(options: SelectorOption[], selected?: string): void {
    fillSelect(this.fieldSelect, options, selected, 'No fields');
  }

  /** Listens for `embedded-mode` messages from the parent window; other origins are ignored. */
  listenForEmbeddingMessages(win: Window): void {
    win.addEventListener('message', (e: MessageEvent) => {
      const msg = parseEmbeddedModeMessage(e.data);
      if (!msg) return;
      if (!isOriginAllowed(e.origin, this.allowedOrigins, win.location.origin)) {
        // Visible to the partner's developers, harmless for users; never acted upon.
        console.info(`furrow: ignored an embedded-mode message from ${e.origin} (not an allowed origin)`);
        this.root.dataset.ignoredMessages = String(Number(this.root.dataset.ignoredMessages ?? '0') + 1);
        return;
      }
      this.state = applyEmbeddedModeMessage(this.state, msg);
      this.root.dataset.appliedMessages = String(Number(this.root.dataset.appliedMessages ?? '0') + 1);
      this.render();
    });
  }

  private render(): void {
    const v = resolveVisibility(this.state);
    if (this.minimal) v.sideNav = false;
    if (this.minimal || !this.selectors) {
      v.orgSelector = false;
      v.fieldSelector = false;
    }
    this.sideNav.hidden = !v.sideNav;
    this.orgSelector.hidden = !v.orgSelector;
    this.fieldSelector.hidden = !v.fieldSelector;
    this.root.classList.toggle('embedded', this.state.embedded);
    this.root.classList.toggle('no-side-nav', !v.sideNav);
    const topBarEmpty = !v.orgSelector && !v.fieldSelector;
    this.root.classList.toggle('no-top-bar', topBarEmpty);
    const docEl = document.documentElement;
    const vars: [string, keyof PartnerTheme][] = [
      ['--primary', 'primaryColor'],
      ['--accent', 'accentColor'],
      ['--bg', 'backgroundColor'],
      ['--text', 'textColor'],
    ];
    for (const [cssVar, key] of vars) {
      const value = v.partnerTheme ? this.theme?.[key] : undefined;
      if (value) docEl.style.setProperty(cssVar, value);
      else docEl.style.removeProperty(cssVar);
    }
    docEl.dataset.theme = v.partnerTheme && this.theme ? 'partner' : 'furrow';
    // Inside the partner's product its name is on screen already; show it only with the selectors.
    this.partnerName.textContent = v.partnerTheme && this.theme?.name ? this.theme.name : '';
    this.root.classList.toggle('minimal', this.minimal);
    this.root.dataset.embedded = String(this.state.embedded);
    this.root.dataset.chrome = String(this.state.chrome);
  }
}

function fillSelect(
  select: HTMLSelectElement,
  options: SelectorOption[],
  selected: string | undefined,
  empty: string,
): void {
  clear(select);
  if (options.length === 0) select.append(h('option', { value: '' }, empty));
  for (const o of options) select.append(h('option', { value: o.value, selected: o.value === selected }, o.label));
  select.disabled = options.length <= 1;
}

/** A full-page message with a way back (used for launch failures and missing sessions). */
export function messagePanel(
  title: string,
  body: string,
  actions: HTMLElement[],
  kind: 'error' | 'info' = 'error',
): HTMLElement {
  return h(
    'section',
    { class: `message-panel ${kind}`, role: kind === 'error' ? 'alert' : 'status', 'data-testid': 'message-panel' },
    h('h1', {}, title),
    h('p', {}, body),
    h('div', { class: 'actions' }, ...actions),
  );
}

/** "Back" that returns to where the user came from (the partner's product), or closes a popup. */
export function backButton(label = 'Go back'): HTMLElement {
  return h(
    'button',
    {
      type: 'button',
      class: 'button secondary',
      'data-testid': 'go-back',
      onclick: () => {
        if (history.length > 1) history.back();
        else if (window.opener) window.close();
        else if (document.referrer) location.href = document.referrer;
      },
    },
    label,
  );
}
