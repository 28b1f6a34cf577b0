import type { EventScenario } from "../../scenario/types.js";
import { HttpProblem } from "../problem.js";
import { limitParam } from "../query.js";
import type { Route } from "../route.js";
import { iso, json, uuidFrom } from "./format.js";
import { PUBLIC_MARKET_STATUSES } from "./market-record.js";
import type { RouteDeps } from "./shared.js";

/** The mock's tag list (GET /api/tags; payload not shown in the spec beyond slug, name, color, iconUrl). */
export const TAGS = [
  {
    slug: "football",
    name: "Football",
    color: "#2e7d32",
    iconUrl: "https://static.mock.invalid/tags/football.svg",
  },
  {
    slug: "world-cup",
    name: "World Cup",
    color: "#8d1b3d",
    iconUrl: "https://static.mock.invalid/tags/world-cup.svg",
  },
] as const;
const TAG_SLUGS = TAGS.map((t) => t.slug);

/**
 * Public catalogue reads: GET /api/events, /api/events/{id}, /api/matches, /api/matches/{id}
 * (404 `match_not_found` when unknown or without a public-status market) and /api/tags.
 * The scenario has events but no matches: every event with two teams is one match (id derived
 * from the event's, slug the event's, state READY). Event `group` is "final" throughout (the
 * scenario's tournament stage), its start is the earliest closesAt of its markets.
 */
export function catalogRoutes(deps: RouteDeps): Route[] {
  const { ctx } = deps;
  const marketsOf = (e: EventScenario) => ctx.markets.all.filter((m) => m.eventId === e.id);
  const eventRecord = (e: EventScenario) => ({
    id: e.id,
    slug: e.slug,
    title: e.title,
    group: "final",
    teamA: e.teamA ?? null,
    teamB: e.teamB ?? null,
    tags: TAG_SLUGS,
    eventStartTime: deps.markets.eventStart(e.id),
    createdAt: iso(deps.markets.startedAt),
    updatedAt: iso(deps.markets.startedAt),
    markets: marketsOf(e).map((m) => deps.markets.record(m)),
  });
  const matches = ctx.markets.events
    .filter((e) => e.teamA !== undefined && e.teamB !== undefined)
    .map((e) => ({ id: uuidFrom(`match:${e.id}`), event: e }));
  const matchRecord = ({ id, event }: { id: string; event: EventScenario }) => ({
    id,
    slug: event.slug,
    title: `${event.teamA} vs ${event.teamB}`,
    participantA: event.teamA,
    participantB: event.teamB,
    tags: TAG_SLUGS,
    startTime: deps.markets.eventStart(event.id),
    state: "READY",
    createdAt: iso(deps.markets.startedAt),
    updatedAt: iso(deps.markets.startedAt),
    events: [eventRecord(event)],
  });
  const isPublic = (e: EventScenario) =>
    marketsOf(e).some((m) => PUBLIC_MARKET_STATUSES.has(deps.markets.status(m)));

  return [
    {
      method: "GET",
      pattern: "/api/events",
      auth: "public",
      scopes: ["events:read"],
      handler: (rc) => {
        const limit = limitParam(rc.query, { def: 100, max: 500 });
        return json({ events: ctx.markets.events.slice(0, limit).map(eventRecord) });
      },
    },
    {
      method: "GET",
      pattern: "/api/events/{id}",
      auth: "public",
      scopes: ["events:read"],
      handler: (rc) => {
        const id = rc.params.id ?? "";
        const event = ctx.markets.events.find((e) => e.id === id);
        if (event === undefined) {
          throw new HttpProblem(404, "event_not_found", `no event ${id.slice(0, 80)}`, {
            id: id.slice(0, 80),
          });
        }
        return json(eventRecord(event));
      },
    },
    {
      method: "GET",
      pattern: "/api/matches",
      auth: "public",
      scopes: ["matches:read"],
      handler: (rc) => {
        const limit = limitParam(rc.query, { def: 100, max: 500 });
        return json({
          matches: matches
            .filter((m) => isPublic(m.event))
            .slice(0, limit)
            .map(matchRecord),
        });
      },
    },
    {
      method: "GET",
      pattern: "/api/matches/{id}",
      auth: "public",
      scopes: ["matches:read"],
      handler: (rc) => {
        const id = rc.params.id ?? "";
        const match = matches.find((m) => m.id === id);
        if (match === undefined || !isPublic(match.event)) {
          throw new HttpProblem(404, "match_not_found", `no match ${id.slice(0, 80)}`, {
            id: id.slice(0, 80),
          });
        }
        return json(matchRecord(match));
      },
    },
    {
      method: "GET",
      pattern: "/api/tags",
      auth: "public",
      scopes: [],
      handler: () => json({ tags: TAGS }),
    },
  ];
}
