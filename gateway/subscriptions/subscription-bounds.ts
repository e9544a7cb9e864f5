/**
 * How many GraphQL subscriptions may run at once (issue 33, finding 11: 5,000 subscribes on one
 * socket cost one unit of quota, each holding a listener and a generator): at most
 * MAX_SUBSCRIPTIONS_PER_SOCKET on a socket, and the plan's maxSubscriptions for an organisation
 * (what it runs on the other gateway processes is subtracted by the caller:
 * ./shared-subscription-counts.ts).
 *
 * Running means admitted here and still among graphql-ws's own record of the socket's operations
 * (`subscriptions`, from which it deletes each operation however it ends), so an operation that
 * ends on a path with no hook (a validation error) cannot leave a count behind. Subscribes sent
 * together are all in that record before the first is checked, hence the set of admitted ids.
 */

/** Enough for a dashboard's progress bars; past it, a client should complete one or open another socket. */
export const MAX_SUBSCRIPTIONS_PER_SOCKET = 20;

/** A graphql-ws connection context: the operations on its socket, by id. */
interface Socket {
  readonly subscriptions: Readonly<Record<string, unknown>>;
}

export class SubscriptionBounds {
  private readonly socketsOf = new Map<string, Set<Socket>>();
  private readonly admitted = new WeakMap<Socket, Set<string>>();

  /** A socket of `org` is acknowledged. */
  opened(org: string, socket: Socket): void {
    let sockets = this.socketsOf.get(org);
    if (!sockets) this.socketsOf.set(org, (sockets = new Set()));
    sockets.add(socket);
    this.admitted.set(socket, new Set());
  }

  /** A socket of `org` closed. */
  closed(org: string, socket: Socket): void {
    const sockets = this.socketsOf.get(org);
    if (sockets?.delete(socket) && sockets.size === 0) this.socketsOf.delete(org);
  }

  /** A subscribe with `id` arrived (call it before any await): an earlier operation of that id has ended. */
  arrived(socket: Socket, id: string): void {
    this.admitted.get(socket)?.delete(id);
  }

  /**
   * Admits operation `id` of `org` on `socket` and returns undefined, or returns why it may not run;
   * `elsewhere`: what the organisation runs on the other gateway processes.
   * Checks and admits at once (no await between), so concurrent subscribes cannot all pass.
   */
  admit(org: string, socket: Socket, id: string, perOrganisation: number, elsewhere = 0): string | undefined {
    if (this.running(socket) >= MAX_SUBSCRIPTIONS_PER_SOCKET) {
      return `At most ${MAX_SUBSCRIPTIONS_PER_SOCKET} subscriptions run at once on one socket; complete one first`;
    }
    if (this.count(org) + elsewhere >= perOrganisation) {
      return `Your plan allows ${perOrganisation} subscriptions running at once${elsewhere > 0 ? ` (${elsewhere} of yours run on other gateway processes)` : ''}; complete one first`;
    }
    this.admitted.get(socket)?.add(id);
    return undefined;
  }

  /** Subscriptions `org` runs on this process. */
  count(org: string): number {
    let total = 0;
    for (const socket of this.socketsOf.get(org) ?? []) total += this.running(socket);
    return total;
  }

  /** The count of every organisation with a socket here. */
  counts(): Map<string, number> {
    return new Map([...this.socketsOf.keys()].map((org) => [org, this.count(org)]));
  }

  /** Admitted operations still running on `socket`; the ended ones are forgotten on the way. */
  private running(socket: Socket): number {
    const ids = this.admitted.get(socket);
    if (!ids) return 0;
    for (const id of ids) if (!(id in socket.subscriptions)) ids.delete(id);
    return ids.size;
  }
}
