-- Daily par from the minimal search: whether the par is proven shortest, and the proven lower bound.
-- Dailies stored before keep their par (the solver's shortened line), not proven.
ALTER TABLE "DailyDeal" ADD COLUMN "parProven" BOOLEAN NOT NULL DEFAULT false;
ALTER TABLE "DailyDeal" ADD COLUMN "parLowerBound" INTEGER;
