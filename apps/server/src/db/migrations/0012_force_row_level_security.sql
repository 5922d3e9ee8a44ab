-- Row-level security binds the tables' owner too (issue 12 item 20, docs/decisions/008). Until now RLS was ENABLEd
-- only: the owner — the role the application logs in as — bypassed it, and audit_log and clinic_plan_periods had no
-- policy at all. Now every tenant table FORCEs it and has two policies:
--   tenant_isolation (role carteirinha_tenant): only the rows of the clinic in app.clinic_id;
--   platform_access (role carteirinha_platform): every row, but only while no clinic is in scope (app.clinic_id
--     unset or empty). A transaction that set app.clinic_id is confined to that clinic whichever role runs it.
-- The login role is a member of both (0001 granted the tenant role; this grants the platform role), so its platform
-- work (admin, auth, jobs) keeps working under FORCE, and a tenant-scoped transaction that forgets SET ROLE still
-- sees one clinic. carteirinha_tenant is not a member of carteirinha_platform: it never sees another clinic.
-- Superusers (PGlite's only user, a development server's postgres) bypass RLS whatever this says.
DO $$
BEGIN
  IF NOT EXISTS (SELECT 1 FROM pg_roles WHERE rolname = 'carteirinha_platform') THEN
    CREATE ROLE carteirinha_platform NOLOGIN NOSUPERUSER NOBYPASSRLS NOCREATEDB NOCREATEROLE;
  END IF;
END
$$;--> statement-breakpoint
GRANT carteirinha_platform TO CURRENT_USER;--> statement-breakpoint

-- The two tables that had none: the clinic's own rows for the tenant path (the MRR triggers write them as the owner
-- inside a tenant's transaction); platform audit rows (clinic_id NULL) match no clinic, so only the platform sees
-- them. carteirinha_tenant still has no privilege on either table: these policies bound the owner's access.
CREATE POLICY tenant_isolation ON audit_log TO carteirinha_tenant
  USING (clinic_id = nullif(current_setting('app.clinic_id', true), '')::uuid)
  WITH CHECK (clinic_id = nullif(current_setting('app.clinic_id', true), '')::uuid);--> statement-breakpoint
CREATE POLICY tenant_isolation ON clinic_plan_periods TO carteirinha_tenant
  USING (clinic_id = nullif(current_setting('app.clinic_id', true), '')::uuid)
  WITH CHECK (clinic_id = nullif(current_setting('app.clinic_id', true), '')::uuid);--> statement-breakpoint

CREATE POLICY platform_access ON clinics TO carteirinha_platform
  USING (nullif(current_setting('app.clinic_id', true), '') IS NULL)
  WITH CHECK (nullif(current_setting('app.clinic_id', true), '') IS NULL);--> statement-breakpoint
CREATE POLICY platform_access ON subscription_plans TO carteirinha_platform
  USING (nullif(current_setting('app.clinic_id', true), '') IS NULL)
  WITH CHECK (nullif(current_setting('app.clinic_id', true), '') IS NULL);--> statement-breakpoint
CREATE POLICY platform_access ON subscriptions TO carteirinha_platform
  USING (nullif(current_setting('app.clinic_id', true), '') IS NULL)
  WITH CHECK (nullif(current_setting('app.clinic_id', true), '') IS NULL);--> statement-breakpoint
CREATE POLICY platform_access ON user_roles TO carteirinha_platform
  USING (nullif(current_setting('app.clinic_id', true), '') IS NULL)
  WITH CHECK (nullif(current_setting('app.clinic_id', true), '') IS NULL);--> statement-breakpoint
CREATE POLICY platform_access ON payments TO carteirinha_platform
  USING (nullif(current_setting('app.clinic_id', true), '') IS NULL)
  WITH CHECK (nullif(current_setting('app.clinic_id', true), '') IS NULL);--> statement-breakpoint
CREATE POLICY platform_access ON audit_log TO carteirinha_platform
  USING (nullif(current_setting('app.clinic_id', true), '') IS NULL)
  WITH CHECK (nullif(current_setting('app.clinic_id', true), '') IS NULL);--> statement-breakpoint
CREATE POLICY platform_access ON clinic_plan_periods TO carteirinha_platform
  USING (nullif(current_setting('app.clinic_id', true), '') IS NULL)
  WITH CHECK (nullif(current_setting('app.clinic_id', true), '') IS NULL);--> statement-breakpoint

ALTER TABLE audit_log ENABLE ROW LEVEL SECURITY;--> statement-breakpoint
ALTER TABLE clinic_plan_periods ENABLE ROW LEVEL SECURITY;--> statement-breakpoint
ALTER TABLE clinics FORCE ROW LEVEL SECURITY;--> statement-breakpoint
ALTER TABLE subscription_plans FORCE ROW LEVEL SECURITY;--> statement-breakpoint
ALTER TABLE subscriptions FORCE ROW LEVEL SECURITY;--> statement-breakpoint
ALTER TABLE user_roles FORCE ROW LEVEL SECURITY;--> statement-breakpoint
ALTER TABLE payments FORCE ROW LEVEL SECURITY;--> statement-breakpoint
ALTER TABLE audit_log FORCE ROW LEVEL SECURITY;--> statement-breakpoint
ALTER TABLE clinic_plan_periods FORCE ROW LEVEL SECURITY;
