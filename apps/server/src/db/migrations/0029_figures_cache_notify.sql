-- The dashboards' figures cache (issue 28, ADR 036): each server process keeps a clinic's Dashboard figures and charts,
-- and the admin Dashboard's, until a row they are counted from changes. As for the callers (0028), triggers send the
-- news, whoever writes: a visit recorded, a subscription paid or expired by a job, a dependent added, a patient signed up,
-- a charge settled by a webhook. `figures:<clinic id>` clears that clinic's figures and the platform's; `figures:platform`
-- the platform's alone. Statement-level, with the changed rows as a transition table: one message per clinic a
-- statement touches, however many rows (the generator inserts a million visits in a few statements). NOTIFY is sent at
-- commit and folds repeats within a transaction. Card validations send nothing: they are the hot path, and the charts'
-- validations per day may be the cache's few seconds behind (FIGURES_CACHE_MS).
CREATE FUNCTION notify_figures_of_clinics() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify('carteirinha_caches', 'figures:' || clinic_id)
    FROM (SELECT DISTINCT clinic_id FROM changed WHERE clinic_id IS NOT NULL) AS touched;
  RETURN NULL;
END $$;--> statement-breakpoint

CREATE FUNCTION notify_platform_figures() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify('carteirinha_caches', 'figures:platform');
  RETURN NULL;
END $$;--> statement-breakpoint

-- A transition table serves one event per trigger: three triggers per table.
CREATE TRIGGER visits_figures_inserted AFTER INSERT ON visits REFERENCING NEW TABLE AS changed
  FOR EACH STATEMENT EXECUTE FUNCTION notify_figures_of_clinics();--> statement-breakpoint
CREATE TRIGGER visits_figures_updated AFTER UPDATE ON visits REFERENCING NEW TABLE AS changed
  FOR EACH STATEMENT EXECUTE FUNCTION notify_figures_of_clinics();--> statement-breakpoint
CREATE TRIGGER visits_figures_deleted AFTER DELETE ON visits REFERENCING OLD TABLE AS changed
  FOR EACH STATEMENT EXECUTE FUNCTION notify_figures_of_clinics();--> statement-breakpoint

CREATE TRIGGER subscriptions_figures_inserted AFTER INSERT ON subscriptions REFERENCING NEW TABLE AS changed
  FOR EACH STATEMENT EXECUTE FUNCTION notify_figures_of_clinics();--> statement-breakpoint
CREATE TRIGGER subscriptions_figures_updated AFTER UPDATE ON subscriptions REFERENCING NEW TABLE AS changed
  FOR EACH STATEMENT EXECUTE FUNCTION notify_figures_of_clinics();--> statement-breakpoint
CREATE TRIGGER subscriptions_figures_deleted AFTER DELETE ON subscriptions REFERENCING OLD TABLE AS changed
  FOR EACH STATEMENT EXECUTE FUNCTION notify_figures_of_clinics();--> statement-breakpoint

CREATE TRIGGER dependents_figures_inserted AFTER INSERT ON dependents REFERENCING NEW TABLE AS changed
  FOR EACH STATEMENT EXECUTE FUNCTION notify_figures_of_clinics();--> statement-breakpoint
CREATE TRIGGER dependents_figures_updated AFTER UPDATE ON dependents REFERENCING NEW TABLE AS changed
  FOR EACH STATEMENT EXECUTE FUNCTION notify_figures_of_clinics();--> statement-breakpoint
CREATE TRIGGER dependents_figures_deleted AFTER DELETE ON dependents REFERENCING OLD TABLE AS changed
  FOR EACH STATEMENT EXECUTE FUNCTION notify_figures_of_clinics();--> statement-breakpoint

CREATE TRIGGER user_roles_figures_inserted AFTER INSERT ON user_roles REFERENCING NEW TABLE AS changed
  FOR EACH STATEMENT EXECUTE FUNCTION notify_figures_of_clinics();--> statement-breakpoint
CREATE TRIGGER user_roles_figures_updated AFTER UPDATE ON user_roles REFERENCING NEW TABLE AS changed
  FOR EACH STATEMENT EXECUTE FUNCTION notify_figures_of_clinics();--> statement-breakpoint
CREATE TRIGGER user_roles_figures_deleted AFTER DELETE ON user_roles REFERENCING OLD TABLE AS changed
  FOR EACH STATEMENT EXECUTE FUNCTION notify_figures_of_clinics();--> statement-breakpoint

CREATE TRIGGER payments_figures_inserted AFTER INSERT ON payments REFERENCING NEW TABLE AS changed
  FOR EACH STATEMENT EXECUTE FUNCTION notify_figures_of_clinics();--> statement-breakpoint
CREATE TRIGGER payments_figures_updated AFTER UPDATE ON payments REFERENCING NEW TABLE AS changed
  FOR EACH STATEMENT EXECUTE FUNCTION notify_figures_of_clinics();--> statement-breakpoint
CREATE TRIGGER payments_figures_deleted AFTER DELETE ON payments REFERENCING OLD TABLE AS changed
  FOR EACH STATEMENT EXECUTE FUNCTION notify_figures_of_clinics();--> statement-breakpoint

-- What only the admin Dashboard counts: the clinics (status, trials, approval, names), the platform plans behind the
-- MRR, and the provider events whose failure it warns of.
CREATE TRIGGER clinics_figures AFTER INSERT OR UPDATE OR DELETE ON clinics
  FOR EACH STATEMENT EXECUTE FUNCTION notify_platform_figures();--> statement-breakpoint
CREATE TRIGGER clinic_plan_periods_figures AFTER INSERT OR UPDATE OR DELETE ON clinic_plan_periods
  FOR EACH STATEMENT EXECUTE FUNCTION notify_platform_figures();--> statement-breakpoint
CREATE TRIGGER plans_figures AFTER INSERT OR UPDATE OR DELETE ON plans
  FOR EACH STATEMENT EXECUTE FUNCTION notify_platform_figures();--> statement-breakpoint
CREATE TRIGGER webhook_events_figures AFTER INSERT OR UPDATE OR DELETE ON webhook_events
  FOR EACH STATEMENT EXECUTE FUNCTION notify_platform_figures();
