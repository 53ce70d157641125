-- A race's deal commitment hides the deal (docs/fairness.md "Race commitments are salted"): each room made
-- from now on gets a 256-bit random salt (64 lower-case hex digits, node:crypto randomBytes(32)) that is part
-- of its commitment's preimage and revealed with its results. Rooms made before keep NULL: their commitment
-- stays the unsalted one they published (`klondike-race|<code>|deal-v2|<key>` or `…|deal-v1|<number>`) and
-- verifies as it did.
ALTER TABLE "Race" ADD COLUMN "dealSalt" TEXT;
