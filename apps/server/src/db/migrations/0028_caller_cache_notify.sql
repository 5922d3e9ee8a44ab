-- The caller's cache (issue 28, ADR 035): each server process keeps a signed-in caller's session, user, role and clinic
-- for a few seconds, and every change to any of them, by whatever code or person makes it, clears that caller on every
-- process at once. Triggers, not application code, send the news: better-auth's sign-out and renewal, our
-- deactivations and role changes, a passkey added, a clinic suspended, and a change made by hand in psql alike.
-- NOTIFY is sent at commit (a rolled-back change clears nothing), and the channel is the one the other caches use.
CREATE FUNCTION notify_caller_of_user() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  -- TG_ARGV[0]: the column naming the user ('id' on users, 'user_id' elsewhere).
  PERFORM pg_notify('carteirinha_caches', 'callers:' || (to_jsonb(CASE WHEN TG_OP = 'DELETE' THEN OLD ELSE NEW END) ->> TG_ARGV[0]));
  RETURN NULL;
END $$;--> statement-breakpoint

-- A clinic's status, trial, name or approval is part of every one of its people's callers: all of them are cleared.
CREATE FUNCTION notify_all_callers() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify('carteirinha_caches', 'callers');
  RETURN NULL;
END $$;--> statement-breakpoint

-- A new session is no one's cached caller yet: only its changes and its end are news.
CREATE TRIGGER sessions_notify_callers AFTER UPDATE OR DELETE ON sessions
  FOR EACH ROW EXECUTE FUNCTION notify_caller_of_user('user_id');--> statement-breakpoint
CREATE TRIGGER users_notify_callers AFTER UPDATE OR DELETE ON users
  FOR EACH ROW EXECUTE FUNCTION notify_caller_of_user('id');--> statement-breakpoint
CREATE TRIGGER user_roles_notify_callers AFTER INSERT OR UPDATE OR DELETE ON user_roles
  FOR EACH ROW EXECUTE FUNCTION notify_caller_of_user('user_id');--> statement-breakpoint
CREATE TRIGGER passkeys_notify_callers AFTER INSERT OR DELETE ON passkeys
  FOR EACH ROW EXECUTE FUNCTION notify_caller_of_user('user_id');--> statement-breakpoint
-- Statement-level: one message however many clinics one statement changes (the trial-expiry job).
CREATE TRIGGER clinics_notify_callers AFTER UPDATE OR DELETE ON clinics
  FOR EACH STATEMENT EXECUTE FUNCTION notify_all_callers();
