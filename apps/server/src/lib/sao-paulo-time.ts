// One copy of São Paulo's calendar arithmetic for the server and the web (packages/shared); the server's modules keep
// importing it from here.
export { SAO_PAULO_OFFSET, nextYearMonth, saoPauloDay, saoPauloMidnight, startOfSaoPauloMonth } from '@carteirinha/shared/sao-paulo-time';
