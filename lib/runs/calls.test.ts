import { describe, expect, it } from "vitest";
import { type CallPlan, countCalls, countCallsByRegion, countCallsByVariant, expandCalls, variantKey, variantOfKey } from "./calls";

const urls = (n: number) => Array.from({ length: n }, (_, i) => `https://shop.test/${i}`);
const sets = [
  { name: "USD", cookies: { currency: "USD" } },
  { name: "EUR", cookies: { currency: "EUR" } },
];

describe("the call count, with cookie sets, encodings and custom user agents", () => {
  const plans: [string, CallPlan][] = [
    [
      "every dimension",
      {
        regions: ["fr", "de"],
        variations: { user_agents: ["mobile", "desktop"], languages: ["fr-FR"], cookie_sets: sets, encodings: ["zstd", "br", "identity"] },
        requestProfile: { custom_user_agents: ["ShopApp/1"] },
      },
    ],
    ["custom agents beside the default class", { regions: ["fr"], variations: null, requestProfile: { custom_user_agents: ["A/1", "B/2"] } }],
    ["cookie sets only", { regions: ["us", "eu", "as"], variations: { cookie_sets: sets } }],
  ];

  it.each(plans)("counts what expandCalls makes, in all, per region and per variant (%s)", (_name, plan) => {
    for (const [n, limit] of [
      [4, null],
      [4, 23],
      [3, 1],
      [0, null],
    ] as const) {
      const { byRegion, total } = expandCalls(urls(n), plan, limit);
      const calls = [...byRegion.values()].flat();
      expect(calls).toHaveLength(total);
      expect(total).toBe(countCalls(n, plan, limit));
      expect(countCallsByRegion(n, plan, limit)).toEqual(Object.fromEntries([...byRegion].map(([region, list]) => [region, list.length])));
      const made = new Map<string, number>();
      for (const call of calls) made.set(variantKey(call), (made.get(variantKey(call)) ?? 0) + 1);
      for (const { calls: counted, ...variant } of countCallsByVariant(n, plan, limit)) expect(made.get(variantKey(variant)) ?? 0).toBe(counted);
    }
  });

  it("makes URL × agent (classes, then custom) × language × cookie set × encoding calls, naming the set and encoding only when there are some", () => {
    const plan = plans[0]![1];
    expect(countCalls(5, plan)).toBe(5 * 2 * 3 * 1 * 2 * 3);
    const fr = expandCalls(urls(1), plan, null).byRegion.get("fr")!;
    expect(fr[0]).toEqual({ url: "https://shop.test/0", user_agent: "mobile", language: "fr-FR", cookie_set: "USD", encoding: "zstd" });
    expect(fr.at(-1)).toEqual({ url: "https://shop.test/0", user_agent: "ShopApp/1", language: "fr-FR", cookie_set: "EUR", encoding: "identity" });
    expect(
      expandCalls(urls(1), plans[1]![1], null)
        .byRegion.get("fr")!
        .map((c) => c.user_agent),
    ).toEqual(["desktop", "A/1", "B/2"]);
    expect(expandCalls(urls(1), { regions: ["fr"], variations: null }, null).byRegion.get("fr")).toEqual([{ url: "https://shop.test/0", user_agent: "desktop", language: null }]);
  });

  it("reads a variant back from its key, even a custom agent holding |", () => {
    const variant = { user_agent: "Odd|Agent/1", language: "fr-FR", cookie_set: null, encoding: "br" };
    expect(variantOfKey(variantKey(variant))).toEqual(variant);
  });
});
