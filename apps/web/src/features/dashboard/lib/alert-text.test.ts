import { describe, expect, it } from 'vitest';
import { alertText } from './alert-text';

const clinic = { clinicId: '0b7d3c52-5d0c-4a8e-9f0e-2f4a6b1c9d10', clinicName: 'Clínica Vida' };

describe('alertText', () => {
  it('writes one pt-BR line per kind of alert', () => {
    // 15:00 UTC is noon in São Paulo: the same calendar day whatever the machine's zone.
    expect(alertText({ ...clinic, kind: 'trial_ending', date: '2026-03-10T15:00:00.000Z' })).toBe('Trial de Clínica Vida termina em 10/03/2026');
    expect(alertText({ ...clinic, kind: 'trial_ending', date: null })).toBe('Trial de Clínica Vida termina em breve');
    expect(alertText({ ...clinic, kind: 'pending_approval', date: null })).toBe('Clínica Vida aguarda aprovação');
    expect(alertText({ ...clinic, kind: 'suspended', date: null })).toBe('Clínica Vida está suspensa');
    expect(alertText({ ...clinic, kind: 'overdue_payments', date: '2026-03-05T03:00:00.000Z' })).toBe('Clínica Vida tem pagamentos em atraso desde 05/03/2026');
    expect(alertText({ ...clinic, kind: 'overdue_payments', date: null })).toBe('Clínica Vida tem pagamentos em atraso');
    expect(alertText({ ...clinic, kind: 'payment_held', date: '2026-03-05T15:00:00.000Z' })).toBe(
      'Clínica Vida: pagamento recebido com valor menor que a cobrança, retido para conferência desde 05/03/2026',
    );
    expect(alertText({ ...clinic, kind: 'webhook_failed', date: '2026-03-05T15:00:00.000Z' })).toBe('Clínica Vida: evento do provedor de pagamento não processado desde 05/03/2026');
    expect(alertText({ clinicId: null, clinicName: null, kind: 'webhook_failed', date: '2026-03-05T15:00:00.000Z' })).toBe(
      'Evento do provedor de pagamento não processado desde 05/03/2026 (nenhuma clínica identificada)',
    );
  });
});
