import { z } from 'zod';

/**
 * Makes zod's built-in messages pt-BR, so a rule that has no catalogue message of its own still answers in the
 * user's language. Imported once at start by the server and by the web app.
 */
z.config(z.locales.ptBR());
