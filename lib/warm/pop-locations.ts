import { REGIONS, type RegionCode } from "@/lib/core/regions";

/**
 * Where a CDN's point of presence stands, from the code the CDN names it by: IATA airport (or
 * metro) codes for Cloudflare (cf-ray), CloudFront (x-amz-cf-pop), Fastly (x-served-by), Vercel
 * (x-vercel-id) and most others; Bunny's own region codes (`DE1`). Akamai, Imperva, Alibaba,
 * Tencent, Google and StackPath (whose own codes are not airports) name none. The table covers
 * the cities these CDNs publish PoPs in; a code outside it is `unknown`, never guessed.
 * docs/guide/site-owners/cache-detection.md ("Where a PoP is") says the same.
 */
type Continent = "EU" | "NA" | "SA" | "AS" | "AF" | "OC";
export type PopLocation = { country: string; continent: Continent };

/** Country (ISO 3166-1 alpha-2) → its airports and metro codes. */
const AIRPORTS: Record<string, string> = {
  // Europe
  FR: "CDG ORY PAR MRS LYS NCE BOD TLS",
  DE: "FRA MUC HAM TXL BER DUS STR CGN LEJ NUE",
  ES: "MAD BCN VLC AGP BIO PMI",
  GB: "LHR LON LGW LCY STN LTN MAN EDI GLA BHX",
  NL: "AMS RTM",
  BE: "BRU",
  LU: "LUX",
  CH: "ZRH GVA",
  AT: "VIE",
  IT: "MXP LIN MIL FCO ROM PMO",
  PT: "LIS OPO",
  IE: "DUB ORK",
  SE: "ARN GOT STO",
  NO: "OSL",
  DK: "CPH",
  FI: "HEL",
  IS: "KEF",
  PL: "WAW KRK",
  CZ: "PRG",
  SK: "BTS",
  HU: "BUD",
  RO: "OTP BUH",
  BG: "SOF",
  GR: "ATH SKG",
  HR: "ZAG",
  SI: "LJU",
  RS: "BEG",
  UA: "KBP IEV",
  MD: "KIV",
  LV: "RIX",
  LT: "VNO",
  EE: "TLL",
  CY: "LCA",
  MT: "MLA",
  TR: "IST",
  RU: "SVO DME MOW LED",
  // North America
  US: "IAD DCA WAS BWI ATL BOS ORD CHI CLE DFW DAL DEN LAX MIA EWR JFK LGA NYC SEA SJC SFO PHX IAH HOU MSP DTW PHL PDX SLC LAS MCI CLT BNA CMH IND STL SAN TPA MCO RIC PIT BUF OMA OKC ABQ AUS SAT HNL ANC JAX MEM",
  CA: "YYZ YUL YVR YYC YOW YWG YHZ YXE",
  MX: "MEX QRO GDL MTY",
  // South America
  BR: "GRU GIG POA FOR CWB BSB VCP SSA",
  AR: "EZE",
  CL: "SCL",
  CO: "BOG MDE",
  PE: "LIM",
  EC: "UIO",
  // Asia
  JP: "NRT HND TYO KIX ITM OSA FUK OKA",
  KR: "ICN GMP SEL",
  SG: "SIN QPG",
  HK: "HKG",
  TW: "TPE KHH",
  CN: "PEK PVG SHA CAN SZX CTU",
  IN: "BOM DEL MAA BLR HYD CCU AMD PNQ",
  ID: "CGK JKT SUB DPS",
  MY: "KUL JHB",
  TH: "BKK",
  VN: "SGN HAN",
  PH: "MNL",
  AE: "DXB AUH FJR",
  SA: "RUH JED DMM",
  IL: "TLV",
  QA: "DOH",
  BH: "BAH",
  KW: "KWI",
  OM: "MCT",
  PK: "KHI LHE ISB",
  BD: "DAC",
  LK: "CMB",
  NP: "KTM",
  KZ: "ALA NQZ",
  // Oceania
  AU: "SYD MEL BNE PER ADL CBR",
  NZ: "AKL CHC",
  // Africa
  ZA: "JNB CPT DUR",
  EG: "CAI",
  NG: "LOS",
  KE: "NBO",
  MA: "CMN",
  TN: "TUN",
  GH: "ACC",
};

const CONTINENT_OF: Record<string, Continent> = {
  ...Object.fromEntries("FR DE ES GB NL BE LU CH AT IT PT IE SE NO DK FI IS PL CZ SK HU RO BG GR HR SI RS UA MD LV LT EE CY MT TR RU".split(" ").map((c) => [c, "EU" as const])),
  ...Object.fromEntries("US CA MX".split(" ").map((c) => [c, "NA" as const])),
  ...Object.fromEntries("BR AR CL CO PE EC".split(" ").map((c) => [c, "SA" as const])),
  ...Object.fromEntries("JP KR SG HK TW CN IN ID MY TH VN PH AE SA IL QA BH KW OM PK BD LK NP KZ".split(" ").map((c) => [c, "AS" as const])),
  ...Object.fromEntries("AU NZ".split(" ").map((c) => [c, "OC" as const])),
  ...Object.fromEntries("ZA EG NG KE MA TN GH".split(" ").map((c) => [c, "AF" as const])),
};

/** Bunny names its PoPs by a region prefix and a number (`DE1`, `NY2`): the prefix → country. */
const BUNNY_PREFIXES: Record<string, string> = {
  DE: "DE",
  FR: "FR",
  UK: "GB",
  ES: "ES",
  IT: "IT",
  NL: "NL",
  PL: "PL",
  SE: "SE",
  CZ: "CZ",
  NY: "US",
  LA: "US",
  IL: "US",
  TX: "US",
  MI: "US",
  WA: "US",
  SG: "SG",
  JP: "JP",
  HK: "HK",
  SYD: "AU",
  BR: "BR",
};

const BY_CODE: ReadonlyMap<string, PopLocation> = new Map(
  Object.entries(AIRPORTS).flatMap(([country, codes]) => codes.split(" ").map((code) => [code, { country, continent: CONTINENT_OF[country]! }] as const)),
);

const COUNTRY_NAMES: Record<string, string> = { FR: "France", DE: "Germany", ES: "Spain", GB: "the United Kingdom", US: "the United States" };

/** Where the PoP named `code` is, or null when the code is not one the table knows. */
export function popLocation(code: string): PopLocation | null {
  const upper = code.toUpperCase();
  const known = BY_CODE.get(upper);
  if (known) return known;
  const bunny = /^([A-Z]{2,3})\d+$/.exec(upper)?.[1];
  const country = bunny ? BUNNY_PREFIXES[bunny] : undefined;
  return country ? { country, continent: CONTINENT_OF[country]! } : null;
}

/** The PoPs of the table, for its documentation and tests. */
export function knownPopCodes(): string[] {
  return [...BY_CODE.keys()];
}

/** Whether a PoP at `location` serves a region's visitors: the region's country, or its continent for `eu` and `as`. */
function inRegion(region: RegionCode, location: PopLocation): boolean {
  const area = REGIONS.find((r) => r.code === region)!.area;
  return "country" in area ? area.country === location.country : area.continent === location.continent;
}

export type RegionPop = { pop: string; calls: number; country: string | null; continent: Continent | null; in_region: boolean | null };
export type Reach = "in_region" | "elsewhere" | "unknown";

/**
 * Which PoPs answered a region's calls, and what that says: `in_region` when most of the calls
 * whose PoP is known were answered inside the region, `elsewhere` when most were answered outside
 * it (its visitors' PoPs were not warmed), `unknown` when no answer named a PoP the table knows.
 */
export function regionReach(region: RegionCode, pops: { pop: string; calls: number }[]): { pops: RegionPop[]; reached: Reach } {
  let inside = 0;
  let outside = 0;
  const located = pops.map(({ pop, calls }) => {
    const location = popLocation(pop);
    const within = location ? inRegion(region, location) : null;
    if (within === true) inside += calls;
    if (within === false) outside += calls;
    return { pop, calls, country: location?.country ?? null, continent: location?.continent ?? null, in_region: within };
  });
  const reached: Reach = inside + outside === 0 ? "unknown" : inside >= outside ? "in_region" : "elsewhere";
  return { pops: located, reached };
}

/** The sentence a run says about a region warmed through PoPs outside it: "de was warmed through CDG (France): …". */
export function warmedElsewhereSentence(region: RegionCode, pops: RegionPop[]): string {
  const outside = pops.filter((p) => p.in_region === false).sort((a, b) => b.calls - a.calls);
  const named = outside
    .slice(0, 3)
    .map((p) => `${p.pop} (${COUNTRY_NAMES[p.country!] ?? p.country})`)
    .join(", ");
  return `${region} was warmed through ${named}: its visitors' PoPs were not warmed.`;
}
