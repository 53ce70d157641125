-- Several nodes (apps/server/src/races): the node that holds a race room, and each node's heartbeat, so a
-- node ends only the races of nodes that stopped beating, never those of a node alive.
-- AlterTable
ALTER TABLE "Race" ADD COLUMN "nodeId" TEXT;

-- CreateTable
CREATE TABLE "ServerNode" (
    "id" TEXT NOT NULL,
    "seenAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "ServerNode_pkey" PRIMARY KEY ("id")
);
