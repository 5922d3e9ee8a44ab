-- Issue 23: a real code of a card's last day (a QR left open, a screenshot) is answered and audited as 'expired'.
ALTER TYPE "public"."card_validation_result" ADD VALUE 'expired' BEFORE 'not_found';