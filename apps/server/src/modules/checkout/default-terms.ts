import { BOLETO_DUE_DAYS } from '@carteirinha/shared/constants';

/**
 * Version 1 of every clinic's contract terms: short and plain, so a patient reads it before accepting. It says what
 * the card is and is NOT (ANS: a discount card is not a health plan), how payment, cancellation (with the CDC art. 49
 * withdrawal) and delinquency work, and what is done with personal data (LGPD). The clinic edits it in
 * /clinica/configurações; each save is a new version, and checkout asks for the newest.
 */
export function defaultTermsBody(clinicName: string, graceDays: number): string {
  return `TERMOS DE ADESÃO AO CARTÃO DE DESCONTOS — ${clinicName}

1. O que é o cartão
O cartão de descontos da ${clinicName} dá ao titular e aos seus dependentes descontos em consultas, exames e procedimentos na rede credenciada da clínica, nos percentuais do plano escolhido. A carência do plano, se houver, é contada a partir do primeiro pagamento.

2. O que o cartão NÃO é
O cartão de descontos não é plano de saúde nem seguro-saúde. Não há cobertura de despesas médicas, reembolso, internação ou atendimento de urgência garantido. Os descontos valem somente na rede credenciada e são pagos pelo próprio paciente no atendimento.

3. Pagamento
A mensalidade (ou anuidade) é cobrada por Pix, boleto (vencimento em ${BOLETO_DUE_DAYS} dias) ou cartão de crédito, na forma escolhida, que pode ser alterada no portal do paciente. A taxa de adesão, quando existir, é cobrada uma única vez, junto com a primeira cobrança.

4. Cancelamento
O titular pode cancelar a qualquer momento, sem multa, pelo portal do paciente (Assinatura › Cancelar assinatura), e recebe por e-mail um comprovante com número de protocolo.
- Direito de arrependimento: nos primeiros 7 dias da contratação (Código de Defesa do Consumidor, art. 49), o titular pode desistir sem multa e a assinatura termina na hora. É devolvido o valor pago, menos os descontos que o titular e seus dependentes já receberam em atendimentos nesse período (atendimentos cancelados não contam); a devolução nunca é menor que zero.
- Depois de 7 dias: nenhuma nova cobrança é feita e os benefícios continuam até o fim do período já pago; então a assinatura termina.

5. Atraso e suspensão
Uma cobrança não paga até o vencimento fica em atraso e o titular é avisado. Depois de ${graceDays} dias de atraso, os descontos ficam suspensos até o pagamento, que reativa o cartão na hora. Uma assinatura não renovada termina no fim do período pago.

6. Dados pessoais (LGPD)
A clínica usa nome, e-mail, CPF, telefone e o histórico de atendimentos somente para prestar o serviço, cobrar as mensalidades e cumprir obrigações legais. Os dados de cartão de crédito vão direto para o meio de pagamento e não são guardados. O titular pode pedir acesso, correção ou exclusão dos seus dados à clínica a qualquer momento.
`;
}
