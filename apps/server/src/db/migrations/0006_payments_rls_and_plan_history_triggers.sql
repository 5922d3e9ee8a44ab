-- Payments belong to one clinic: the same row-level security as every other tenant table (docs/decisions/003).
GRANT SELECT, INSERT, UPDATE ON payments TO carteirinha_tenant;--> statement-breakpoint
ALTER TABLE payments ENABLE ROW LEVEL SECURITY;--> statement-breakpoint
CREATE POLICY tenant_isolation ON payments TO carteirinha_tenant
  USING (clinic_id = nullif(current_setting('app.clinic_id', true), '')::uuid)
  WITH CHECK (clinic_id = nullif(current_setting('app.clinic_id', true), '')::uuid);--> statement-breakpoint

-- The history behind the MRR and its change against the previous month. Triggers, not application code, write it:
-- admin edits, onboarding, approval and the trial-expiry job all change clinics, and each of them is recorded.
-- SECURITY DEFINER so that a change made under the tenant role is recorded too; the search path is pinned.
CREATE FUNCTION record_clinic_plan_period() RETURNS trigger
LANGUAGE plpgsql SECURITY DEFINER SET search_path = public, pg_temp AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    INSERT INTO clinic_plan_periods (clinic_id, plan_id, status, price_cents, valid_from)
    VALUES (NEW.id, NEW.plan_id, NEW.status, (SELECT price_cents FROM plans WHERE id = NEW.plan_id), NEW.created_at);
    RETURN NULL;
  END IF;
  IF TG_OP = 'UPDATE' THEN
    -- A second change in the same transaction rewrites the period it opened instead of leaving an empty one.
    UPDATE clinic_plan_periods
       SET plan_id = NEW.plan_id, status = NEW.status, price_cents = (SELECT price_cents FROM plans WHERE id = NEW.plan_id)
     WHERE clinic_id = NEW.id AND valid_to IS NULL AND valid_from >= now();
    IF FOUND THEN RETURN NULL; END IF;
    UPDATE clinic_plan_periods SET valid_to = now() WHERE clinic_id = NEW.id AND valid_to IS NULL;
    INSERT INTO clinic_plan_periods (clinic_id, plan_id, status, price_cents, valid_from)
    VALUES (NEW.id, NEW.plan_id, NEW.status, (SELECT price_cents FROM plans WHERE id = NEW.plan_id), now());
    RETURN NULL;
  END IF;
  -- DELETE: the clinic's last period ends; the history stays for the months it was a customer.
  DELETE FROM clinic_plan_periods WHERE clinic_id = OLD.id AND valid_to IS NULL AND valid_from >= now();
  UPDATE clinic_plan_periods SET valid_to = now() WHERE clinic_id = OLD.id AND valid_to IS NULL;
  RETURN NULL;
END
$$;--> statement-breakpoint
CREATE TRIGGER clinics_plan_period_insert AFTER INSERT ON clinics
  FOR EACH ROW EXECUTE FUNCTION record_clinic_plan_period();--> statement-breakpoint
CREATE TRIGGER clinics_plan_period_update AFTER UPDATE OF status, plan_id ON clinics
  FOR EACH ROW WHEN (OLD.status IS DISTINCT FROM NEW.status OR OLD.plan_id IS DISTINCT FROM NEW.plan_id)
  EXECUTE FUNCTION record_clinic_plan_period();--> statement-breakpoint
CREATE TRIGGER clinics_plan_period_delete AFTER DELETE ON clinics
  FOR EACH ROW EXECUTE FUNCTION record_clinic_plan_period();--> statement-breakpoint

-- A new price applies from now on: the clinics on the plan start a period at the new price.
CREATE FUNCTION reprice_clinic_plan_periods() RETURNS trigger
LANGUAGE plpgsql SECURITY DEFINER SET search_path = public, pg_temp AS $$
DECLARE
  closed record;
BEGIN
  UPDATE clinic_plan_periods SET price_cents = NEW.price_cents
   WHERE plan_id = NEW.id AND valid_to IS NULL AND valid_from >= now();
  FOR closed IN
    UPDATE clinic_plan_periods SET valid_to = now()
     WHERE plan_id = NEW.id AND valid_to IS NULL AND valid_from < now()
    RETURNING clinic_id, status
  LOOP
    INSERT INTO clinic_plan_periods (clinic_id, plan_id, status, price_cents, valid_from)
    VALUES (closed.clinic_id, NEW.id, closed.status, NEW.price_cents, now());
  END LOOP;
  RETURN NULL;
END
$$;--> statement-breakpoint
CREATE TRIGGER plans_reprice_clinic_plan_periods AFTER UPDATE OF price_cents ON plans
  FOR EACH ROW WHEN (OLD.price_cents IS DISTINCT FROM NEW.price_cents)
  EXECUTE FUNCTION reprice_clinic_plan_periods();--> statement-breakpoint

-- The clinics that exist today: their current status and plan since they were created (the best that is known).
INSERT INTO clinic_plan_periods (clinic_id, plan_id, status, price_cents, valid_from)
SELECT c.id, c.plan_id, c.status, p.price_cents, c.created_at
FROM clinics c LEFT JOIN plans p ON p.id = c.plan_id;
