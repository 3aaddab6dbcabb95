/**
 * Machine profiles: a named set of machine settings (width, turn radius, reverse, speeds, tank)
 * picked from a list instead of typed each time. Kept per organisation in this browser
 * (`localStorage`, key `furrow.machines.<companyId>`): the land API has no place for them yet.
 */
import { h } from './dom.js';
import type { PlanParameters } from './params.js';
import { SPEED_FIELDS } from './params.js';

/** The parameters a machine profile holds. */
export const MACHINE_KEYS = [
  'widthMeters',
  'turnRadiusMeters',
  'reverseAllowed',
  ...SPEED_FIELDS.map((f) => f.name),
  'tankCapacity',
] as const;

export type MachineProfile = { name: string } & Partial<Pick<PlanParameters, (typeof MACHINE_KEYS)[number]>>;

export function profileFromParameters(name: string, p: PlanParameters): MachineProfile {
  const out: MachineProfile = { name };
  for (const k of MACHINE_KEYS) if (p[k] !== undefined) (out as Record<string, unknown>)[k] = p[k];
  return out;
}

/** The parameters with the profile's machine settings (the rest kept; speeds the profile lacks cleared). */
export function applyProfile(p: PlanParameters, m: MachineProfile): PlanParameters {
  const out: Record<string, unknown> = { ...p };
  for (const k of MACHINE_KEYS) {
    if (m[k] !== undefined) out[k] = m[k];
    else if (k !== 'widthMeters' && k !== 'turnRadiusMeters' && k !== 'reverseAllowed') delete out[k];
  }
  return out as unknown as PlanParameters;
}

export class MachineProfileStore {
  constructor(private readonly storage: Storage | undefined) {}

  private key(companyId: string): string {
    return `furrow.machines.${companyId}`;
  }

  list(companyId: string): MachineProfile[] {
    try {
      const v = JSON.parse(this.storage?.getItem(this.key(companyId)) ?? '[]') as unknown;
      return Array.isArray(v) ? v.filter((x): x is MachineProfile => typeof x?.name === 'string') : [];
    } catch {
      return [];
    }
  }

  /** Saves (or replaces, by name) a profile; returns the list. */
  save(companyId: string, profile: MachineProfile): MachineProfile[] {
    const list = this.list(companyId).filter((m) => m.name !== profile.name);
    list.push(profile);
    list.sort((a, b) => a.name.localeCompare(b.name));
    try {
      this.storage?.setItem(this.key(companyId), JSON.stringify(list));
    } catch {
      // storage full or blocked: the profile lives until the page closes
    }
    return list;
  }
}

/** The "Machine" list and "Save as a machine" control of the planning form. */
export class MachinePicker {
  readonly element: HTMLElement;
  private readonly select: HTMLSelectElement;
  private readonly nameInput: HTMLInputElement;
  private companyId = '';

  constructor(
    private readonly store: MachineProfileStore,
    private readonly current: () => PlanParameters | undefined,
    private readonly onPick: (m: MachineProfile) => void,
    private readonly say: (text: string, error?: boolean) => void,
  ) {
    this.select = h('select', { id: 'machine-select', 'data-testid': 'machine-select' });
    this.select.addEventListener('change', () => {
      const m = this.store.list(this.companyId).find((x) => x.name === this.select.value);
      if (m) this.onPick(m);
    });
    this.nameInput = h('input', { id: 'machine-name', maxlength: 80, 'data-testid': 'machine-name' });
    const save = h('button', { type: 'button', class: 'button secondary', 'data-testid': 'machine-save' }, 'Save');
    save.addEventListener('click', () => this.saveCurrent());
    this.element = h(
      'div',
      { class: 'machines' },
      h('div', { class: 'form-row' }, h('label', { for: 'machine-select' }, 'Machine'), this.select),
      h(
        'div',
        { class: 'form-row' },
        h('label', { for: 'machine-name' }, 'Save these settings as a machine named'),
        this.nameInput,
        save,
      ),
    );
    this.render();
  }

  setCompany(companyId: string | undefined): void {
    this.companyId = companyId ?? '';
    this.render();
  }

  private render(selected = ''): void {
    const list = this.store.list(this.companyId);
    this.select.replaceChildren(
      h('option', { value: '' }, list.length === 0 ? 'No saved machine yet' : 'Choose a machine…'),
      ...list.map((m) => h('option', { value: m.name, selected: m.name === selected }, m.name)),
    );
  }

  private saveCurrent(): void {
    const name = this.nameInput.value.trim();
    const p = this.current();
    if (name === '') return this.say('Name the machine first.', true);
    if (!p) return this.say('Check the highlighted parameters first.', true);
    this.store.save(this.companyId, profileFromParameters(name, p));
    this.render(name);
    this.nameInput.value = '';
    this.say(`Machine "${name}" saved for this organisation.`);
  }
}
