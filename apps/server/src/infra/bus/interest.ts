/**
 * Which other nodes watch which topic (a game, a race room, an arena): the map a node keeps so that it sends a
 * topic's messages only to the nodes that want them (bus/event-bus.ts `RedisBus.send`, docs/architecture.md
 * "Scale-out"). It is built from what the other nodes announce on the bus, and it is only ever a hint: a
 * topic missing here means that node does not hear the next message (its sockets resync by the version
 * rule), a topic too many costs one message, which that node refuses with an unwatch announcement.
 *
 * Every announcement heard from a node counts in `heard` (a number that only grows), so that a late answer
 * "nobody listens on that node's channel" is not taken for the truth once that node has spoken since.
 */

/** The topics the other nodes watch, by topic and by node. Pure data: no I/O. */
export class PeerInterest {
  private readonly nodesOf = new Map<string, Set<string>>();
  private readonly topicsOf = new Map<string, Set<string>>();
  private readonly lastHeard = new Map<string, number>();
  private count = 0;

  /** The nodes that watch `topic` (other nodes only; empty when none). */
  nodes(topic: string): ReadonlySet<string> {
    return this.nodesOf.get(topic) ?? EMPTY;
  }

  /** The topics node `node` watches, as last heard (empty when none). */
  topics(node: string): ReadonlySet<string> {
    return this.topicsOf.get(node) ?? EMPTY;
  }

  /** How many announcements have been heard from any node so far: a mark to compare with `heardSince`. */
  get mark(): number {
    return this.count;
  }

  /** Whether node `node` was heard from after `mark` (a value of `mark` taken earlier). */
  heardSince(node: string, mark: number): boolean {
    return (this.lastHeard.get(node) ?? 0) > mark;
  }

  /** Node `node` announced that it now watches `topics` too. */
  watch(node: string, topics: readonly string[]): void {
    this.heard(node);
    for (const t of topics) this.add(node, t);
  }

  /** Node `node` announced that it no longer watches `topics`. */
  unwatch(node: string, topics: readonly string[]): void {
    this.heard(node);
    for (const t of topics) this.remove(node, t);
  }

  /** Node `node` announced the whole of what it watches: `topics` replaces what was known of it. */
  reset(node: string, topics: readonly string[]): void {
    this.heard(node);
    const next = new Set(topics);
    for (const t of [...this.topics(node)]) if (!next.has(t)) this.remove(node, t);
    for (const t of next) this.add(node, t);
  }

  /**
   * Forgets node `node` (it closed, or nobody listens on its channel any more). It announces the whole of
   * its interest when it joins again.
   */
  drop(node: string): void {
    for (const t of [...this.topics(node)]) this.remove(node, t);
  }

  /** The nodes known to watch some topic. */
  known(): string[] {
    return [...this.topicsOf.keys()];
  }

  private heard(node: string): void {
    this.lastHeard.set(node, ++this.count);
  }

  private add(node: string, topic: string): void {
    let nodes = this.nodesOf.get(topic);
    if (!nodes) this.nodesOf.set(topic, (nodes = new Set()));
    nodes.add(node);
    let topics = this.topicsOf.get(node);
    if (!topics) this.topicsOf.set(node, (topics = new Set()));
    topics.add(topic);
  }

  private remove(node: string, topic: string): void {
    const nodes = this.nodesOf.get(topic);
    if (nodes?.delete(node) && nodes.size === 0) this.nodesOf.delete(topic);
    const topics = this.topicsOf.get(node);
    if (topics?.delete(topic) && topics.size === 0) this.topicsOf.delete(node);
  }
}

const EMPTY: ReadonlySet<string> = new Set();
