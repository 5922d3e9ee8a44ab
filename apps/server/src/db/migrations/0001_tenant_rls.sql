-- Row-level security: the second wall behind the repositories' clinic filter (docs/decisions/003).
-- Tenant-scoped requests run in a transaction as the role carteirinha_tenant with app.clinic_id set; that role owns
-- nothing, cannot bypass RLS, and sees only rows of that clinic. Platform work (admin, auth) runs as the owner.
DO $$
BEGIN
  IF NOT EXISTS (SELECT 1 FROM pg_roles WHERE rolname = 'carteirinha_tenant') THEN
    CREATE ROLE carteirinha_tenant NOLOGIN NOSUPERUSER NOBYPASSRLS NOCREATEDB NOCREATEROLE;
  END IF;
END
$$;--> statement-breakpoint
GRANT carteirinha_tenant TO CURRENT_USER;--> statement-breakpoint
GRANT USAGE ON SCHEMA public TO carteirinha_tenant;--> statement-breakpoint
GRANT SELECT ON plans TO carteirinha_tenant;--> statement-breakpoint
GRANT SELECT, UPDATE ON clinics TO carteirinha_tenant;--> statement-breakpoint
GRANT SELECT, INSERT, UPDATE, DELETE ON subscription_plans, subscriptions, user_roles TO carteirinha_tenant;--> statement-breakpoint
ALTER TABLE clinics ENABLE ROW LEVEL SECURITY;--> statement-breakpoint
ALTER TABLE subscription_plans ENABLE ROW LEVEL SECURITY;--> statement-breakpoint
ALTER TABLE subscriptions ENABLE ROW LEVEL SECURITY;--> statement-breakpoint
ALTER TABLE user_roles ENABLE ROW LEVEL SECURITY;--> statement-breakpoint
CREATE POLICY tenant_isolation ON clinics TO carteirinha_tenant
  USING (id = nullif(current_setting('app.clinic_id', true), '')::uuid)
  WITH CHECK (id = nullif(current_setting('app.clinic_id', true), '')::uuid);--> statement-breakpoint
CREATE POLICY tenant_isolation ON subscription_plans TO carteirinha_tenant
  USING (clinic_id = nullif(current_setting('app.clinic_id', true), '')::uuid)
  WITH CHECK (clinic_id = nullif(current_setting('app.clinic_id', true), '')::uuid);--> statement-breakpoint
CREATE POLICY tenant_isolation ON subscriptions TO carteirinha_tenant
  USING (clinic_id = nullif(current_setting('app.clinic_id', true), '')::uuid)
  WITH CHECK (clinic_id = nullif(current_setting('app.clinic_id', true), '')::uuid);--> statement-breakpoint
CREATE POLICY tenant_isolation ON user_roles TO carteirinha_tenant
  USING (clinic_id = nullif(current_setting('app.clinic_id', true), '')::uuid)
  WITH CHECK (clinic_id = nullif(current_setting('app.clinic_id', true), '')::uuid);
