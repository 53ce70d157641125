-- Rated races (docs/ratings.md): a room may be rated; its result moves the race ratings once, in the
-- transaction that ends it (ratedAt).
ALTER TABLE "Race" ADD COLUMN "rated" BOOLEAN NOT NULL DEFAULT false;
ALTER TABLE "Race" ADD COLUMN "ratedAt" TIMESTAMP(3);
