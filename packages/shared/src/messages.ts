/**
 * Every word a user reads, in pt-BR, exactly as the specification gives it. Server and web import from here so
 * a message is written once.
 */
export const messages = {
  validation: {
    title: 'Erro de validação',
    invalidEmail: 'Email inválido',
    passwordMin: 'Senha deve ter no mínimo 6 caracteres',
    passwordMax: 'Senha deve ter no máximo 128 caracteres',
    fullNameMin: 'Nome deve ter no mínimo 3 caracteres',
    required: 'Campo obrigatório',
    invalidUuid: 'Identificador inválido',
    invalidRequest: 'Requisição inválida',
  },
  auth: {
    signInErrorTitle: 'Erro ao entrar',
    invalidCredentials: 'Email ou senha incorretos',
    signUpErrorTitle: 'Erro ao cadastrar',
    emailTaken: 'Este email já está cadastrado',
    signInSuccessTitle: 'Login realizado!',
    signUpSuccessTitle: 'Cadastro realizado!',
    redirecting: 'Redirecionando...',
    signingIn: 'Entrando...',
    signingUp: 'Cadastrando...',
    resetting: 'Redefinindo...',
    tooManyAttempts: 'Muitas tentativas. Aguarde alguns minutos e tente novamente.',
    resetRequestedTitle: 'Verifique seu email',
    resetRequested: 'Se houver uma conta com este email, enviaremos um link para redefinir a senha.',
    resetDoneTitle: 'Senha redefinida!',
    resetDone: 'Entre com a nova senha.',
    resetInvalidToken: 'Link inválido ou expirado. Peça um novo link.',
    passwordsDiffer: 'As senhas não coincidem',
    noRoleTitle: 'Conta sem acesso',
    noRole: 'Sua conta ainda não tem acesso a nenhum portal. Fale com a sua clínica ou com o suporte.',
    emailVerifiedTitle: 'Email confirmado!',
    resetRequestErrorTitle: 'Erro ao enviar link',
    resetErrorTitle: 'Erro ao redefinir senha',
    signOutErrorTitle: 'Erro ao sair',
  },
  common: {
    loading: 'Carregando...',
    sending: 'Enviando...',
    noData: 'Ainda não há dados para exibir.',
    notAvailableYet: 'Esta área ainda não está disponível.',
    networkError: 'Não foi possível conectar ao servidor. Verifique sua conexão e tente novamente.',
  },
  sidebar: {
    toggle: 'Alternar menu lateral',
    navigation: 'Menu lateral',
    signOut: 'Sair',
  },
  patient: {
    greeting: 'Olá, {name}!',
    greetingNoName: 'Olá!',
  },
  empty: {
    clinics: 'Nenhuma clínica encontrada',
    users: 'Nenhum usuário encontrado',
  },
  errors: {
    UNAUTHENTICATED: 'Você precisa estar logado para continuar',
    FORBIDDEN: 'Você não tem permissão para fazer isso',
    NOT_FOUND: 'Registro não encontrado',
    ROUTE_NOT_FOUND: 'Recurso não encontrado',
    VALIDATION: 'Dados inválidos',
    RATE_LIMITED: 'Muitas tentativas. Aguarde alguns minutos e tente novamente.',
    PAYLOAD_TOO_LARGE: 'O conteúdo enviado é grande demais',
    CONFLICT: 'Este registro já existe',
    INTERNAL: 'Erro interno. Tente novamente em instantes.',
    SERVICE_UNAVAILABLE: 'Serviço temporariamente indisponível. Tente novamente em instantes.',
  },
  email: {
    verifySubject: 'Confirme seu email',
    verifyIntro: 'Olá, {name}! Confirme seu email para ativar sua conta.',
    verifyAction: 'Confirmar email',
    resetSubject: 'Redefinição de senha',
    resetIntro: 'Olá, {name}! Recebemos um pedido para redefinir a sua senha.',
    resetAction: 'Redefinir senha',
    ignore: 'Se você não fez este pedido, ignore este email.',
  },
} as const;

/** Replaces `{name}`-style placeholders in a catalogue message. */
export function formatMessage(template: string, values: Record<string, string | number>): string {
  return template.replace(/\{(\w+)\}/g, (whole, key: string) => {
    const value = values[key];
    return value === undefined ? whole : String(value);
  });
}
