/**
 * The words the generated data is made of: Brazilian first names and surnames (the most common in the IBGE's 2010
 * census), the shapes of clinic names, a clinic's price list, and where clinics are (state capitals and large cities
 * with their coordinates). Lists, not rules: the generator combines them.
 */
import type { ServiceCategory } from '@carteirinha/shared/contracts/services';
import type { SubscriptionStatus } from '@carteirinha/shared/contracts/subscriptions';

export const FEMALE_NAMES = [
  'Maria', 'Ana', 'Francisca', 'Antônia', 'Adriana', 'Juliana', 'Márcia', 'Fernanda', 'Patrícia', 'Aline', 'Sandra',
  'Camila', 'Amanda', 'Bruna', 'Jéssica', 'Letícia', 'Júlia', 'Luciana', 'Vanessa', 'Mariana', 'Gabriela', 'Vera',
  'Vitória', 'Larissa', 'Cláudia', 'Beatriz', 'Luana', 'Rita', 'Sônia', 'Renata', 'Eliane', 'Josefa', 'Simone',
  'Natália', 'Cristina', 'Carla', 'Débora', 'Rosângela', 'Jaqueline', 'Rosa', 'Daniela', 'Aparecida', 'Marlene',
  'Terezinha', 'Raimunda', 'Andréia', 'Fabiana', 'Lúcia', 'Raquel', 'Ângela', 'Rafaela', 'Joana', 'Luzia', 'Elaine',
  'Daniele', 'Regina', 'Daiane', 'Helena', 'Alice', 'Laura', 'Valentina', 'Sophia', 'Heloísa', 'Isabela', 'Lívia',
];

export const MALE_NAMES = [
  'José', 'João', 'Antônio', 'Francisco', 'Carlos', 'Paulo', 'Pedro', 'Lucas', 'Luiz', 'Marcos', 'Luís', 'Gabriel',
  'Rafael', 'Daniel', 'Marcelo', 'Bruno', 'Eduardo', 'Felipe', 'Raimundo', 'Rodrigo', 'Manoel', 'Mateus', 'André',
  'Fernando', 'Fábio', 'Leonardo', 'Gustavo', 'Guilherme', 'Leandro', 'Tiago', 'Anderson', 'Ricardo', 'Márcio',
  'Jorge', 'Sebastião', 'Alexandre', 'Roberto', 'Edson', 'Diego', 'Vitor', 'Sérgio', 'Cláudio', 'Matheus', 'Thiago',
  'Geraldo', 'Adriano', 'Luciano', 'Júlio', 'Renato', 'Alex', 'Vinícius', 'Rogério', 'Samuel', 'Ronaldo', 'Mário',
  'Flávio', 'Igor', 'Douglas', 'Davi', 'Arthur', 'Heitor', 'Bernardo', 'Miguel', 'Enzo', 'Lorenzo', 'Benjamin',
];

export const SURNAMES = [
  'Silva', 'Santos', 'Oliveira', 'Souza', 'Rodrigues', 'Ferreira', 'Alves', 'Pereira', 'Lima', 'Gomes', 'Costa',
  'Ribeiro', 'Martins', 'Carvalho', 'Almeida', 'Lopes', 'Soares', 'Fernandes', 'Vieira', 'Barbosa', 'Rocha', 'Dias',
  'Nascimento', 'Andrade', 'Moreira', 'Nunes', 'Marques', 'Machado', 'Mendes', 'Freitas', 'Cardoso', 'Ramos',
  'Gonçalves', 'Santana', 'Teixeira', 'Araújo', 'Cavalcanti', 'Monteiro', 'Moura', 'Correia', 'Pinto', 'Batista',
  'Campos', 'Barros', 'Farias', 'Cunha', 'Reis', 'Castro', 'Rezende', 'Borges', 'Nogueira', 'Pires', 'Medeiros',
  'Azevedo', 'Brito', 'Sales', 'Aragão', 'Queiroz', 'Bezerra', 'Siqueira', 'Xavier', 'Tavares', 'Macedo', 'Prado',
];

/** "<prefix> <word>": Clínica São Lucas, Centro Médico Vida, Policlínica Bem-Estar … */
export const CLINIC_PREFIXES = ['Clínica', 'Centro Médico', 'Policlínica', 'Instituto de Saúde', 'Clínica Médica', 'Espaço Saúde', 'Clínica Popular', 'Centro Clínico'];
export const CLINIC_WORDS = [
  'São Lucas', 'Vida', 'Bem-Estar', 'Santa Clara', 'Esperança', 'Nova Aliança', 'Sorriso', 'Família', 'Boa Saúde',
  'Santa Maria', 'São José', 'Mais Saúde', 'Cuidar', 'Viver Bem', 'Horizonte', 'Aurora', 'Primavera', 'Integrada',
  'do Povo', 'Central', 'Santa Luzia', 'São Francisco', 'Vitalidade', 'Renascer', 'Harmonia', 'Equilíbrio', 'Amparo',
  'Pró-Saúde', 'Saúde Total', 'Dr. Consulta', 'Ipiranga', 'Paulista', 'Atlântica', 'Bandeirantes', 'Santa Rita',
];

/** A clinic's price list: name, category and full price (cents), as small clinics in Brazil charge them. */
export const SERVICE_CATALOGUE: readonly { name: string; category: ServiceCategory; priceCents: number }[] = [
  { name: 'Consulta clínica geral', category: 'consulta', priceCents: 18000 },
  { name: 'Consulta pediátrica', category: 'consulta', priceCents: 22000 },
  { name: 'Consulta ginecológica', category: 'consulta', priceCents: 25000 },
  { name: 'Consulta cardiológica', category: 'consulta', priceCents: 30000 },
  { name: 'Consulta dermatológica', category: 'consulta', priceCents: 28000 },
  { name: 'Consulta oftalmológica', category: 'consulta', priceCents: 26000 },
  { name: 'Consulta ortopédica', category: 'consulta', priceCents: 27000 },
  { name: 'Consulta odontológica', category: 'consulta', priceCents: 15000 },
  { name: 'Consulta psicológica', category: 'consulta', priceCents: 20000 },
  { name: 'Hemograma completo', category: 'exame', priceCents: 4500 },
  { name: 'Glicemia em jejum', category: 'exame', priceCents: 2000 },
  { name: 'Colesterol total e frações', category: 'exame', priceCents: 6000 },
  { name: 'Ultrassonografia abdominal', category: 'exame', priceCents: 22000 },
  { name: 'Eletrocardiograma', category: 'exame', priceCents: 12000 },
  { name: 'Raio-X de tórax', category: 'exame', priceCents: 9000 },
  { name: 'Exame de urina (EAS)', category: 'exame', priceCents: 2500 },
  { name: 'TSH e T4 livre', category: 'exame', priceCents: 7000 },
  { name: 'Mamografia bilateral', category: 'exame', priceCents: 18000 },
  { name: 'Limpeza dentária', category: 'procedimento', priceCents: 16000 },
  { name: 'Aplicação de injeção', category: 'procedimento', priceCents: 3000 },
  { name: 'Curativo simples', category: 'procedimento', priceCents: 5000 },
  { name: 'Retirada de pontos', category: 'procedimento', priceCents: 6000 },
  { name: 'Sessão de fisioterapia', category: 'procedimento', priceCents: 9000 },
  { name: 'Drenagem linfática', category: 'procedimento', priceCents: 12000 },
  { name: 'Restauração dentária', category: 'procedimento', priceCents: 20000 },
];

/** Cities where clinics are, with a point near their centre (latitude, longitude). */
export const CITIES: readonly { city: string; state: string; latitude: number; longitude: number }[] = [
  { city: 'São Paulo', state: 'SP', latitude: -23.5505, longitude: -46.6333 },
  { city: 'Campinas', state: 'SP', latitude: -22.9099, longitude: -47.0626 },
  { city: 'Santos', state: 'SP', latitude: -23.9608, longitude: -46.3336 },
  { city: 'Ribeirão Preto', state: 'SP', latitude: -21.1775, longitude: -47.8103 },
  { city: 'Guarulhos', state: 'SP', latitude: -23.4543, longitude: -46.5337 },
  { city: 'Rio de Janeiro', state: 'RJ', latitude: -22.9068, longitude: -43.1729 },
  { city: 'Niterói', state: 'RJ', latitude: -22.8832, longitude: -43.1034 },
  { city: 'Belo Horizonte', state: 'MG', latitude: -19.9167, longitude: -43.9345 },
  { city: 'Uberlândia', state: 'MG', latitude: -18.9186, longitude: -48.2772 },
  { city: 'Salvador', state: 'BA', latitude: -12.9714, longitude: -38.5014 },
  { city: 'Fortaleza', state: 'CE', latitude: -3.7319, longitude: -38.5267 },
  { city: 'Recife', state: 'PE', latitude: -8.0476, longitude: -34.877 },
  { city: 'Curitiba', state: 'PR', latitude: -25.4284, longitude: -49.2733 },
  { city: 'Londrina', state: 'PR', latitude: -23.3045, longitude: -51.1696 },
  { city: 'Porto Alegre', state: 'RS', latitude: -30.0346, longitude: -51.2177 },
  { city: 'Florianópolis', state: 'SC', latitude: -27.5954, longitude: -48.548 },
  { city: 'Goiânia', state: 'GO', latitude: -16.6869, longitude: -49.2648 },
  { city: 'Brasília', state: 'DF', latitude: -15.7975, longitude: -47.8919 },
  { city: 'Manaus', state: 'AM', latitude: -3.119, longitude: -60.0217 },
  { city: 'Belém', state: 'PA', latitude: -1.4558, longitude: -48.4902 },
  { city: 'São Luís', state: 'MA', latitude: -2.5307, longitude: -44.3068 },
  { city: 'Natal', state: 'RN', latitude: -5.7945, longitude: -35.211 },
  { city: 'João Pessoa', state: 'PB', latitude: -7.1195, longitude: -34.845 },
  { city: 'Maceió', state: 'AL', latitude: -9.6498, longitude: -35.7089 },
  { city: 'Teresina', state: 'PI', latitude: -5.0892, longitude: -42.8019 },
  { city: 'Campo Grande', state: 'MS', latitude: -20.4697, longitude: -54.6201 },
  { city: 'Cuiabá', state: 'MT', latitude: -15.601, longitude: -56.0974 },
  { city: 'Vitória', state: 'ES', latitude: -20.3155, longitude: -40.3128 },
];

export const DEPENDENT_RELATIONSHIPS = ['Cônjuge', 'Filho(a)', 'Filho(a)', 'Filho(a)', 'Pai', 'Mãe'] as const;

/** Share of each subscription status among patients' subscriptions (DESIGN.md §2: every state a real programme has). */
export const SUBSCRIPTION_STATUS_SHARES: readonly (readonly [SubscriptionStatus, number])[] = [
  ['active', 0.68],
  ['overdue', 0.06],
  ['pending', 0.06],
  ['canceled', 0.11],
  ['expired', 0.09],
];
