/**
 * What keeps a farm's work and money safe in the plan view: the credit balance with what a
 * re-plan costs, the unsaved plan kept for the tab (a reload shows it again instead of paying
 * for a new one), and the field's plan history with a side-by-side comparison of two plans.
 */
import type { ApiClient, Credits } from './api.js';
import { clear, h } from './dom.js';
import { METRIC_ROWS, compareMetrics } from './metrics.js';

/** The balance that pays for plans of a boundary: its company's when the user sees it, else the user's own. */
export function payingBalance(credits: Credits, companyId: string | undefined): { balance: number; whose: string } {
  const company = companyId ? credits.companies.find((c) => c.companyId === companyId) : undefined;
  return company
    ? { balance: company.balance, whose: 'organisation' }
    : { balance: credits.user.balance, whose: 'your account' };
}

const plural = (n: number, word: string): string => `${n} ${word}${n === 1 ? '' : 's'}`;

/** The credit line above the Re-plan button: balance and cost. */
export class CreditLine {
  readonly element = h('p', { class: 'credits muted', 'data-testid': 'credit-line' });

  constructor(private readonly api: ApiClient) {}

  async refresh(companyId: string | undefined): Promise<void> {
    try {
      const credits = await this.api.credits();
      const { balance, whose } = payingBalance(credits, companyId);
      const cost = credits.planCostCredits ?? 1;
      clear(this.element);
      this.element.append(
        'Balance: ',
        h('strong', { 'data-testid': 'credit-balance', 'data-balance': balance }, plural(balance, 'credit')),
        ` (${whose}). A re-plan costs `,
        h('strong', { 'data-testid': 'plan-cost' }, plural(cost, 'credit')),
        '.',
      );
    } catch {
      this.element.textContent = '';
    }
  }
}

export { UnsavedPlanStore, type UnsavedPlan } from './unsaved.js';

/** The field's saved plans, two of which can be compared side by side. */
export class PlanHistory {
  readonly element: HTMLElement;
  private readonly list = h('ul', { class: 'history-list', 'data-testid': 'history' });
  private readonly comparison = h('div', { class: 'comparison', 'data-testid': 'comparison' });
  private readonly compareButton: HTMLButtonElement;

  constructor(
    private readonly api: ApiClient,
    private readonly onOpen: (planId: string) => void,
  ) {
    this.compareButton = h(
      'button',
      { type: 'button', class: 'button secondary', 'data-testid': 'compare', disabled: true },
      'Compare the two',
    );
    this.compareButton.addEventListener('click', () => void this.compare());
    this.element = h(
      'section',
      { class: 'panel', 'aria-label': 'Plan history' },
      h('h2', {}, 'Plan history'),
      h('p', { class: 'muted' }, 'Saved plans of this field. Tick two to compare them.'),
      this.list,
      this.compareButton,
      this.comparison,
    );
  }

  async refresh(fieldId: string | undefined, boundaryId: string): Promise<void> {
    clear(this.list);
    clear(this.comparison);
    if (!fieldId) return;
    let plans: { planId: string; createdAt: string; boundaryId?: string }[];
    try {
      plans = (await this.api.plansOfField(fieldId)).filter((p) => !p.boundaryId || p.boundaryId === boundaryId);
    } catch {
      return;
    }
    if (plans.length === 0) this.list.append(h('li', { class: 'muted' }, 'No saved plan yet.'));
    plans.reverse().forEach((p, i) => {
      const label = `Plan ${plans.length - i}, ${formatWhen(p.createdAt)}`;
      const box = h('input', { type: 'checkbox', id: `hist-${p.planId}`, value: p.planId, 'data-plan-id': p.planId });
      box.addEventListener('change', () => this.updateButton());
      const open = h('button', { type: 'button', class: 'button link' }, 'Open');
      open.addEventListener('click', () => this.onOpen(p.planId));
      this.list.append(h('li', {}, h('label', { for: `hist-${p.planId}` }, box, ` ${label} `), open));
    });
    this.updateButton();
  }

  private selected(): string[] {
    return Array.from(this.list.querySelectorAll<HTMLInputElement>('input[type=checkbox]:checked')).map((b) => b.value);
  }

  private updateButton(): void {
    this.compareButton.disabled = this.selected().length !== 2;
  }

  private async compare(): Promise<void> {
    const [a, b] = this.selected();
    if (!a || !b) return;
    clear(this.comparison);
    const label = (id: string) => this.list.querySelector(`label[for="hist-${id}"]`)?.textContent?.trim() ?? id;
    try {
      const [pa, pb] = await Promise.all([this.api.storedPlan(a), this.api.storedPlan(b)]);
      this.comparison.append(comparisonTable(label(a), pa.metrics, label(b), pb.metrics));
    } catch {
      this.comparison.append(h('p', { class: 'status error' }, 'The plans could not be loaded for comparison.'));
    }
  }
}

function formatWhen(iso: string): string {
  const d = new Date(iso);
  return Number.isNaN(d.getTime()) ? iso : d.toISOString().slice(0, 16).replace('T', ' ');
}

/** Two plans' metrics side by side, with how the second differs from the first. */
export function comparisonTable(
  labelA: string,
  a: Record<string, unknown>,
  labelB: string,
  b: Record<string, unknown>,
): HTMLTableElement {
  const changes = new Map(compareMetrics(a, b).map((c) => [c.key, c]));
  const body = h('tbody');
  for (const row of METRIC_ROWS) {
    const va = a[row.key];
    const vb = b[row.key];
    if (typeof va !== 'number' && typeof vb !== 'number') continue;
    const change = changes.get(row.key);
    body.append(
      h(
        'tr',
        { 'data-metric': row.key },
        h('th', { scope: 'row' }, row.label),
        h('td', {}, typeof va === 'number' ? row.format(va, a) : '–'),
        h('td', {}, typeof vb === 'number' ? row.format(vb, b) : '–'),
        h('td', { class: `change ${change?.verdict ?? ''}` }, change?.text ?? ''),
      ),
    );
  }
  return h(
    'table',
    { class: 'metrics-table comparison-table' },
    h('caption', {}, 'Side by side'),
    h(
      'thead',
      {},
      h(
        'tr',
        {},
        h('th', { scope: 'col' }, 'KPI'),
        h('th', { scope: 'col' }, labelA),
        h('th', { scope: 'col' }, labelB),
        h('th', { scope: 'col' }, 'Change'),
      ),
    ),
    body,
  );
}
