import { formatMessage, messages } from '@carteirinha/shared/messages';
import { toast as sonnerToast } from 'sonner';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { ApiError } from './api';
import { savePlan } from './save-plan';
import { toast, toasterReady } from './toasts';

type Values = { name: string };

function titles(): unknown[] {
  return toast.getToasts().map((shown) => ('title' in shown ? shown.title : null));
}

function recorder() {
  const calls: string[] = [];
  return {
    calls,
    create: async (values: Values) => void calls.push(`create ${values.name}`),
    update: async (input: { id: string; data: Values }) => void calls.push(`update ${input.id} ${input.data.name}`),
    onSaved: () => void calls.push('saved'),
  };
}

// As the app's toaster does once it listens.
beforeAll(() => toasterReady(sonnerToast));

afterEach(() => {
  toast.dismiss();
  vi.restoreAllMocks();
});

describe('savePlan', () => {
  it('creates a new plan, says so and closes', async () => {
    const r = recorder();
    await savePlan({ name: 'Básico' }, { planId: null, ...r });
    expect(r.calls).toEqual(['create Básico', 'saved']);
    expect(titles()).toContain(messages.admin.planCreated);
  });

  it('updates the plan being edited, says so and closes', async () => {
    const r = recorder();
    await savePlan({ name: 'Família' }, { planId: 'plan-1', ...r });
    expect(r.calls).toEqual(['update plan-1 Família', 'saved']);
    expect(titles()).toContain(messages.admin.planUpdated);
  });

  it("keeps the dialog open on a failed save, logs it and shows the server's message", async () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    const r = recorder();
    const failure = new ApiError(409, 'CONFLICT', 'Já existe um plano com esse nome.');
    await savePlan({ name: 'Família' }, { ...r, planId: 'plan-1', update: () => Promise.reject(failure) });
    expect(r.calls).toEqual([]);
    expect(warn).toHaveBeenCalledWith('Falha ao salvar o plano', failure);
    expect(titles()).toContain(formatMessage(messages.admin.planUpdateError, { message: failure.message }));
  });
});
