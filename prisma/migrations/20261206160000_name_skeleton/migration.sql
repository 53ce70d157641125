-- Player names are unique by their confusable skeleton too (issue 55, "Names and arenas"): `bоb` with a
-- Cyrillic о, or full-width `ｂｏｂ`, is taken when `bob` is. The skeleton (Unicode TS #39 of the NFKC form,
-- lower case) is computed in code (apps/server/src/features/players/players.ts `nameSkeleton`, from the
-- Unicode confusables table); SQL cannot, so players named before this migration start with NULL (which a
-- unique index does not compare) and get theirs when a server starts (players.ts `fillNameSkeletons`); one of
-- two look-alike names from before keeps NULL. Their names still hold `nameKey`, unique ignoring case.
ALTER TABLE "Player" ADD COLUMN "nameSkeleton" TEXT;
CREATE UNIQUE INDEX "Player_nameSkeleton_key" ON "Player"("nameSkeleton");
