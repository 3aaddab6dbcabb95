/**
 * Machine profiles: a named machine (width, turn radius, reverse, speeds, sections, tank) picked
 * from a list instead of typed each time. Kept per organisation on the server
 * (`/api/companies/{companyId}/machine-profiles`), so they follow the farm to every device and user;
 * a profile holds the path-plan request's `machine` (speeds in m/s), the form shows km/h.
 */
import type { ApiClient, StoredMachineProfile } from './api.js';
import { ApiError } from './api.js';
import { h } from './dom.js';
import type { PlanParameters } from './params.js';
import { SPEED_FIELDS, machineOf, parametersFromRequest } from './params.js';

/** The parameters a machine profile holds. */
export const MACHINE_KEYS = [
  'widthMeters',
  'turnRadiusMeters',
  'reverseAllowed',
  ...SPEED_FIELDS.map((f) => f.name),
  'sections',
  'tankCapacity',
] as const;

export type MachineProfile = { name: string } & Partial<Pick<PlanParameters, (typeof MACHINE_KEYS)[number]>>;

export function profileFromParameters(name: string, p: PlanParameters): MachineProfile {
  const out: MachineProfile = { name };
  for (const k of MACHINE_KEYS) if (p[k] !== undefined) (out as Record<string, unknown>)[k] = p[k];
  return out;
}

/** The request's `machine` a profile is stored as (only the machine settings; no application rate). */
export function machineOfProfile(m: MachineProfile): Record<string, number | boolean> {
  return machineOf({ ...(m as unknown as PlanParameters), applicationRatePerHectare: undefined });
}

/** A profile from the machine the server keeps. */
export function profileFromStored(s: StoredMachineProfile): MachineProfile {
  return profileFromParameters(s.name, parametersFromRequest({ machine: s.machine }));
}

/** The parameters with the profile's machine settings (the rest kept; optional settings it lacks cleared). */
export function applyProfile(p: PlanParameters, m: MachineProfile): PlanParameters {
  const out: Record<string, unknown> = { ...p };
  for (const k of MACHINE_KEYS) {
    if (m[k] !== undefined) out[k] = m[k];
    else if (k !== 'widthMeters' && k !== 'turnRadiusMeters' && k !== 'reverseAllowed') delete out[k];
  }
  return out as unknown as PlanParameters;
}

/** The "Machine" list and "Save as a machine" control of the planning form. */
export class MachinePicker {
  readonly element: HTMLElement;
  private readonly select: HTMLSelectElement;
  private readonly nameInput: HTMLInputElement;
  private companyId = '';
  private stored: StoredMachineProfile[] = [];

  constructor(
    private readonly api: ApiClient,
    private readonly current: () => PlanParameters | undefined,
    private readonly onPick: (m: MachineProfile) => void,
    private readonly say: (text: string, error?: boolean) => void,
  ) {
    this.select = h('select', { id: 'machine-select', 'data-testid': 'machine-select' });
    this.select.addEventListener('change', () => {
      const m = this.stored.find((x) => x.name === this.select.value);
      if (m) this.onPick(profileFromStored(m));
    });
    this.nameInput = h('input', { id: 'machine-name', maxlength: 80, 'data-testid': 'machine-name' });
    const save = h('button', { type: 'button', class: 'button secondary', 'data-testid': 'machine-save' }, 'Save');
    save.addEventListener('click', () => void this.saveCurrent());
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

  /** Loads the organisation's profiles (the list says so while it loads). */
  async setCompany(companyId: string | undefined): Promise<void> {
    this.companyId = companyId ?? '';
    this.stored = [];
    this.render();
    if (!this.companyId) return;
    try {
      this.stored = await this.api.machineProfiles(this.companyId);
    } catch {
      this.stored = []; // the form still works without the list
    }
    this.render();
    this.element.dataset.loaded = 'true';
  }

  private render(selected = ''): void {
    this.select.replaceChildren(
      h('option', { value: '' }, this.stored.length === 0 ? 'No saved machine yet' : 'Choose a machine…'),
      ...this.stored.map((m) => h('option', { value: m.name, selected: m.name === selected }, m.name)),
    );
  }

  private async saveCurrent(): Promise<void> {
    const name = this.nameInput.value.trim();
    const p = this.current();
    if (name === '') return this.say('Name the machine first.', true);
    if (!p) return this.say('Check the highlighted parameters first.', true);
    if (!this.companyId) return this.say('This field belongs to no organisation to keep machines for.', true);
    const existing = this.stored.find((m) => m.name === name);
    try {
      const saved = await this.api.saveMachineProfile(
        this.companyId,
        { name, machine: machineOfProfile(profileFromParameters(name, p)) },
        existing?.profileId,
      );
      this.stored = [...this.stored.filter((m) => m.profileId !== saved.profileId), saved].sort((a, b) =>
        a.name.localeCompare(b.name),
      );
    } catch (err) {
      const why = err instanceof ApiError ? err.message : 'the server could not be reached';
      return this.say(`The machine could not be saved: ${why}.`, true);
    }
    this.render(name);
    this.nameInput.value = '';
    this.say(`Machine "${name}" saved for this organisation.`);
  }
}
