-- A player's settings (card back, table colour, layout, sounds, motion, auto-move), stored as JSON so that a
-- setting can be added without a migration; validated by SettingsPatchSchema (packages/protocol).
-- AlterTable
ALTER TABLE "Player" ADD COLUMN "settings" JSONB NOT NULL DEFAULT '{}';
