-- Searches ignore case and accents (lib/sql.ts foldedContains) through one immutable function, so that trigram
-- indexes on it serve the '%term%' searches of the admin lists at 50 000 accounts. Both cases of the accented
-- letters are translated: lower() alone leaves 'Á' as it is on a database with the C locale.
CREATE EXTENSION IF NOT EXISTS pg_trgm;--> statement-breakpoint
CREATE FUNCTION fold_text(value text) RETURNS text
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE AS $$
  SELECT lower(translate(value,
    'ÁÀÂÃÄÅÉÈÊËÍÌÎÏÓÒÔÕÖÚÙÛÜÇÑáàâãäåéèêëíìîïóòôõöúùûüçñ',
    'AAAAAAEEEEIIIIOOOOOUUUUCNaaaaaaeeeeiiiiooooouuuucn'))
$$;--> statement-breakpoint
CREATE INDEX users_email_search_idx ON users USING gin (fold_text(email) gin_trgm_ops);--> statement-breakpoint
CREATE INDEX users_name_search_idx ON users USING gin (fold_text(name) gin_trgm_ops);--> statement-breakpoint
CREATE INDEX clinics_name_search_idx ON clinics USING gin (fold_text(name) gin_trgm_ops);--> statement-breakpoint

-- Clinics that exist today were accepted when they were made, except trial sign-ups made by their own owner.
UPDATE clinics c SET approved_at = c.created_at
WHERE c.status <> 'trial'
   OR c.created_by IS NULL
   OR EXISTS (SELECT 1 FROM user_roles r WHERE r.user_id = c.created_by AND r.role = 'admin');
--> statement-breakpoint

-- The last sign-in known so far is the newest session still kept.
UPDATE users u SET last_sign_in_at = (SELECT max(s.created_at) FROM sessions s WHERE s.user_id = u.id);--> statement-breakpoint

-- The platform's own plans include what specification §9 compares; plans an admin made keep the defaults.
UPDATE plans SET full_whitelabel = true, mobile_app = true, advanced_reports = true, support_level = 'priority'
WHERE name = 'Professional';--> statement-breakpoint
UPDATE plans SET full_whitelabel = true, mobile_app = true, advanced_reports = true, support_level = 'dedicated', sla_uptime_percent = 99.9
WHERE name = 'Enterprise';
